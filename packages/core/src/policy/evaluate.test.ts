import { describe, expect, it } from "vitest";
import type { Finding } from "../safety/types.js";
import type { ExtractedCommand, ShellAnalysis } from "../shell/types.js";
import type { ClassifyFn } from "./deps.js";
import { evaluateAnalysis } from "./evaluate.js";
import { resolvePolicy } from "./resolve.js";
import type { DecideContext, Decision, PolicyDocument, PolicyLayer } from "./types.js";

/** A hand-built command: whitespace-split text unless argv is given. */
function cmd(text: string, extra: Partial<ExtractedCommand> = {}): ExtractedCommand {
  const argv = extra.argv ?? text.split(/\s+/).filter(Boolean);
  return {
    text,
    argv,
    dynamic: [],
    assignments: [],
    redirects: [],
    wrappers: [],
    effective: argv,
    staticProgram: true,
    context: [],
    lookupOnly: false,
    ...extra,
  };
}

/** A fake classifier: findings keyed by a word that appears in the effective argv. */
function classifier(table: Record<string, Finding["severity"]>): ClassifyFn {
  return (command) =>
    command.effective
      .filter((w) => table[w] !== undefined)
      .map((w) => ({ code: `test.${w}`, severity: table[w] as Finding["severity"], message: `saw ${w}` }));
}

const noFindings: ClassifyFn = () => [];

function run(
  commands: ExtractedCommand[],
  layers: PolicyLayer[],
  options: {
    classify?: ClassifyFn;
    findings?: Finding[];
    incomplete?: boolean;
    context?: DecideContext;
  } = {},
): Decision {
  const analysis: ShellAnalysis = {
    language: "bash",
    commands,
    findings: options.findings ?? [],
    incomplete: options.incomplete ?? false,
  };
  const policy = resolvePolicy(layers, { defaultPreset: null });
  return evaluateAnalysis(commands.map((c) => c.text).join(" | "), analysis, policy, {
    context: options.context ?? {},
    classify: options.classify ?? noFindings,
  });
}

const user = (document: Omit<PolicyDocument, "version">): PolicyLayer => ({
  kind: "user",
  source: "user.json",
  document: { version: 1, ...document },
});

