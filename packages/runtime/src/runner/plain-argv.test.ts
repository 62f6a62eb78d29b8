import {
  decide,
  enkaiduPolicyDocument,
  enkaiduSettingsFrom,
  loadShellParser,
  resolvePolicy,
} from "@slashi/core";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { decideLine, enkaiduShellRefusal, plainArgv } from "./plain-argv.js";

const policy = resolvePolicy([]);
const argvOf = (line: string): string[] | undefined =>
  plainArgv(decide(line, policy, { cwd: "/w", workspaceRoot: "/w" }));

beforeAll(async () => {
  await loadShellParser();
});

describe("plainArgv", () => {
  it("runs one plain command as an argv, quotes removed", () => {
    expect(argvOf("git commit -m 'two words'")).toEqual(["git", "commit", "-m", "two words"]);
    expect(argvOf("bash -c 'echo hi'")).toEqual(["bash", "-c", "echo hi"]);
  });

  it.each([
    "ls | wc -l",
    "a && b",
    "echo $HOME",
    "cat ~/x",
    "X=1 env",
    "echo hi > out.txt",
    "(cd x)",
    "echo $(date)",
  ])("needs the shell for %s", (line) => {
    expect(argvOf(line)).toBeUndefined();
  });
});

describe("plainArgv: runners", () => {
  it("runs a wrapped command as one argv, the runner included", () => {
    expect(argvOf("sudo ls -l")).toEqual(["sudo", "ls", "-l"]);
    expect(argvOf("bash -c 'ls'")).toEqual(["bash", "-c", "ls"]);
  });
});

describe("plainArgv and enkaiduShellRefusal under an Enkaidu layer", () => {
  const enkaidu = (throughShell: boolean) =>
    resolvePolicy([
      {
        kind: "user",
        source: "enkaidu.yml",
        document: enkaiduPolicyDocument(
          enkaiduSettingsFrom({
            config: {
              tool_settings: {
                shell_command: {
                  allowed_commands: ["ls", "ruby", "wc"],
                  execute_through_shell: throughShell,
                },
              },
            },
            os: "unix",
          }),
        ),
      },
    ]);

  it("still runs a plain line as argv when Enkaidu's raw-text checks ask", () => {
    const decision = decide("ruby script.rb", enkaidu(false), { cwd: "/w", workspaceRoot: "/w" });
    expect(decision.decision).toBe("ask");
    expect(plainArgv(decision)).toEqual(["ruby", "script.rb"]);
    expect(enkaiduShellRefusal(decision, enkaidu(false))).toBeUndefined();
  });

  it.each(["ls | wc -l", "ls $HOME", "ls ~/x", "ls; ls", "ls `ls`"])(
    "refuses %s with execute_through_shell false, and leaves it to the shell with true",
    (line) => {
      const noShell = enkaidu(false);
      const refusal = enkaiduShellRefusal(decide(line, noShell, { cwd: "/w" }), noShell);
      expect(refusal).toMatchObject({ code: "enkaidu.needs-shell", severity: "deny" });
      const shell = enkaidu(true);
      expect(enkaiduShellRefusal(decide(line, shell, { cwd: "/w" }), shell)).toBeUndefined();
    },
  );

  it("refuses nothing without an Enkaidu layer", () => {
    expect(enkaiduShellRefusal(decide("ls | wc -l", policy), policy)).toBeUndefined();
  });

  const RANK = { allow: 0, ask: 1, deny: 2 } as const;
  const word = fc.stringMatching(/^[a-z][a-z0-9.-]{0,6}$/);
  const shellPart = fc.constantFrom(" | wc -l", "; ls", " && ls", " > out", " $HOME", " ~/x", " $(ls)", " &");

  it("decideLine denies every line that needs the shell with the refusal among the script reasons (generated)", () => {
    const noShell = enkaidu(false);
    fc.assert(
      fc.property(fc.array(word, { maxLength: 3 }), shellPart, (args, tail) => {
        const line = ["ls", ...args].join(" ") + tail;
        const d = decideLine(line, noShell, { cwd: "/w", workspaceRoot: "/w" });
        expect(d.decision).toBe("deny");
        expect(d.script.map((r) => r.code)).toContain("enkaidu.needs-shell");
        expect(d.reasons.map((r) => r.code)).toContain("enkaidu.needs-shell");
      }),
      { numRuns: 60 },
    );
  });

  it("decideLine is core's decision for a plain line, and never less strict for any line (generated)", () => {
    const noShell = enkaidu(false);
    fc.assert(
      fc.property(fc.array(word, { maxLength: 3 }), fc.option(shellPart), (args, tail) => {
        const line = ["ls", ...args].join(" ") + (tail ?? "");
        const core = decide(line, noShell, { cwd: "/w", workspaceRoot: "/w" });
        const host = decideLine(line, noShell, { cwd: "/w", workspaceRoot: "/w" });
        expect(RANK[host.decision]).toBeGreaterThanOrEqual(RANK[core.decision]);
        if (plainArgv(core) !== undefined) expect(host).toEqual(core);
      }),
      { numRuns: 60 },
    );
    expect(decideLine("ls | wc -l", enkaidu(true), { cwd: "/w" })).toEqual(
      decide("ls | wc -l", enkaidu(true), { cwd: "/w" }),
    );
    expect(decideLine("ls | wc -l", policy)).toEqual(decide("ls | wc -l", policy));
  });
});
