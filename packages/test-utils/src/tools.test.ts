import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { scratchDir } from "./temp.js";
import { CI_TOOLS, findTool, requireTool, skipUnlessCi, underCi } from "./tools.js";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** A PATH of one directory holding an executable `present` and a non-executable `plain`. */
function onePathDir(): string {
  const dir = scratchDir("slashi-tools-");
  writeFileSync(path.join(dir, "present"), "#!/bin/sh\n", { mode: 0o755 });
  writeFileSync(path.join(dir, "plain"), "#!/bin/sh\n", { mode: 0o644 });
  return dir;
}

describe("underCi", () => {
  it("is true for any value of CI but empty, 0 and false", () => {
    expect([undefined, "", "0", "false", "FALSE", " false "].map((CI) => underCi({ CI }))).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(["true", "1", "yes", "woodpecker"].map((CI) => underCi({ CI }))).toEqual([true, true, true, true]);
  });
});

describe.runIf(process.platform !== "win32")("findTool", () => {
  it("finds an executable file on PATH, skips one that cannot be run, and never throws", () => {
    const dir = onePathDir();
    const env = { PATH: ["relative/dir", "", dir].join(path.delimiter) };
    expect(findTool("present", env)).toBe(path.join(dir, "present"));
    expect(findTool("plain", env)).toBeUndefined();
    expect(findTool("absent", env)).toBeUndefined();
    expect(findTool("present", {})).toBeUndefined();
    expect(findTool(path.join(dir, "present"), {})).toBe(path.join(dir, "present"));
    expect(findTool(dir, env)).toBeUndefined();
  });
});

describe("skipUnlessCi", () => {
  it("skips with a warning naming what needs it, outside CI", () => {
    vi.stubEnv("CI", "");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(skipUnlessCi(undefined, "the cordon tests")).toBe(false);
    expect(warn).not.toHaveBeenCalled();
    expect(skipUnlessCi("bubblewrap does not confine", "the cordon tests")).toBe(true);
    expect(warn).toHaveBeenCalledWith("skipped, the cordon tests: bubblewrap does not confine");
  });

  it("throws under CI, so a missing piece fails the file instead of skipping it", () => {
    vi.stubEnv("CI", "true");
    expect(skipUnlessCi(undefined, "the cordon tests")).toBe(false);
    expect(() => skipUnlessCi("bubblewrap does not confine", "the cordon tests")).toThrow(
      /^the cordon tests: bubblewrap does not confine \(CI installs it/,
    );
  });
});

describe.runIf(process.platform !== "win32")("requireTool", () => {
  it("gives the program's path when it is there, under CI or not", () => {
    const dir = onePathDir();
    writeFileSync(path.join(dir, "fish"), "#!/bin/sh\n", { mode: 0o755 });
    vi.stubEnv("PATH", dir);
    vi.stubEnv("CI", "true");
    expect(requireTool("fish")).toBe(path.join(dir, "fish"));
  });

  it("skips without the program outside CI and throws under CI", () => {
    vi.stubEnv("PATH", onePathDir());
    vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.stubEnv("CI", "");
    expect(requireTool("fish", "the quoting round trips")).toBeUndefined();
    vi.stubEnv("CI", "1");
    expect(() => requireTool("fish", "the quoting round trips")).toThrow(
      /^the quoting round trips: fish is not installed \(CI installs it/,
    );
  });

  it("takes only programs CI installs", () => {
    expect(() => requireTool("pwsh" as never)).toThrow(/not installed by \.ci\/run/);
  });
});

describe("CI_TOOLS", () => {
  it("names what .ci/run installs (or the Node it runs on, or Debian's essential bsdutils and util-linux)", () => {
    const ciRun = readFileSync(fileURLToPath(new URL("../../../.ci/run", import.meta.url)), "utf8");
    const installed = [...ciRun.matchAll(/\b([\w/.-]+):[\w-]+/g)].map((m) => path.basename(m[1]!));
    const besides = ["node", "npm", "script", "flock"];
    expect(CI_TOOLS.filter((tool) => !besides.includes(tool) && !installed.includes(tool))).toEqual([]);
  });
});
