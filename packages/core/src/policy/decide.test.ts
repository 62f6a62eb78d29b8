import { beforeAll, describe, expect, it } from "vitest";
import { loadShellParser } from "../shell/parser.js";
import { decide, decideCommands, networkAllowed } from "./decide.js";
import { classifyScript } from "./deps.js";
import { parsePolicy, validatePolicyDocument } from "./parse.js";
import { RECOMMENDED_POLICY } from "./recommended.js";
import { resolvePolicy } from "./resolve.js";
import type { DecideContext, PolicyLayer } from "./types.js";
import { NOTHING_ON_DISK } from "../../test/safety/command.js";

// on a disk where nothing exists: a tree read whole (`grep -rn TODO src`) is seen to hold nothing
const context: DecideContext = {
  cwd: "/home/dev/project",
  workspaceRoot: "/home/dev/project",
  home: "/home/dev",
  fs: NOTHING_ON_DISK,
};
const recommended = resolvePolicy([]);
const verdict = (line: string, ctx: DecideContext = context): string =>
  decide(line, recommended, ctx).decision;

beforeAll(async () => {
  await loadShellParser();
});

describe("the recommended preset", () => {
  it("passes its own load-time checks, examples included", () => {
    expect(() => validatePolicyDocument(RECOMMENDED_POLICY, "preset:recommended")).not.toThrow();
  });

  it.each([
    "ls -la",
    "cat README.md | head -20",
    "grep -rn TODO src | wc -l",
    "git status --short && git log --oneline -5",
    "git diff HEAD~1 -- src",
    "git branch",
    "git branch -a",
    "git -C packages/core status",
    "find . -name '*.ts' -not -path './node_modules/*'",
    "sed -n 1,20p README.md",
    "sort names.txt | uniq -c | sort -rn",
    "npm test 2>&1 | tail -20",
    "pnpm run lint",
    "node --version",
    "python3 --version",
    "cd packages/core && ls",
    "command -v git >/dev/null 2>&1 && echo yes",
    "echo hi 2>/dev/null",
    "reset",
    "jq .version package.json",
    "du -sh . | sort -h",
  ])("allows %s", (line) => {
    expect(verdict(line)).toBe("allow");
  });

  it.each([
    ["git -c core.pager=less status", "git -c"],
    ["find . -delete", "find -delete"],
    ["sed -i s/a/b/ file.txt", "sed -i"],
    ["sort -o out.txt in.txt", "sort -o"],
    ["git branch -D main", "branch deletion"],
    ["uniq in.txt out.txt", "uniq writing its output file"],
    ["printf -v PATH /tmp/evil", "printf -v"],
    ["git push origin main", "push"],
    ["npm install", "install"],
    ["yarn", "bare yarn installs"],
    ["ls && curl https://example.invalid", "the second command of a chain"],
    ["./ls", "a look-alike path"],
    ["echo hi > ~/.bashrc", "a write to a shell start-up file"],
  ])("does not allow %s (%s)", (line) => {
    expect(verdict(line)).not.toBe("allow");
  });

  it("denies hard-deny forms whatever the preset allows", () => {
    expect(verdict("rm -rf /")).toBe("deny");
    expect(verdict("ls; rm -rf ~")).toBe("deny");
  });

  it("asks for git and npm scripts in an untrusted workspace", () => {
    expect(verdict("git status", { ...context, workspaceTrusted: false })).toBe("ask");
    expect(verdict("npm test", { ...context, workspaceTrusted: false })).toBe("ask");
    expect(verdict("ls", { ...context, workspaceTrusted: false })).toBe("allow");
  });
});

