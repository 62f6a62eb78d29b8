import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "@slashi/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { SECRET_LOCATIONS } from "@slashi/core";
import { SECRET_HOME_PATHS, secretHomePaths, secretSystemPaths } from "./secret-paths.js";

const rootTemp = tempDir("slashi-secret-paths-");
const root = rootTemp.dir;
afterAll(rootTemp.remove);

function touch(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, "x");
}

describe("SECRET_HOME_PATHS", () => {
  it("is the core's home and anywhere entries without a pattern, and nothing else", () => {
    const plain = SECRET_LOCATIONS.filter((e) => e.anchor !== "root" && !e.path.includes("*"));
    expect(SECRET_HOME_PATHS).toEqual(plain.map((e) => e.path));
    expect(SECRET_HOME_PATHS).toEqual(
      expect.arrayContaining([".ssh", ".claude/.credentials.json", ".codex"]),
    );
  });
});

describe("secretHomePaths", () => {
  const home = path.join(root, "home");
  const secret = [
    ".ssh/id_ed25519",
    ".bash_history",
    ".zsh_history",
    ".Python_History",
    "id_work",
    "server.PEM",
    ".env.local",
    ".config/gh/hosts.yml",
    ".AWS/credentials",
  ];
  const plain = ["id_utils.ts", ".env.example", "notes.txt", ".config/nvim/init.lua", "projects/x/.env"];
  for (const name of [...secret, ...plain]) touch(path.join(home, name));

  it("finds each existing place, patterns matched against the names there and case ignored", async () => {
    const found = await secretHomePaths(home);
    for (const name of [
      ".ssh",
      ".bash_history",
      ".zsh_history",
      ".Python_History",
      "id_work",
      "server.PEM",
    ]) {
      expect(found).toContain(path.join(home, name));
    }
    expect(found).toEqual(
      expect.arrayContaining([
        path.join(home, ".env.local"),
        path.join(home, ".config", "gh"),
        path.join(home, ".config", "gh", "hosts.yml"),
        path.join(home, ".AWS"),
      ]),
    );
  });

  it("returns no plain file: excepted names, other folders, a project's .env below home", async () => {
    const found = await secretHomePaths(home);
    expect(found).toHaveLength(10);
    for (const name of plain) expect(found).not.toContain(path.join(home, name));
    // Below home only: a project's .env is the workspace's business, not the home's.
    expect(found.every((file) => file.startsWith(home + path.sep))).toBe(true);
  });

  it("returns nothing for a home that does not exist", async () => {
    expect(await secretHomePaths(path.join(root, "missing"))).toEqual([]);
  });
});

describe("secretSystemPaths", () => {
  it("leaves out /proc and the private directories, whose fresh mounts hold nothing of the host", async () => {
    const found = await secretSystemPaths(["/tmp", "/run"]);
    expect(found.some((file) => /^\/(proc|run|dev)(\/|$)/.test(file))).toBe(false);
    expect(found).toEqual(
      expect.arrayContaining(["/etc/shadow", "/etc/sudoers"].filter((f) => existsSync(f))),
    );
  });
});
