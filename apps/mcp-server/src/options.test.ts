import { describe, expect, it } from "vitest";
import { parseOptions, UsageError } from "./options.js";

describe("parseOptions", () => {
  it("has safe defaults: no cordon, 120 s timeout, 4 running, 16 queued", () => {
    expect(parseOptions([])).toMatchObject({
      cordon: false,
      timeoutMs: 120_000,
      maxConcurrent: 4,
      maxQueued: 16,
      maxOutputBytes: 102_400,
    });
  });

  it("reads values given as separate words or with =", () => {
    const options = parseOptions([
      "--workspace",
      "/w",
      "--timeout=2.5",
      "--max-concurrent",
      "2",
      "--max-queued=0",
      "--cordon",
      "--enkaidu-config=~/enkaidu.yml",
    ]);
    expect(options).toMatchObject({
      workspace: "/w",
      timeoutMs: 2500,
      maxConcurrent: 2,
      maxQueued: 0,
      cordon: true,
      enkaiduConfig: "~/enkaidu.yml",
    });
  });

  it("raises the largest timeout to the default when the default is larger", () => {
    expect(parseOptions(["--timeout", "7200", "--max-timeout", "60"]).maxTimeoutMs).toBe(7_200_000);
  });

  it("rejects unknown options and bad numbers", () => {
    expect(() => parseOptions(["--policy", "x.json"])).toThrow(UsageError);
    expect(() => parseOptions(["--max-concurrent", "0"])).toThrow(/positive whole number/);
    expect(() => parseOptions(["--timeout", "soon"])).toThrow(/positive number/);
    expect(() => parseOptions(["--max-queued", "-1"])).toThrow(/whole number/);
    expect(() => parseOptions(["--workspace"])).toThrow(/needs a directory/);
    expect(() => parseOptions(["--enkaidu-config"])).toThrow(/needs a file/);
  });
});
