import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "@slashi/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { isSlashiError, SlashiErrorCode } from "@slashi/core";
import { cordonAvailability } from "./availability.js";
import { resolveCordon } from "./policy.js";

const rootTemp = tempDir("slashi-cpol-");
const root = rootTemp.dir;
afterAll(rootTemp.remove);

describe("resolveCordon", () => {
  const home = path.join(root, "home");
  const workspace = path.join(root, "app");
  mkdirSync(path.join(home, ".ssh"), { recursive: true });
  writeFileSync(path.join(home, ".netrc"), "machine x password y");
  mkdirSync(path.join(workspace, ".vscode"), { recursive: true });
  mkdirSync(path.join(workspace, ".git", "hooks"), { recursive: true });
  symlinkSync(workspace, path.join(root, "app-link"));

  it("keeps only existing secret paths, with their kind, and the existing protected entries", async () => {
    const resolved = await resolveCordon({ workspace: path.join(root, "app-link"), home, slashiDirs: [] });
    expect(resolved.workspace).toBe(workspace);
    expect(resolved.hidden).toEqual(
      expect.arrayContaining([
        { path: path.join(home, ".ssh"), kind: "dir" },
        { path: path.join(home, ".netrc"), kind: "file" },
      ]),
    );
    expect(resolved.hidden.some((entry) => entry.path.endsWith(".aws"))).toBe(false);
    expect(resolved.readOnly).toEqual([
      path.join(workspace, ".vscode"),
      path.join(workspace, ".git", "hooks"),
    ]);
    expect(resolved.unprotected).toContain(path.join(workspace, ".claude"));
    expect(resolved.network).toBe(false);
  });

  it("never hides the workspace itself or a directory holding it", async () => {
    const resolved = await resolveCordon({ workspace, home, slashiDirs: [root] });
    expect(resolved.hidden.map((entry) => entry.path)).not.toContain(root);
  });

  it("refuses / or the home directory as the workspace", async () => {
    for (const bad of ["/", home]) {
      let error: unknown;
      try {
        await resolveCordon({ workspace: bad, home });
      } catch (caught) {
        error = caught;
      }
      expect(isSlashiError(error) && error.code).toBe(SlashiErrorCode.RUN_INVALID);
    }
  });
});

describe("cordonAvailability", () => {
  it("says there is no sandbox on Windows", () => {
    expect(cordonAvailability({ platform: "win32" })).toMatchObject({
      available: false,
      reason: expect.stringMatching(/Windows/),
    });
  });

  it("says bubblewrap is missing when it is not on PATH", () => {
    expect(cordonAvailability({ platform: "linux", env: { PATH: root } })).toMatchObject({
      available: false,
      reason: expect.stringMatching(/bubblewrap/),
    });
  });
});