describe("decide", () => {
  it("decides every command inside substitutions and shell payloads", () => {
    expect(verdict("echo $(git push --force)")).toBe("ask");
    const policy = resolvePolicy([
      {
        kind: "user",
        source: "u.json",
        document: {
          version: 1,
          extends: ["recommended"],
          rules: [{ match: ["terraform", "destroy"], decision: "deny" }],
        },
      },
    ]);
    expect(decide("bash -c 'terraform destroy'", policy, context).decision).toBe("deny");
    expect(decide("timeout 60 terraform destroy", policy, context).decision).toBe("deny");
  });

  it("denies an empty command line", () => {
    const d = decide("   ", recommended, context);
    expect(d.decision).toBe("deny");
    expect(d.script[0]?.code).toBe("policy.empty-command");
  });

  it("never allows a line that does not parse", () => {
    expect(verdict("ls (")).not.toBe("allow");
  });

  it("asks when the shell is unknown", () => {
    const d = decide("ls", recommended, { ...context, shell: "/usr/bin/xonsh" });
    expect(d.decision).toBe("ask");
    expect(d.script[0]?.code).toBe("policy.unknown-shell");
  });

  it("analyses zsh and sh lines as bash", () => {
    expect(decide("ls -la", recommended, { ...context, shell: "/bin/zsh" }).decision).toBe("allow");
  });

  it("lets a user rule naming the exact form lift an inline-code finding", () => {
    const doc = parsePolicy(
      '{ "version": 1, "extends": ["recommended"], "rules": [{ "match": ["python3", "-c", "print(1)", "$"], "decision": "allow" }] }',
      "u.json",
    );
    const policy = resolvePolicy([{ kind: "user", source: "u.json", document: doc }]);
    expect(decide("python3 -c 'print(1)'", policy, context).decision).toBe("allow");
    expect(decide("python3 -c 'print(2)'", policy, context).decision).toBe("ask");
  });

  it("never lets an exact-form rule lift a mount point's removal, only the plain recursive one", () => {
    const doc = parsePolicy(
      '{ "version": 1, "extends": ["recommended"], "rules": [{ "match": ["rm", "-rf", ["build", "cache"], "$"], "decision": "allow" }] }',
      "u.json",
    );
    const policy = resolvePolicy([{ kind: "user", source: "u.json", document: doc }]);
    const fs = (mounts: readonly string[] | undefined) => ({
      realpath: (p: string) => p,
      readdir: () => undefined,
      mountPoints: () => mounts,
    });
    const mounted = { ...context, fs: fs(["/", "/home/dev/project/cache"]) };
    expect(decide("rm -rf build", policy, mounted).decision).toBe("allow");
    expect(decide("rm -rf cache", policy, mounted).decision).toBe("ask");
    expect(decide("rm -rf build", policy, { ...context, fs: fs(undefined) }).decision).toBe("ask");
    expect(decide("rm -rf build", policy, context).decision).toBe("allow");
  });

  it("decides argv commands handed over without a shell", () => {
    const argv = ["git", "status"];
    const command = {
      text: "git status",
      argv,
      effective: argv,
      dynamic: [],
      assignments: [],
      redirects: [],
      wrappers: [],
      staticProgram: true,
      context: [],
      lookupOnly: false,
    };
    expect(decideCommands([command], recommended, context).decision).toBe("allow");
  });
});

describe("networkAllowed", () => {
  const layers = (doc: object): PolicyLayer[] => [
    { kind: "user", source: "u.json", document: { version: 1, ...doc } },
  ];

  it("grants network only to listed prefixes, and only with allowNetwork", () => {
    const policy = resolvePolicy(
      layers({ allowNetwork: true, networkAllowedCommands: ["npm install", "git fetch"] }),
    );
    expect(networkAllowed("npm install left-pad", policy)).toBe(true);
    expect(networkAllowed("npm install && curl x", policy)).toBe(false);
    expect(networkAllowed("curl https://example.com", policy)).toBe(false);
    expect(
      networkAllowed("npm install", resolvePolicy(layers({ networkAllowedCommands: ["npm install"] }))),
    ).toBe(false);
  });

  it("is all-or-nothing when no trusted layer lists commands", () => {
    expect(networkAllowed("curl https://example.com", resolvePolicy(layers({ allowNetwork: true })))).toBe(
      true,
    );
    expect(networkAllowed("curl https://example.com", resolvePolicy([]))).toBe(false);
  });

  it("does not let a workspace list widen network", () => {
    const policy = resolvePolicy([
      ...layers({ allowNetwork: true, networkAllowedCommands: ["npm install"] }),
      { kind: "workspace", source: "w.json", document: { version: 1, networkAllowedCommands: ["curl"] } },
    ]);
    expect(networkAllowed("curl https://example.com", policy)).toBe(false);
  });
});

