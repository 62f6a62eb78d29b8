// Trust and team-command approvals belong to the repository they were given in: another repository cloned at the
// same path is not trusted and its team commands are not approved, and a trust record from before identities were
// kept trusts nothing until the person confirms it. Real git repositories, `slashi` in-process.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { TrustFileStore } from "@slashi/runtime";
import { git, gitRepository, recloneAt } from "@slashi/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../src/main.js";
import { isolatedEnv, scriptedIo, tempDir } from "./helpers.js";

const tmp = tempDir("slashi-repository-identity-");
afterAll(() => tmp.remove());
const env = isolatedEnv(tmp.dir);

/** A repository holding a team command `/mark` that creates `marker` in the repository. */
function project(name: string): string {
  const dir = gitRepository(path.join(tmp.dir, name));
  mkdirSync(path.join(dir, ".vscode"), { recursive: true });
  writeFileSync(
    path.join(dir, ".vscode", "slashi.json"),
    JSON.stringify({
      version: 1,
      commands: [{ name: "mark", steps: [{ type: "terminal", command: "touch marker" }] }],
    }),
  );
  git(dir, "add", ".vscode");
  git(dir, "commit", "-q", "-m", "team commands");
  return dir;
}

describe("another repository cloned at a trusted path", () => {
  it("is not trusted, and a team command approved in the first one asks again, saying why", async () => {
    const dir = project("reclone");
    expect(await main(["trust"], scriptedIo(env, dir))).toBe(0);
    expect(await main(["run", "/mark"], scriptedIo(env, dir, "a\n"))).toBe(0);
    expect(existsSync(path.join(dir, "marker"))).toBe(true);
    rmSync(path.join(dir, "marker"));
    expect(await main(["run", "/mark"], scriptedIo(env, dir))).toBe(0);

    recloneAt(dir);
    const status = scriptedIo(env, dir);
    expect(await main(["trust", "status"], status)).toBe(10);
    expect(status.out()).toContain("another directory or repository than the one trusted is here now");
    // slashi run says why the team file is not loaded, in trust status's words.
    await expect(main(["run", "/mark"], scriptedIo(env, dir))).rejects.toThrow(
      "not loaded because this workspace is not trusted (another directory or repository than the one trusted is here now)",
    );

    expect(await main(["trust"], scriptedIo(env, dir))).toBe(0);
    const asked = scriptedIo(env, dir);
    expect(await main(["run", "/mark"], asked)).toBe(121);
    expect(existsSync(path.join(dir, "marker"))).toBe(false);
    const again = scriptedIo(env, dir, "r\n");
    expect(await main(["run", "/mark"], again)).toBe(0);
    expect(again.err()).toContain("approved in another repository that was at this path before");
  });
});

describe("a trust record written before identities were kept", () => {
  it("trusts nothing until the person trusts the workspace again", async () => {
    const dir = project("old-trust");
    await new TrustFileStore({ file: path.join(tmp.dir, "state", "trust.json") }).put({
      workspaceKey: dir,
      trusted: true,
      at: "2026-01-01T00:00:00.000Z",
    });
    const status = scriptedIo(env, dir);
    expect(await main(["trust", "status"], status)).toBe(10);
    expect(status.out()).toContain("not trusted until you confirm it");
    const json = scriptedIo(env, dir);
    expect(await main(["trust", "status", "--json"], json)).toBe(10);
    expect(JSON.parse(json.out())).toMatchObject({
      trusted: false,
      state: "unconfirmed",
      status: expect.stringContaining("not trusted until you confirm it"),
    });
    await expect(main(["run", "/mark"], scriptedIo(env, dir))).rejects.toThrow(
      "not loaded because this workspace is not trusted until you confirm it (trusted before Slashi kept which repository was trusted: run slashi trust again)",
    );

    expect(await main(["trust"], scriptedIo(env, dir))).toBe(0);
    expect(await main(["trust", "status"], scriptedIo(env, dir))).toBe(0);
  });
});
