import { describe, expect, it } from "vitest";
import { canonicalWorkspaceKey } from "./workspace-key.js";

describe("canonicalWorkspaceKey", () => {
  it("gives C:\\Repo and c:\\repo\\ one key", () => {
    expect(canonicalWorkspaceKey("C:\\Repo")).toBe("c:/repo");
    expect(canonicalWorkspaceKey("c:\\repo\\")).toBe("c:/repo");
    expect(canonicalWorkspaceKey("C:/Repo/")).toBe("c:/repo");
  });

  it("keeps the case of a Windows path when the volume is case-sensitive, but lowercases the drive", () => {
    expect(canonicalWorkspaceKey("C:\\Repo", { caseInsensitive: false })).toBe("c:/Repo");
  });

  it("normalises UNC and long-path prefixes", () => {
    expect(canonicalWorkspaceKey("\\\\Server\\Share\\Repo\\")).toBe("//server/share/repo");
    expect(canonicalWorkspaceKey("\\\\?\\C:\\Repo")).toBe("c:/repo");
    expect(canonicalWorkspaceKey("\\\\?\\UNC\\Server\\Share\\x")).toBe("//server/share/x");
  });

  it("keeps POSIX case and backslashes unless told the volume is case-insensitive", () => {
    expect(canonicalWorkspaceKey("/Users/Me/Repo/")).toBe("/Users/Me/Repo");
    expect(canonicalWorkspaceKey("/Users/Me/Repo", { caseInsensitive: true })).toBe("/users/me/repo");
    expect(canonicalWorkspaceKey("/home/me/a\\b")).toBe("/home/me/a\\b");
    expect(canonicalWorkspaceKey("/home/me/a\\b")).not.toBe(canonicalWorkspaceKey("/home/me/a/b"));
  });

  it("collapses separators and resolves dot segments", () => {
    expect(canonicalWorkspaceKey("/home//me/./repo/../repo2/")).toBe("/home/me/repo2");
    expect(canonicalWorkspaceKey("/../..")).toBe("/");
    expect(canonicalWorkspaceKey("C:\\")).toBe("c:/");
  });

  it("does not normalise Unicode", () => {
    expect(canonicalWorkspaceKey("/home/caf\u00e9")).not.toBe(canonicalWorkspaceKey("/home/cafe\u0301"));
  });

  it("rejects relative, empty and NUL paths", () => {
    for (const bad of ["repo", "./repo", "", "/a\0b", "C:repo"]) {
      expect(() => canonicalWorkspaceKey(bad), bad).toThrow(/workspace path/);
    }
  });
});
