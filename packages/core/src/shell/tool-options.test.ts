import { execFileSync } from "node:child_process";
import { requireTool } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";
import { parseOptions } from "./options.js";
import { RG_OPTIONS, XARGS_OPTIONS } from "./tool-options.js";

/** The help text of the installed ripgrep, or undefined when it is not installed (an error under CI). */
function rgHelp(): string | undefined {
  const rg = requireTool("rg", "ripgrep's option table");
  return rg === undefined ? undefined : execFileSync(rg, ["--help"], { encoding: "utf8" });
}

describe("tool option tables", () => {
  const help = rgHelp();
  it.skipIf(help === undefined)("list every ripgrep option that takes a value", () => {
    expect(help).toBeDefined();
    // `-A, --after-context <NUM>` or `--pre <COMMAND>` (ripgrep 13), `-A, --after-context=NUM` (ripgrep 14)
    const valued = [...help!.matchAll(/^\s*(?:-([A-Za-z]), )?--([a-z0-9-]+)(?: <|=[A-Z])/gm)];
    expect(valued.length).toBeGreaterThan(20);
    const missing = valued.filter(
      ([, short, long]) =>
        !RG_OPTIONS.longValue!.includes(long!) ||
        (short !== undefined && !RG_OPTIONS.shortValue!.includes(short)),
    );
    expect(missing.map((m) => m[0].trim())).toEqual([]);
  });

  it("take a value option's next word as its value, not as an operand", () => {
    const parsed = parseOptions(["--pre", "cat", "pattern", "file"], RG_OPTIONS);
    expect(parsed.filter((p) => p.kind === "operand").map((p) => p.name)).toEqual(["pattern", "file"]);
  });

  it("read xargs -i without a value as a glued optional value, so the program stays the program", () => {
    const parsed = parseOptions(["-i", "grep", "-l", "foo"], XARGS_OPTIONS);
    expect(parsed.find((p) => p.kind === "operand")?.name).toBe("grep");
  });
});