describe("combining verdicts", () => {
  const allowLs = user({
    rules: [
      { match: ["ls"], decision: "allow" },
      { match: ["wc"], decision: "allow" },
    ],
  });

  it("allows a pipeline made only of allowed commands", () => {
    expect(run([cmd("ls -la"), cmd("wc -l")], [allowLs]).decision).toBe("allow");
  });

  it("asks when one command of a pipeline has no rule", () => {
    const d = run([cmd("ls"), cmd("curl example.com")], [allowLs]);
    expect(d.decision).toBe("ask");
    expect(d.verdicts.map((v) => v.decision)).toEqual(["allow", "ask"]);
    expect(d.reasons.some((r) => r.code === "policy.no-rule" && r.command === "curl example.com")).toBe(true);
  });

  it("denies when a command inside a substitution is denied", () => {
    const layers = [
      user({
        rules: [
          { match: ["echo"], decision: "allow" },
          { match: ["shred"], decision: "deny" },
        ],
      }),
    ];
    const d = run([cmd("echo x"), cmd("shred key", { context: ["command-substitution"] })], layers);
    expect(d.decision).toBe("deny");
  });

  it("lists matching rules highest layer first, strictest first within a layer", () => {
    const layers: PolicyLayer[] = [
      {
        kind: "workspace",
        source: "w.json",
        document: { version: 1, rules: [{ match: ["git", "push"], decision: "deny" }] },
      },
      user({
        rules: [
          { match: ["git"], decision: "allow" },
          { match: ["git", "push"], decision: "ask" },
        ],
      }),
    ];
    const d = run([cmd("git push")], layers);
    expect(d.reasons.map((r) => `${r.rule?.layer} ${r.severity}`)).toEqual([
      "user ask",
      "user allow",
      "workspace deny",
    ]);
  });

  it("takes the strictest matching rule across layers", () => {
    const layers = [
      user({
        rules: [
          { match: ["git"], decision: "allow" },
          { match: ["git", "push"], decision: "ask" },
        ],
      }),
    ];
    expect(run([cmd("git status")], layers).decision).toBe("allow");
    expect(run([cmd("git push origin")], layers).decision).toBe("ask");
  });

  it("keeps an ask finding on an allowlisted tool", () => {
    const d = run([cmd("find . -delete")], [user({ rules: [{ match: ["find"], decision: "allow" }] })], {
      classify: classifier({ "-delete": "ask" }),
    });
    expect(d.decision).toBe("ask");
    expect(d.reasons.map((r) => r.code)).toContain("test.-delete");
  });

  it("lets a user rule that names the exact form lift an ask finding", () => {
    const layers = [
      user({ rules: [{ match: ["git", "push", "--force", "origin", "$"], decision: "allow" }] }),
    ];
    const d = run([cmd("git push --force origin")], layers, { classify: classifier({ "--force": "ask" }) });
    expect(d.decision).toBe("allow");
    expect(d.reasons.find((r) => r.code === "test.--force")?.inactive).toBe("lifted");
  });

  it("does not lift a finding whose subject sits under * in the exact form", () => {
    const subjectFinding: ClassifyFn = (command) =>
      command.effective.includes("--force")
        ? [{ code: "git.push-force", severity: "ask", message: "force", subject: "--force" }]
        : [];
    const star = [user({ rules: [{ match: ["git", "push", "*", "$"], decision: "allow" }] })];
    expect(run([cmd("git push --force")], star, { classify: subjectFinding }).decision).toBe("ask");
    const named = [user({ rules: [{ match: ["git", "push", "--force", "*", "$"], decision: "allow" }] })];
    expect(run([cmd("git push --force origin")], named, { classify: subjectFinding }).decision).toBe("allow");
  });

  it("does not lift an ask finding with a prefix rule (no end marker)", () => {
    const layers = [user({ rules: [{ match: ["git", "push", "--force"], decision: "allow" }] })];
    expect(
      run([cmd("git push --force origin")], layers, { classify: classifier({ "--force": "ask" }) }).decision,
    ).toBe("ask");
  });

  it("does not let an exact user rule beat a managed ask rule for the same form", () => {
    const layers: PolicyLayer[] = [
      {
        kind: "managed",
        source: "m.json",
        document: { version: 1, rules: [{ match: ["git", "push", "--force"], decision: "ask" }] },
      },
      user({ rules: [{ match: ["git", "push", "--force", "origin", "$"], decision: "allow" }] }),
    ];
    const d = run([cmd("git push --force origin")], layers, { classify: classifier({ "--force": "ask" }) });
    expect(d.decision).toBe("ask");
    expect(
      d.reasons.filter((r) => r.inactive === undefined && r.severity === "ask").map((r) => r.rule?.layer),
    ).toEqual(["managed"]);
  });

  it("never lifts a deny finding, even with an exact user rule", () => {
    const layers = [user({ rules: [{ match: ["rm", "-rf", "/", "$"], decision: "allow" }] })];
    expect(run([cmd("rm -rf /")], layers, { classify: classifier({ "/": "deny" }) }).decision).toBe("deny");
  });

  it("does not lift findings with an exact rule from a builtin, pack or approved workspace layer", () => {
    const doc: PolicyDocument = {
      version: 1,
      rules: [{ match: ["sed", "-i", "s/a/b/", "f", "$"], decision: "allow" }],
    };
    const classify = classifier({ "-i": "ask" });
    for (const kind of ["workspace", "pack", "builtin"] as const) {
      const d = run(
        [cmd("sed -i s/a/b/ f")],
        [{ kind, source: `${kind}.json`, document: doc, approved: true }],
        { classify },
      );
      expect(d.decision, kind).toBe("ask");
    }
  });

  it("does not lift findings when the command has redirections, wrappers or assignments the rule does not name", () => {
    const layers = [user({ rules: [{ match: ["tool", "--x", "$"], decision: "allow" }] })];
    const classify = classifier({ "--x": "ask" });
    const redirect = { op: ">", target: "out.txt", text: "> out.txt" };
    expect(run([cmd("tool --x", { redirects: [redirect] })], layers, { classify }).decision).toBe("ask");
    expect(
      run(
        [cmd("tool --x", { argv: ["sudo", "tool", "--x"], effective: ["tool", "--x"], wrappers: ["sudo"] })],
        layers,
        { classify },
      ).decision,
    ).toBe("ask");
    const devNull = { op: ">", fd: 2, target: "/dev/null", text: "2>/dev/null" };
    expect(run([cmd("tool --x", { redirects: [devNull] })], layers, { classify }).decision).toBe("allow");
  });

  it("asks for a command no rule covers and no classifier flags", () => {
    const d = run([cmd("frobnicate --now")], []);
    expect(d.decision).toBe("ask");
    expect(d.reasons).toEqual([expect.objectContaining({ code: "policy.no-rule", severity: "ask" })]);
  });

  it("names the rule that does not count yet, and what makes it count, instead of no rule", () => {
    const allowGit = { rules: [{ match: [["git"], "*"], decision: "allow" as const }] };
    const noRule = (layers: PolicyLayer[]) =>
      run([cmd("git status")], layers).reasons.find((r) => r.code === "policy.no-rule")?.message;
    const workspace: PolicyLayer = {
      kind: "workspace",
      source: "ws.json",
      document: { version: 1, ...allowGit },
    };
    expect(noRule([workspace])).toMatch(
      /^no rule that counts covers "git": rule \/rules\/0 of workspace ws\.json would allow it once .*\(slashi trust\)$/,
    );
    const pack: PolicyLayer = { kind: "pack", source: "@acme/p", document: { version: 1, ...allowGit } };
    expect(noRule([pack])).toMatch(/rule \/rules\/0 of pack @acme\/p .*\(slashi pack approve @acme\/p\)$/);
    const onlyTrusted: PolicyLayer = user({
      rules: [{ match: ["git", "*"], decision: "allow", trustedWorkspaceOnly: true }],
    });
    const untrusted = run([cmd("git status")], [onlyTrusted], { context: { workspaceTrusted: false } });
    expect(untrusted.decision).toBe("ask");
    expect(untrusted.reasons.find((r) => r.code === "policy.no-rule")?.message).toMatch(
      /of user .* once you trust this workspace \(slashi trust\)$/,
    );
    expect(noRule([{ ...workspace, approved: true }])).toBeUndefined();
    expect(noRule([])).toBe('no rule covers "git"');
  });

  it("allows a lookup-only command when nothing else speaks", () => {
    const d = run([cmd("command -v git", { effective: ["git"], lookupOnly: true })], []);
    expect(d.decision).toBe("allow");
    expect(d.reasons[0]?.code).toBe("policy.lookup-only");
  });

  it("denies an empty script", () => {
    const d = run([], []);
    expect(d.decision).toBe("deny");
    expect(d.script[0]?.code).toBe("policy.empty-command");
  });

  it("allows a line that only assigns variables, and asks for a non-empty line without commands", () => {
    const assignOnly: ShellAnalysis = {
      language: "bash",
      commands: [],
      findings: [],
      incomplete: false,
      assignments: [{ name: "X", value: "1", exported: false }],
    };
    const policy = resolvePolicy([], { defaultPreset: null });
    const options = { context: {}, classify: noFindings };
    expect(evaluateAnalysis("X=1", assignOnly, policy, options).decision).toBe("allow");
    const nothing: ShellAnalysis = { language: "bash", commands: [], findings: [], incomplete: false };
    expect(evaluateAnalysis("> out.txt", nothing, policy, options).decision).toBe("ask");
    expect(evaluateAnalysis("  # note\n", nothing, policy, options).decision).toBe("deny");
  });

  it("never allows an incomplete analysis", () => {
    const d = run([cmd("ls")], [allowLs], { incomplete: true });
    expect(d.decision).toBe("ask");
    expect(d.script.map((r) => r.code)).toEqual(["policy.incomplete-analysis"]);
  });

  it("applies script-level findings to the whole line", () => {
    const finding: Finding = { code: "shell.parse-error", severity: "ask", message: "cannot parse" };
    expect(run([cmd("ls")], [allowLs], { findings: [finding], incomplete: true }).decision).toBe("ask");
    const deny: Finding = { code: "shell.fork-bomb", severity: "deny", message: "fork bomb" };
    expect(run([cmd("ls")], [allowLs], { findings: [deny] }).decision).toBe("deny");
  });

  it("asks when an allowed program gets an argument only known at run time", () => {
    const layers = [
      user({
        rules: [
          { match: ["sort"], decision: "allow" },
          { match: ["echo"], decision: "allow" },
        ],
      }),
    ];
    const d = run([cmd("sort $OPTS", { dynamic: [1] })], layers);
    expect(d.decision).toBe("ask");
    expect(d.reasons.map((r) => r.code)).toContain("policy.dynamic-argument");
    expect(run([cmd('echo "$HOME"', { argv: ["echo", "$HOME"], dynamic: [1] })], layers).decision).toBe(
      "allow",
    );
  });

  it("allows a command with a harmless leading assignment under an allow rule", () => {
    const layers = [user({ rules: [{ match: ["npm", "test"], decision: "allow" }] })];
    const ci = cmd("CI=true npm test", {
      argv: ["npm", "test"],
      assignments: [{ name: "CI", value: "true", exported: false }],
    });
    expect(run([ci], layers).decision).toBe("allow");
  });

  it("matches rules against a runner that has nothing to run", () => {
    const env = cmd("env", { effective: [], wrappers: ["env"] });
    expect(run([env], [user({ rules: [{ match: ["env", "$"], decision: "allow" }] })]).decision).toBe(
      "allow",
    );
    expect(run([env], [user({ rules: [{ match: ["env"], decision: "deny" }] })]).decision).toBe("deny");
    expect(run([env], []).decision).toBe("ask");
  });

  it("allows a command that only assigns, when nothing flags it", () => {
    const plain = cmd("X=1", {
      argv: [],
      effective: [],
      assignments: [{ name: "X", value: "1", exported: false }],
    });
    expect(run([plain], []).decision).toBe("allow");
  });

  it("does not let exact rules match, or prefix rules vouch for, arguments appended from input", () => {
    const layers = [
      user({
        rules: [
          { match: ["find", "."], decision: "allow" },
          { match: ["grep", "x", "$"], decision: "allow" },
        ],
      }),
    ];
    const findX = cmd("xargs find .", {
      argv: ["xargs", "find", "."],
      effective: ["find", "."],
      wrappers: ["xargs"],
      appendsArguments: true,
    });
    expect(run([findX], layers).decision).toBe("ask");
    const grepX = cmd("xargs grep x", {
      argv: ["xargs", "grep", "x"],
      effective: ["grep", "x"],
      wrappers: ["xargs"],
      appendsArguments: true,
    });
    expect(run([grepX], layers).verdicts[0]?.reasons.map((r) => r.code)).toEqual(["policy.no-rule"]);
    const catX = cmd("xargs cat", {
      argv: ["xargs", "cat"],
      effective: ["cat"],
      wrappers: ["xargs"],
      appendsArguments: true,
    });
    expect(run([catX], [user({ rules: [{ match: ["cat"], decision: "allow" }] })]).decision).toBe("ask");
  });

  it("does not match rules against a call of a function defined in the script", () => {
    const layers = [user({ rules: [{ match: ["ls"], decision: "deny" }] })];
    const d = run([cmd("ls", { callsFunction: true })], layers);
    expect(d.decision).toBe("allow");
    expect(d.reasons[0]?.code).toBe("policy.function-call");
  });

  it("lets a rule starting with * cover any program while findings still apply", () => {
    const layers = [user({ rules: [{ match: ["*"], decision: "allow" }] })];
    expect(run([cmd("make build")], layers).decision).toBe("allow");
    expect(
      run([cmd("git push --force")], layers, { classify: classifier({ "--force": "ask" }) }).decision,
    ).toBe("ask");
  });

  it("compares program names case-insensitively on Windows only", () => {
    const layers = [user({ rules: [{ match: ["git", "status"], decision: "allow" }] })];
    expect(run([cmd("GIT.EXE status")], layers).decision).toBe("ask");
    expect(run([cmd("GIT.EXE status")], layers, { context: { platform: "windows" } }).decision).toBe("allow");
  });

  it("compares program names case-insensitively in PowerShell and cmd scripts", () => {
    const policy = resolvePolicy([user({ rules: [{ match: ["get-childitem"], decision: "allow" }] })], {
      defaultPreset: null,
    });
    const analysis: ShellAnalysis = {
      language: "powershell",
      commands: [cmd("Get-ChildItem -Force")],
      findings: [],
      incomplete: false,
    };
    expect(
      evaluateAnalysis("Get-ChildItem -Force", analysis, policy, { context: {}, classify: noFindings })
        .decision,
    ).toBe("allow");
    const bash: ShellAnalysis = { ...analysis, language: "bash" };
    expect(
      evaluateAnalysis("Get-ChildItem -Force", bash, policy, { context: {}, classify: noFindings }).decision,
    ).toBe("ask");
  });

  it("ignores rules that need a trusted workspace when the workspace is not trusted", () => {
    const layers = [
      user({ rules: [{ match: ["git", "status"], decision: "allow", trustedWorkspaceOnly: true }] }),
    ];
    expect(run([cmd("git status")], layers).decision).toBe("allow");
    const d = run([cmd("git status")], layers, { context: { workspaceTrusted: false } });
    expect(d.decision).toBe("ask");
    expect(d.reasons[0]?.inactive).toBe("untrusted-workspace");
  });
});

