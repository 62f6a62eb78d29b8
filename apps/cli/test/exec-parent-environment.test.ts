// The environment Slashi was started with, seen from the command `slashi exec` runs: a token in Slashi's own
// environment is scrubbed from the command's, but without the cordon the command can still read it from
// /proc/$PPID/environ (docs/cordon.md, Limits); with --cordon (real bubblewrap, its own pid namespace) no process
// outside is visible, so neither Slashi's environment nor any other process's holds it.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { requireTool } from "@slashi/test-utils";
import { beforeAll, describe, expect, it } from "vitest";
import { allowingPolicy, cliSandbox } from "./helpers.js";

describe.skipIf(
  process.platform !== "linux" || !requireTool("bwrap", "slashi exec and the parent's environment"),
)("slashi exec and the parent's environment", () => {
  const canary = `ghp_parentcanary${process.pid}x${Date.now()}`;
  const { dir, ws, run } = cliSandbox("slashi-exec-environ-", { GITHUB_TOKEN: canary });
  let policy = "";

  beforeAll(() => {
    policy = allowingPolicy(dir, ["sh"], "sh-policy.json");
    // The policy cannot see into the script: what it reads is up to the confinement.
    writeFileSync(
      path.join(ws, "peek.sh"),
      [
        'echo "own:$(printenv GITHUB_TOKEN | wc -c)"',
        `echo "parent:$(tr '\\0' '\\n' < /proc/$PPID/environ 2>/dev/null | grep -c ${canary})"`,
        `echo "any:$(cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c ${canary})"`,
      ].join("\n") + "\n",
    );
  });

  async function peek(cordon: boolean): Promise<Record<string, string>> {
    const result = await run([
      "exec",
      cordon ? "--cordon" : "--no-cordon",
      "--policy",
      policy,
      "--",
      "sh",
      "peek.sh",
    ]);
    expect(result.exitCode, String(result.stderr)).toBe(0);
    return Object.fromEntries(
      String(result.stdout)
        .trim()
        .split("\n")
        .map((line) => line.split(":") as [string, string]),
    );
  }

  it("without the cordon: scrubbed from the command, readable through /proc/$PPID/environ", async () => {
    expect(await peek(false)).toMatchObject({ own: "0", parent: "1" });
  });

  it("with the cordon: no process outside is visible, so the token is nowhere to be read", async () => {
    expect(await peek(true)).toEqual({ own: "0", parent: "0", any: "0" });
  });
});
