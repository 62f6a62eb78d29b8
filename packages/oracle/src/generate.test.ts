import { describe, expect, it } from "vitest";
import { generateLines } from "./generate.js";

describe("generateLines", () => {
  it("gives the same lines for the same seed and other lines for another", () => {
    const a = generateLines(42, 200);
    expect(generateLines(42, 200)).toEqual(a);
    expect(generateLines(43, 200)).not.toEqual(a);
  });

  it("tags every line with classes the conformance schema accepts, one family per line", () => {
    const families = ["read-", "env-", "smuggle-", "write-", "foreign-", "send-", "benign"];
    for (const { line, tags } of generateLines(7, 2000)) {
      expect(line).not.toContain("\0");
      for (const tag of tags) expect(tag).toMatch(/^[a-z0-9-]+$/);
      expect(families.filter((f) => tags.some((t) => t.startsWith(f))).length, line).toBe(1);
    }
  });

  it("reaches every family and the path spellings in a few thousand lines", () => {
    const tags = new Set(generateLines(1, 4000).flatMap((l) => l.tags));
    for (const tag of [
      "benign",
      "path-tilde",
      "path-proc-root",
      "cwd-cd",
      "cwd-env-c",
      "read-zip-r",
      "read-git-c-diff",
      "read-make-c-file",
      "read-tar-c-dir",
      "read-git-cfg-excludes",
      "foreign-git-c-status",
      "foreign-make-directory-eq",
      "foreign-npm-prefix-test",
      "send-curl-d",
      "send-nc-stdin",
      "shell-sh",
      "shell-zsh",
      "path-dev-fd",
      "glob-name",
      "quoted",
      "target-workspace-git-config",
      "read-git-print-config-list",
      "read-git-print-remote-v",
      "send-curl-header-env",
      "send-git-ls-remote",
    ]) {
      expect(tags.has(tag), tag).toBe(true);
    }
    for (const prefix of [
      "env-",
      "smuggle-",
      "write-",
      "read-",
      "foreign-",
      "send-",
      "read-git-place-fetch-head",
      "read-git-place-reflog",
      "read-git-place-remotes",
      "read-git-place-branches",
      "write-flock",
    ]) {
      expect(
        [...tags].some((t) => t.startsWith(prefix)),
        prefix,
      ).toBe(true);
    }
  });
});
