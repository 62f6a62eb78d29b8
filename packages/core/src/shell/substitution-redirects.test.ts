// A command substitution or process substitution that holds only a redirection (`$(> f)`, `"$(2>> f)"`,
// `<(> f)`) still opens its file: bash creates or truncates it. The walk must report that redirection like the same
// redirection on a line of its own, so the policy sees the write. Checked against real bash.
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { requireTool, scratchDir } from "@slashi/test-utils";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { analyzeShell } from "./analyze.js";
import { loadShellParser } from "./parser.js";

const BASH = requireTool("bash", "the redirects bash really opens");

const operator = fc.constantFrom(">", ">>", ">|", "1>", "2>", "2>>", "&>", "&>>");
const space = fc.constantFrom("", " ", "  ");
const wrap = fc.constantFrom(
  (body: string) => `echo $(${body})`,
  (body: string) => `echo "$(${body})"`,
  (body: string) => `x=$(${body})`,
  (body: string) => `cat <(${body})`,
  (body: string) => `echo a$(${body})b`,
);

beforeAll(async () => {
  await loadShellParser();
});

describe("a substitution that holds only a redirection", () => {
  it.skipIf(!BASH)("reports the file it opens, and bash really creates that file", () => {
    const dir = scratchDir("slashi-subst-redirect-");
    fc.assert(
      fc.property(wrap, operator, space, space, (form, op, before, after) => {
        const marker = join(dir, "marker");
        rmSync(marker, { force: true });
        const line = form(`${before}${op}${after}marker`);
        const targets = analyzeShell(line).commands.flatMap((c) => c.redirects.map((r) => r.target));
        expect(targets, line).toContain("marker");
        const run = spawnSync(BASH as string, ["--norc", "--noprofile", "-c", line], {
          cwd: dir,
          env: { PATH: "/usr/bin:/bin", LC_ALL: "C.UTF-8" },
          timeout: 30_000,
        });
        expect(run.error, line).toBeUndefined();
        expect(existsSync(marker), `bash did not create the file for ${line}`).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it("still reads `$(<file)` as a read of that file", () => {
    const redirects = analyzeShell("echo $(<notes.txt)").commands.flatMap((c) => c.redirects);
    expect(redirects).toEqual([expect.objectContaining({ op: "<", target: "notes.txt" })]);
  });
});
