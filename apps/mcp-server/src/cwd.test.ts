import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confineCwd, isWithin } from "./cwd.js";

let base: string;
let root: string;
let outside: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "slashi-cwd-")));
  root = path.join(base, "work");
  outside = path.join(base, "elsewhere");
  mkdirSync(path.join(root, "src", "deep"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(root, "file.txt"), "x");
  symlinkSync(outside, path.join(root, "out-link"));
  symlinkSync(path.join(root, "src"), path.join(root, "in-link"));
  symlinkSync(root, path.join(base, "root-link"));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("confineCwd", () => {
  it("accepts the root, a relative directory below it, and an absolute one inside", () => {
    expect(confineCwd(root, undefined)).toEqual({ ok: true, cwd: root });
    expect(confineCwd(root, "")).toEqual({ ok: true, cwd: root });
    expect(confineCwd(root, "src/deep")).toEqual({ ok: true, cwd: path.join(root, "src", "deep") });
    expect(confineCwd(root, path.join(root, "src"))).toEqual({ ok: true, cwd: path.join(root, "src") });
    expect(confineCwd(root, "src/deep/../..")).toEqual({ ok: true, cwd: root });
  });

  it("follows a symlink that stays inside and hands on the real directory", () => {
    expect(confineCwd(root, "in-link/deep")).toEqual({ ok: true, cwd: path.join(root, "src", "deep") });
  });

  it("spells the directory under the root as configured when the root is a symlink", () => {
    const linked = path.join(base, "root-link");
    expect(confineCwd(linked, "in-link")).toEqual({ ok: true, cwd: path.join(linked, "src") });
  });

  it("refuses a symlink that points out of the workspace", () => {
    const result = confineCwd(root, "out-link");
    expect(result).toMatchObject({ ok: false, code: "CWD_OUTSIDE_WORKSPACE", resolved: outside });
  });

  it("refuses .. that climbs out, and absolute paths elsewhere", () => {
    expect(confineCwd(root, "..")).toMatchObject({ ok: false, code: "CWD_OUTSIDE_WORKSPACE" });
    expect(confineCwd(root, "src/../../elsewhere")).toMatchObject({
      ok: false,
      code: "CWD_OUTSIDE_WORKSPACE",
    });
    expect(confineCwd(root, "/")).toMatchObject({ ok: false, code: "CWD_OUTSIDE_WORKSPACE" });
    expect(confineCwd(root, outside)).toMatchObject({ ok: false, code: "CWD_OUTSIDE_WORKSPACE" });
  });

  it("refuses a sibling whose name starts with the root's name", () => {
    mkdirSync(`${root}-evil`, { recursive: true });
    expect(confineCwd(root, `${root}-evil`)).toMatchObject({ ok: false, code: "CWD_OUTSIDE_WORKSPACE" });
  });

  it("answers INVALID_ARGUMENT for a directory that does not exist or a file", () => {
    expect(confineCwd(root, "nope/x")).toMatchObject({ ok: false, code: "INVALID_ARGUMENT" });
    expect(confineCwd(root, "file.txt")).toMatchObject({ ok: false, code: "INVALID_ARGUMENT" });
    expect(confineCwd(path.join(base, "no-root"), undefined)).toMatchObject({
      ok: false,
      code: "INVALID_ARGUMENT",
    });
  });

  it("never hands on a directory outside the workspace, for generated paths of .., names and links", () => {
    const segment = fc.constantFrom("..", ".", "src", "deep", "out-link", "in-link", "elsewhere", "work");
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 6 }), fc.boolean(), (parts, absolute) => {
        const cwd = absolute ? path.join(root, ...parts) : parts.join("/");
        const result = confineCwd(root, cwd);
        if (result.ok) expect(isWithin(root, realpathSync(result.cwd))).toBe(true);
        else expect(["CWD_OUTSIDE_WORKSPACE", "INVALID_ARGUMENT"]).toContain(result.code);
      }),
    );
  });
});
