import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SlashiError, SlashiErrorCode } from "@slashi/core";
import { tempHome } from "@slashi/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { slashiPaths } from "../config/paths.js";
import { workspaceAt } from "../config/workspace.js";
import {
  loadCommandCatalogue,
  namedRestriction,
  untrustedNotes,
  untrustedNotLoaded,
  type PackCommandLoader,
} from "./load-catalogue.js";

const homes: { remove(): void }[] = [];
afterEach(() => homes.splice(0).forEach((h) => h.remove()));

async function setUp() {
  const temp = tempHome("slashi-catalogue-");
  homes.push(temp);
  const env = { HOME: temp.home, SLASHI_CONFIG_DIR: temp.configDir, SLASHI_STATE_DIR: temp.stateDir };
  const paths = slashiPaths({ env });
  mkdirSync(paths.configDir, { recursive: true });
  mkdirSync(path.join(temp.workspace, ".vscode"), { recursive: true });
  const notify = (name: string) => ({ name, steps: [{ type: "notify", message: name }] });
  writeFileSync(path.join(paths.configDir, "commands.json"), JSON.stringify({ commands: [notify("mine")] }));
  writeFileSync(
    path.join(temp.workspace, ".vscode", "slashi.json"),
    JSON.stringify({ commands: [notify("team"), notify("other")] }),
  );
  const workspace = await workspaceAt(temp.workspace);
  return { paths, workspace };
}

const packs: PackCommandLoader = async () => [
  { id: "@acme/pack", version: "1.2.0", integrity: "sha512-x", commands: [{ name: "hello", steps: [] }] },
];

describe("loadCommandCatalogue", () => {
  it("reads the person's file, the trusted team file and the packs", async () => {
    const { paths, workspace } = await setUp();
    const catalogue = await loadCommandCatalogue({ paths, workspace, trusted: true, packCommands: packs });
    expect(catalogue.entries.map((e) => [e.name, e.source, e.label])).toEqual([
      ["mine", "user", catalogue.userFile],
      ["team", "workspace", workspace.teamFile],
      ["other", "workspace", workspace.teamFile],
      ["hello", "pack", "@acme/pack@1.2.0"],
    ]);
    expect(catalogue.problems).toEqual([]);
  });

  it("only counts an untrusted workspace's team file and the packs", async () => {
    const { paths, workspace } = await setUp();
    const catalogue = await loadCommandCatalogue({ paths, workspace, trusted: false, packCommands: packs });
    expect(catalogue.entries.map((e) => e.name)).toEqual(["mine"]);
    expect(catalogue).toMatchObject({ untrustedTeamCommands: 2, untrustedTeamFile: true, untrustedPacks: 1 });
    expect(untrustedNotes(catalogue)).toEqual([
      `2 command(s) in ${workspace.teamFile} are not loaded: this workspace is not trusted (slashi trust)`,
      "the commands of 1 installed pack(s) are not loaded: this workspace is not trusted (slashi trust)",
    ]);
  });

  it("keeps loading when the commands file is malformed or the packs cannot be listed", async () => {
    const { paths, workspace } = await setUp();
    writeFileSync(catalogueFile(paths.configDir), '{ "commands": [ { "name": 1, "steps": [] } ] }');
    const catalogue = await loadCommandCatalogue({
      paths,
      workspace,
      trusted: true,
      packCommands: async () => {
        throw new SlashiError(SlashiErrorCode.INVALID_JSON, "packs.lock.json: not JSON");
      },
    });
    expect(catalogue.entries.map((e) => e.name)).toEqual(["team", "other"]);
    expect(catalogue.problems.map((p) => [p.file, p.origin, p.error.code])).toEqual([
      [catalogueFile(paths.configDir), "user-file", catalogue.problems[0]?.error.code],
      ["installed packs", "pack", SlashiErrorCode.INVALID_JSON],
    ]);
    expect(JSON.stringify(catalogue.problems[0]?.error.data)).toContain("/commands/0/name");
  });

  it("refuses a FIFO in place of the team file without waiting on it", async () => {
    const { paths, workspace } = await setUp();
    const fifo = workspace.teamFile;
    rmSync(fifo);
    execFileSync("mkfifo", [fifo]);
    const catalogue = await loadCommandCatalogue({ paths, workspace, trusted: true });
    expect(catalogue.entries.map((e) => e.name)).toEqual(["mine"]);
    expect(catalogue.problems.map((p) => p.file)).toEqual([fifo]);
  });
});

function catalogueFile(configDir: string): string {
  return path.join(configDir, "commands.json");
}

describe("namedRestriction and untrustedNotLoaded", () => {
  it("maps a named source and pack as every host does, and refuses a pack with another source", () => {
    expect(namedRestriction()).toEqual({});
    expect(namedRestriction("team")).toEqual({ source: "workspace" });
    expect(namedRestriction(undefined, "@a/p")).toEqual({ source: "pack", pack: "@a/p" });
    expect(namedRestriction("pack", "@a/p")).toEqual({ source: "pack", pack: "@a/p" });
    expect(() => namedRestriction("user", "@a/p")).toThrow(
      expect.objectContaining({ code: SlashiErrorCode.RUN_INVALID }),
    );
  });

  it("names what an untrusted workspace kept out, only where the restriction looks", () => {
    const loaded = { teamFile: "/w/.vscode/slashi.json", untrustedTeamFile: true, untrustedPacks: 2 };
    expect(untrustedNotLoaded(loaded)).toBe(
      "/w/.vscode/slashi.json and installed packs are not loaded because this workspace is not trusted",
    );
    expect(untrustedNotLoaded(loaded, namedRestriction("team"))).toBe(
      "/w/.vscode/slashi.json is not loaded because this workspace is not trusted",
    );
    expect(
      untrustedNotLoaded(loaded, namedRestriction(undefined, "@a/p"), "trusted for another repository"),
    ).toBe("installed packs are not loaded because this workspace is trusted for another repository");
    expect(untrustedNotLoaded(loaded, namedRestriction("user"))).toBeUndefined();
    expect(untrustedNotLoaded({ untrustedTeamFile: false, untrustedPacks: 0 })).toBeUndefined();
  });
});
