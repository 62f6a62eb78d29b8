import { SlashiError, SlashiErrorCode, type CommandDefinition } from "@slashi/core";
import { describe, expect, it } from "vitest";
import {
  buildCommandCatalogue,
  findCallee,
  findCommand,
  fromWhere,
  groupOf,
  hiddenBy,
  lookupCommand,
  sourceName,
  type CatalogueInput,
} from "./catalogue.js";

const command = (name: string, message = name): CommandDefinition => ({
  name,
  steps: [{ type: "notify", message }],
});
const file = (path: string, ...names: string[]) => ({
  path,
  text: JSON.stringify({ commands: names.map((n) => command(n, `${path}:${n}`)) }),
});
const pack = (id: string, ...names: string[]) => ({
  id,
  version: "1.0.0",
  integrity: `sha512-${id}`,
  commands: names.map((n) => command(n, `${id}:${n}`)),
});

/** One person, one trusted workspace, two packs (given out of order), every source naming `/ship`. */
const INPUT: CatalogueInput = {
  trusted: true,
  userFile: file("/cfg/commands.json", "ship", "mine"),
  userValue: [command("ship"), command("setting")],
  folders: [
    { path: "/ws", root: "/ws", key: "/ws", teamFile: file("/ws/.vscode/slashi.json", "ship", "team") },
  ],
  packs: [pack("@z/pack", "ship", "zed"), pack("@a/pack", "ship", "ay")],
};

describe("buildCommandCatalogue", () => {
  it("orders the sources: commands file, setting (minus its clashes), team file, packs by name", () => {
    const catalogue = buildCommandCatalogue(INPUT);
    expect(catalogue.entries.map((e) => `${e.origin}${e.pack ? ` ${e.pack.id}` : ""} /${e.name}`)).toEqual([
      "user-file /ship",
      "user-file /mine",
      "user-settings /setting",
      "team-file /ship",
      "team-file /team",
      "pack @a/pack /ship",
      "pack @a/pack /ay",
      "pack @z/pack /ship",
      "pack @z/pack /zed",
    ]);
    expect(catalogue.problems).toEqual([]);
  });

  it("binds a team command to its workspace and a pack command to the exact install", () => {
    const catalogue = buildCommandCatalogue(INPUT);
    expect(findCommand(catalogue, "team")?.identity).toEqual({
      source: "workspace",
      name: "team",
      workspaceKey: "/ws",
    });
    expect(findCommand(catalogue, "zed")).toMatchObject({
      source: "pack",
      label: "@z/pack@1.0.0",
      where: { file: "@z/pack@1.0.0/slashi-pack.json", jsonPath: "/commands/1" },
      identity: { source: "pack", packId: "@z/pack", packVersion: "1.0.0", packIntegrity: "sha512-@z/pack" },
    });
    expect(findCommand(catalogue, "mine")?.identity).toBeUndefined();
  });

  it("reads only the person's own commands in an untrusted workspace", () => {
    const catalogue = buildCommandCatalogue({ ...INPUT, trusted: false });
    expect(catalogue.entries.map((e) => e.origin)).toEqual(["user-file", "user-file", "user-settings"]);
    expect(catalogue.trusted).toBe(false);
  });

  it("reports a malformed source with its file and JSON path, and loads the others", () => {
    const catalogue = buildCommandCatalogue({
      ...INPUT,
      userFile: { path: "/cfg/commands.json", text: '{ "commands": [ { "name": "x", "steps": 3 } ] }' },
      packs: [
        {
          id: "@broken/pack",
          version: "2.0.0",
          error: new SlashiError(SlashiErrorCode.PACK_INTEGRITY, "changed"),
        },
        pack("@a/pack", "ay"),
      ],
    });
    expect(catalogue.problems.map((p) => [p.file, p.origin])).toEqual([
      ["/cfg/commands.json", "user-file"],
      ["@broken/pack@2.0.0/slashi-pack.json", "pack"],
    ]);
    expect(catalogue.problems[0]?.error.data).toMatchObject({ file: "/cfg/commands.json" });
    expect(JSON.stringify(catalogue.problems[0]?.error.data)).toContain("/commands/0");
    expect(catalogue.entries.map((e) => e.name)).toEqual(["ship", "setting", "ship", "team", "ay"]);
  });
});