describe("Enkaidu-compatible settings", () => {
  it("allows approved prefixes without asking", () => {
    const layers = [user({ approvedCommands: ["git status", "ls"] })];
    expect(run([cmd("git status -s")], layers).decision).toBe("allow");
    expect(run([cmd("git statusx")], layers).decision).toBe("ask");
  });

  it("denies commands outside allowedCommands and asks for allowed but unapproved ones", () => {
    const layers = [user({ allowedCommands: ["git", "grep"], approvedCommands: ["git status"] })];
    expect(run([cmd("git status")], layers).decision).toBe("allow");
    expect(run([cmd("git commit -m x")], layers).decision).toBe("ask");
    const d = run([cmd("git status"), cmd("curl x")], layers);
    expect(d.decision).toBe("deny");
    expect(d.reasons.find((r) => r.severity === "deny")?.code).toBe("policy.not-allowed-command");
  });

  it("does not gate anything when allowedCommands is absent", () => {
    expect(run([cmd("curl x")], [user({ approvedCommands: ["ls"] })]).decision).toBe("ask");
  });

  it("requires a command to pass the allowedCommands of every layer that sets them", () => {
    const layers: PolicyLayer[] = [
      user({ allowedCommands: ["git", "ls"], approvedCommands: ["ls"] }),
      {
        kind: "managed",
        source: "/etc/slashi/policy.json",
        document: { version: 1, allowedCommands: ["ls"] },
      },
    ];
    expect(run([cmd("ls")], layers).decision).toBe("allow");
    expect(run([cmd("git log")], layers).decision).toBe("deny");
  });

  it("asks for restricted terms matched on whole words, case-insensitively", () => {
    const layers = [user({ approvedCommands: ["echo", "xargs", "grep"], restrictedTerms: ["Secret"] })];
    expect(run([cmd("echo format")], layers).decision).toBe("allow");
    expect(run([cmd("xargs rm")], layers).decision).toBe("ask");
    expect(run([cmd("xargs /bin/RM")], layers).decision).toBe("ask");
    expect(run([cmd("echo SECRET")], layers).decision).toBe("ask");
    expect(run([cmd("grep --expression=x f")], layers).decision).toBe("ask");
  });

  it("adds no default restricted terms when no Enkaidu list is used", () => {
    expect(
      run([cmd("grep eval src")], [user({ rules: [{ match: ["grep"], decision: "allow" }] })]).decision,
    ).toBe("allow");
  });
});
