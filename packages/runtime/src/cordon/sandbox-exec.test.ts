import { describe, expect, it } from "vitest";
import type { ResolvedCordon } from "./policy.js";
import { sandboxExecProfile, sbplString } from "./sandbox-exec.js";

const cordon: ResolvedCordon = {
  workspace: "/Users/ada/app",
  cwd: "/Users/ada/app",
  network: false,
  writable: [],
  hidden: [
    { path: "/Users/ada/.ssh", kind: "dir" },
    { path: "/Users/ada/.netrc", kind: "file" },
  ],
  readOnly: ["/Users/ada/app/.vscode"],
  pinned: [],
  unprotected: ["/Users/ada/app/.claude"],
  privateDirs: ["/tmp", "/run"],
  keepVisible: [],
};

describe("sandboxExecProfile", () => {
  it("denies by default and lets each deny follow the allow it narrows", () => {
    const profile = sandboxExecProfile(cordon);
    const lines = profile.trim().split("\n");
    expect(lines.slice(0, 2)).toEqual(["(version 1)", "(deny default)"]);
    const readAll = lines.indexOf("(allow file-read*)");
    const hideSsh = lines.indexOf('(deny file-read* (subpath "/Users/ada/.ssh"))');
    const hideNetrc = lines.indexOf('(deny file-read* (literal "/Users/ada/.netrc"))');
    expect(readAll).toBeGreaterThan(0);
    expect(hideSsh).toBeGreaterThan(readAll);
    expect(hideNetrc).toBeGreaterThan(readAll);
    const writeLine = lines.findIndex((line) => line.startsWith("(allow file-write*"));
    expect(lines[writeLine]).toContain('(subpath "/Users/ada/app")');
    expect(lines.indexOf('(deny file-write* (subpath "/Users/ada/app/.vscode"))')).toBeGreaterThan(writeLine);
    expect(lines.indexOf('(deny file-write* (subpath "/Users/ada/app/.claude"))')).toBeGreaterThan(writeLine);
  });

  it("allows the network only when the policy does", () => {
    expect(sandboxExecProfile(cordon)).not.toContain("network");
    expect(sandboxExecProfile({ ...cordon, network: true })).toContain("(allow network*)");
  });

  it("escapes quotes and backslashes in paths", () => {
    expect(sbplString('/a"b\\c')).toBe('"/a\\"b\\\\c"');
  });
});
