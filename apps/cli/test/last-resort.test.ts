// The binary's outermost handler, run as installed: an error nothing else caught is printed through the one error
// table, visible, without a secret value and without its stack (unless SLASHI_DEBUG asks); when the in-process
// bundle itself cannot load, a fixed line. The bundle is replaced by one whose command throws.
import { spawnSync } from "node:child_process";
import { cpSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { rawControls } from "@slashi/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isolatedEnv, tempDir } from "./helpers.js";

const dist = fileURLToPath(new URL("../dist", import.meta.url));
const tmp = tempDir("slashi-last-resort-");
const TOKEN = "ghp_lastResortCanary0001";

function copyWith(name: string, cli: string): string {
  const dir = path.join(tmp.dir, name);
  cpSync(dist, dir, { recursive: true });
  renameSync(path.join(dir, "cli.mjs"), path.join(dir, "real-cli.mjs"));
  writeFileSync(path.join(dir, "cli.mjs"), cli);
  return path.join(dir, "bin.js");
}

let throwing = "";
let broken = "";
beforeAll(() => {
  throwing = copyWith(
    "throwing",
    [
      'export { lastResortReport } from "./real-cli.mjs";',
      "export async function runInProcess() {",
      '  const error = new Error("token " + process.env.GH_TOKEN + " \\u001b]0;pwned\\u0007 \\u202e done");',
      '  error.stack = "Error: boom\\n    at hiddenFrame (x.js:1:1)";',
      "  throw error;",
      "}",
    ].join("\n"),
  );
  broken = copyWith("broken", 'throw new Error("cannot load \\u001b[2J " + process.env.GH_TOKEN);\n');
});
afterAll(() => tmp.remove());

const run = (bin: string, extra: Record<string, string> = {}) =>
  spawnSync(process.execPath, [bin, "version"], {
    env: isolatedEnv(tmp.dir, { SLASHI_SERVICE: "off", GH_TOKEN: TOKEN, ...extra }),
    encoding: "utf8",
    timeout: 60_000,
  });

describe("the binary's last-resort error", () => {
  it("is the error table's text: visible, no secret, no stack, status 1", () => {
    const result = run(throwing);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^slashi: internal error: token ⟪secret⟫ /);
    expect(result.stderr).toContain("⟨U+001B⟩]0;pwned⟨U+0007⟩");
    expect(result.stderr).toContain("⟨U+202E⟩");
    expect(rawControls(result.stderr.replace(/\n/g, ""))).toEqual([]);
    expect(result.stderr).not.toContain(TOKEN);
    expect(result.stderr).not.toContain("hiddenFrame");
  });

  it("adds the stack only when SLASHI_DEBUG asks for it", () => {
    expect(run(throwing, { SLASHI_DEBUG: "1" }).stderr).toContain("at hiddenFrame (x.js:1:1)");
  });

  it("is a fixed line when the in-process bundle does not load", () => {
    const result = run(broken);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      "slashi: internal error\nThis is a bug; please report it with the command you ran.\n",
    );
  });
});
