import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { isSlashiError, SlashiErrorCode } from "@slashi/core";
import { tempDir } from "@slashi/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { UsageError } from "./options.js";
import { parseWrapArgs, writableFolders } from "./wrap.js";

describe("parseWrapArgs", () => {
  it("takes the server command after --, unchanged, options before it", () => {
    expect(parseWrapArgs(["--", "npx", "server", "--read-only", "/w"])).toEqual({
      command: ["npx", "server", "--read-only", "/w"],
      readOnly: false,
      writable: [],
    });
    expect(parseWrapArgs(["--read-only", "--workspace", "/w", "--", "node", "s.js"])).toEqual({
      command: ["node", "s.js"],
      readOnly: true,
      workspace: "/w",
      writable: [],
    });
    expect(parseWrapArgs(["--workspace=/w", "--", "s"]).workspace).toBe("/w");
  });

  it("collects every --writable folder, in order", () => {
    expect(
      parseWrapArgs(["--writable", "out", "--writable=cache", "--read-only", "--", "s"]).writable,
    ).toEqual(["out", "cache"]);
  });

  it.each([
    [[]],
    [["node"]],
    [["--"]],
    [["--network", "--", "s"]],
    [["--writable", "--", "s"]],
    [["--writable=", "--", "s"]],
  ])("refuses %j", (argv) => {
    expect(() => parseWrapArgs(argv)).toThrow(UsageError);
  });
});

describe("writableFolders", () => {
  const { dir: root, remove } = tempDir("slashi-wrap-writable-");
  const workspace = path.join(root, "work");
  for (const dir of ["out", ".git/hooks", ".vscode", "src"])
    mkdirSync(path.join(workspace, dir), { recursive: true });
  mkdirSync(path.join(root, "elsewhere"));
  symlinkSync(path.join(root, "elsewhere"), path.join(workspace, "link-out"));
  symlinkSync(path.join(workspace, "out"), path.join(workspace, "link-in"));
  afterAll(remove);

  it("resolves folders inside the workspace against the working directory, links followed", () => {
    const out = path.join(workspace, "out");
    expect(writableFolders(["out", "link-in", "./out/"], workspace, workspace)).toEqual([out, out, out]);
    expect(writableFolders(["../out"], workspace, path.join(workspace, "src"))).toEqual([out]);
    expect(writableFolders([], workspace, workspace)).toEqual([]);
  });

  it.each([
    ["a folder outside the workspace", "../elsewhere"],
    ["a link that leads out", "link-out"],
    ["the workspace itself", "."],
    ["a folder that does not exist", "missing"],
    ["a folder holding a read-only entry", ".git"],
    ["a read-only entry", ".vscode"],
    ["a folder inside a read-only entry", ".git/hooks"],
    ["the root", "/"],
  ])("refuses %s with RUN_INVALID naming it", (_, dir) => {
    let caught: unknown;
    try {
      writableFolders([dir], workspace, workspace);
    } catch (error) {
      caught = error;
    }
    expect(isSlashiError(caught) && caught.code).toBe(SlashiErrorCode.RUN_INVALID);
    expect((caught as Error).message).toContain(`--writable ${dir}`);
  });
});
