import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { howToApprove, howToApproveCommand, skippedWarning } from "./without-prompt.js";

/** The words a POSIX shell reads from the shown command line (its program replaced by printf). */
function wordsOf(commandLine: string): string[] {
  const script = `set -- ${commandLine.replace(/^slashi /, "")}; printf '%s\\0' "$@"`;
  return execFileSync("sh", ["-c", script], { encoding: "utf8" }).split("\0").slice(0, -1);
}

describe("howToApprove", () => {
  it("shows slashi approvals add for a line that can be remembered, slashi exec otherwise", () => {
    expect(howToApprove({ command: "make test", cwd: "/w" }).command).toBe(
      "slashi approvals add --cwd '/w' -- 'make test'",
    );
    const exec = howToApprove({ command: "ls | wc", cwd: "/w", notRememberable: "it needs the shell" });
    expect(exec.command).toBe("slashi exec --cwd '/w' -- 'ls | wc'");
    expect(exec.text).toContain("it needs the shell");
  });

  it("quotes the directory and the line so a shell hands them over unchanged", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 30 }).filter((s) => !s.includes("\0")),
        fc.string({ minLength: 1, maxLength: 30 }).filter((s) => !s.includes("\0")),
        (cwd, command) => {
          expect(wordsOf(howToApprove({ command, cwd }).command)).toEqual([
            "approvals",
            "add",
            "--cwd",
            cwd,
            "--",
            command,
          ]);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe("howToApproveCommand", () => {
  it("shows slashi approvals add-command for a command that can be remembered, slashi run otherwise", () => {
    expect(howToApproveCommand({ name: "release", source: "workspace", cwd: "/w" }).command).toBe(
      "slashi approvals add-command --cwd '/w' --source team '/release'",
    );
    const run = howToApproveCommand({
      name: "/any",
      source: "pack",
      pack: "@acme/tools",
      cwd: "/w",
      notRememberable: "a call names its callee with a variable",
    });
    expect(run.command).toBe("slashi run --cwd '/w' --pack '@acme/tools' '/any'");
    expect(run.text).toContain("names its callee with a variable");
  });

  it("quotes the directory, the pack and the name so a shell hands them over unchanged", () => {
    const word = fc.string({ minLength: 1, maxLength: 30 }).filter((s) => !s.includes("\0"));
    fc.assert(
      fc.property(word, word, word, (cwd, pack, name) => {
        const bare = name.replace(/^\//, "");
        expect(wordsOf(howToApproveCommand({ name, source: "pack", pack, cwd }).command)).toEqual([
          "approvals",
          "add-command",
          "--cwd",
          cwd,
          "--pack",
          pack,
          `/${bare}`,
        ]);
      }),
      { numRuns: 50 },
    );
  });
});

describe("skippedWarning", () => {
  it("names the line and the codes that asked, once each", () => {
    expect(skippedWarning("make deploy", [{ code: "a.b" }, { code: "a.b" }, { code: "c" }])).toBe(
      'ran without confirmation inside the cordon (skipConfirmInCordon): "make deploy" asked because of a.b, c',
    );
  });
});