describe("lookup", () => {
  const catalogue = buildCommandCatalogue(INPUT);

  it("finds the first command of a name, with or without the slash, folded as names are", () => {
    expect(findCommand(catalogue, "/SHIP")?.origin).toBe("user-file");
    expect(findCommand(catalogue, "nope")).toBeUndefined();
  });

  it("restricts to a source or to one pack", () => {
    expect(findCommand(catalogue, "ship", { source: "team" })?.origin).toBe("team-file");
    expect(findCommand(catalogue, "ship", { source: "workspace" })?.origin).toBe("team-file");
    expect(findCommand(catalogue, "ship", { source: "pack" })?.pack?.id).toBe("@a/pack");
    expect(findCommand(catalogue, "ship", { pack: "@z/pack" })?.pack?.id).toBe("@z/pack");
    expect(findCommand(catalogue, "team", { source: "user" })).toBeUndefined();
    expect(findCommand(catalogue, "mine", { pack: "@a/pack" })).toBeUndefined();
  });

  it("says which command hides another of the same name", () => {
    const packShip = findCommand(catalogue, "ship", { pack: "@z/pack" });
    expect(packShip && hiddenBy(catalogue, packShip)?.origin).toBe("user-file");
    expect(hiddenBy(catalogue, findCommand(catalogue, "zed")!)).toBeUndefined();
  });

  it("keeps each group to its own file, setting or pack", () => {
    const zed = findCommand(catalogue, "zed")!;
    expect(groupOf(catalogue, zed).map((e) => e.name)).toEqual(["ship", "zed"]);
    expect(findCallee(groupOf(catalogue, zed), "/ship")?.pack?.id).toBe("@z/pack");
    expect(findCallee(groupOf(catalogue, zed), "ay")).toBeUndefined();
    expect(groupOf(catalogue, findCommand(catalogue, "mine")!).map((e) => e.name)).toEqual([
      "ship",
      "mine",
      "setting",
    ]);
  });

  it("refuses to pick a later command when a source before it could not be loaded", () => {
    const broken = buildCommandCatalogue({
      ...INPUT,
      userFile: { path: "/cfg/commands.json", text: "{ not json" },
    });
    // The broken file may define /ship: the team's /ship must not run in its place.
    expect(lookupCommand(broken, "ship").problem?.file).toBe("/cfg/commands.json");
    expect(lookupCommand(broken, "nope").problem?.file).toBe("/cfg/commands.json");
    // Restricted to a source the problem is not in, the lookup answers.
    expect(lookupCommand(broken, "ship", { source: "team" }).found?.origin).toBe("team-file");
    expect(lookupCommand(broken, "ship", { pack: "@z/pack" }).found?.pack?.id).toBe("@z/pack");
  });

  it("finds a command that comes before a broken source", () => {
    const broken = buildCommandCatalogue({
      ...INPUT,
      packs: [{ id: "@a/pack", error: new SlashiError(SlashiErrorCode.PACK_INTEGRITY, "changed") }],
    });
    expect(lookupCommand(broken, "team").found?.origin).toBe("team-file");
    expect(lookupCommand(broken, "zed").problem?.origin).toBe("pack");
    expect(lookupCommand(broken, "nope", { source: "user" })).toEqual({});
  });
});

describe("fromWhere and sourceName", () => {
  it("name a pack command by its exact install and any other command by its file or source", () => {
    const catalogue = buildCommandCatalogue(INPUT);
    const team = catalogue.entries.find((e) => e.name === "team")!;
    const packed = catalogue.entries.find((e) => e.name === "ay")!;
    expect([fromWhere(team), sourceName(team)]).toEqual(["/ws/.vscode/slashi.json", "workspace"]);
    expect([fromWhere(packed), sourceName(packed)]).toEqual(["the pack @a/pack@1.0.0", "pack @a/pack@1.0.0"]);
  });
});