describe("script-level checks", () => {
  it("denies a fork bomb", () => {
    expect(decide(":(){ :|:& };:", recommended, context).decision).toBe("deny");
    expect(decide("bomb() { bomb | bomb & }; bomb", recommended, context).decision).toBe("deny");
  });
});

describe("script-level checks on long input", () => {
  it("finds a fork bomb whose function name is very long", () => {
    const name = "b".repeat(100);
    expect(decide(`${name}() { ${name} | ${name} & }; ${name}`, recommended, context).decision).toBe("deny");
  });

  it("scans a script with many function definitions and finds the fork bomb after them", () => {
    const many = "f() { true; }; ".repeat(70);
    expect(decide(`${many}true &`, recommended, context).decision).not.toBe("deny");
    expect(decide(`${many}bomb() { bomb | bomb & }; bomb`, recommended, context).decision).toBe("deny");
  });

  it("tells apart long function names that share their first 64 characters", () => {
    const stem = "b".repeat(80);
    const script = `${stem}1() { ${stem}2 | ${stem}2 & }; ${stem}1`;
    expect(decide(script, recommended, context).script.map((r) => r.code)).not.toContain("destroy.fork-bomb");
  });

  // A slow (quadratic) scan of these lines takes minutes; the test's timeout is the guard, not a timing assertion.
  it("scans a 256 KB script built to slow down the scan quickly, without asking for its length", () => {
    const findings = classifyScript(`${"a".repeat(256 * 1024)} & f() { true; }`);
    expect(findings).toEqual([]);
  });

  it("asks for a line nested too deeply to analyse instead of throwing", () => {
    const deep = `${"echo $(".repeat(20_000)}x${")".repeat(20_000)}`;
    const d = decide(deep, recommended, context);
    expect(d.decision).toBe("ask");
    expect(d.script.map((r) => r.code)).toContain("policy.incomplete-analysis");
    const open = resolvePolicy([
      { kind: "user", source: "u.json", document: { version: 1, allowNetwork: true } },
    ]);
    expect(networkAllowed("ls", open)).toBe(true);
    expect(networkAllowed(deep, open)).toBe(false);
  });

  it("decides a line of one 64 KB word followed by other syntax quickly", () => {
    const d = decide(`${"a".repeat(64 * 1024)} & f() { true; }`, recommended, context);
    expect(d.decision).toBe("ask");
  });

  it("asks for a script too long to scan", () => {
    const d = decide(`echo ${"a ".repeat(500_001)}`, recommended, context);
    expect(d.decision).toBe("ask");
    expect(d.script.map((r) => r.code)).toContain("policy.incomplete-analysis");
  });
});

describe("programs named like the keys of a plain object", () => {
  // Tables of programs looked up by name must not find Object.prototype's keys: `constructor -e x` threw (a
  // TypeError from the interpreter table) and a bare `constructor` or `__proto__` was read as a removal.
  const names = Object.getOwnPropertyNames(Object.prototype).map((name) => name.toLowerCase());

  it.each(names.flatMap((name) => [name, `${name} -e x`, `${name} -c x`, `${name} -rf x`, `${name} -- x`]))(
    "%s is an unknown program, nothing more",
    (line) => {
      const d = decide(line, recommended, context);
      expect(d.reasons.map((r) => r.code)).toEqual(["policy.no-rule"]);
    },
  );
});
