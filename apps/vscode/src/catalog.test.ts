import { describe, expect, it } from "vitest";
import { buildCatalog, findCallee, findCommand } from "./catalog.js";

const team = JSON.stringify({
  commands: [{ name: "ship", steps: [{ type: "terminal", command: "git push" }] }],
});

describe("buildCatalog", () => {
  it("reads only the user's value in an untrusted workspace", () => {
    const catalog = buildCatalog({
      trusted: false,
      userValue: [{ name: "mine", steps: [{ type: "notify", message: "hi" }] }],
      workspaceValue: [{ name: "theirs", steps: [{ type: "notify", message: "hi" }] }],
      folders: [{ path: "/w", key: "/w", teamFile: { path: "/w/.vscode/slashi.json", text: team } }],
      packs: [{ pack: "p", version: "1.0.0", integrity: "x", command: { name: "pk", steps: [] } as never }],
    });
    expect(catalog.entries.map((e) => `${e.source}:${e.name}`)).toEqual(["user:mine"]);
    expect(catalog.problems).toEqual([]);
  });

  it("tells sources apart and binds team commands to their folder key", () => {
    const catalog = buildCatalog({
      trusted: true,
      userValue: [{ name: "mine", steps: [{ type: "notify", message: "hi" }] }],
      workspaceValue: [{ name: "ws", steps: [{ type: "notify", message: "hi" }] }],
      workspaceSettings: { label: "/w/.vscode/settings.json", key: "/w", folder: "/w" },
      folders: [{ path: "/w", key: "/w", teamFile: { path: "/w/.vscode/slashi.json", text: team } }],
    });
    expect(catalog.entries.map((e) => [e.origin, e.name, e.identity?.source ?? "none"])).toEqual([
      ["user-settings", "mine", "none"],
      ["workspace-settings", "ws", "workspace"],
      ["team-file", "ship", "workspace"],
    ]);
  });

  it("reads the user's commands.json before slashi.customCommands, trusted or not; the file wins a name", () => {
    const own = JSON.stringify({
      commands: [
        { name: "deploy", steps: [{ type: "notify", message: "from the file" }] },
        { name: "both", steps: [{ type: "slash", command: "deploy" }] },
      ],
    });
    for (const trusted of [false, true]) {
      const catalog = buildCatalog({
        trusted,
        userFile: { path: "/h/.config/slashi/commands.json", text: own },
        userValue: [
          { name: "Both", steps: [{ type: "notify", message: "from the setting" }] },
          { name: "mine", steps: [{ type: "notify", message: "hi" }] },
        ],
      });
      expect(catalog.entries.map((e) => [e.origin, e.source, e.group, e.name])).toEqual([
        ["user-file", "user", "user", "deploy"],
        ["user-file", "user", "user", "both"],
        ["user-settings", "user", "user", "mine"],
      ]);
      expect(findCommand(catalog, "/BOTH")?.origin).toBe("user-file");
      expect(catalog.entries[0]?.where).toMatchObject({ jsonPath: "/commands/0" });
    }
  });

  it("loads nothing from a malformed commands.json, reports it, and keeps the setting's commands", () => {
    const catalog = buildCatalog({
      trusted: true,
      userFile: { path: "/h/.config/slashi/commands.json", text: '{ "commands": [ { "name": 1 } ] }' },
      userValue: [{ name: "mine", steps: [{ type: "notify", message: "hi" }] }],
    });
    expect(catalog.entries.map((e) => e.name)).toEqual(["mine"]);
    expect(catalog.problems.map((p) => [p.file, p.error.code])).toEqual([
      ["/h/.config/slashi/commands.json", expect.any(String)],
    ]);
  });

  it("loads nothing from a malformed team file and reports its position", () => {
    const catalog = buildCatalog({
      trusted: true,
      folders: [
        {
          path: "/w",
          key: "/w",
          teamFile: {
            path: "/w/.vscode/slashi.json",
            text: '{\n  "commands": [\n    { "name": "x", "steps": [], "alwaysAllow": true }\n  ]\n}',
          },
        },
      ],
    });
    expect(catalog.entries).toEqual([]);
    expect(catalog.problems[0]?.error.code).toBe("FORBIDDEN_FIELD");
    expect(catalog.problems[0]?.error.data.line).toBe(3);
  });
});

describe("findCommand and findCallee", () => {
  const catalog = buildCatalog({
    trusted: true,
    userValue: [{ name: "Ship", steps: [{ type: "notify", message: "mine" }] }],
    folders: [{ path: "/w", key: "/w", teamFile: { path: "/w/.vscode/slashi.json", text: team } }],
  });
  it("finds the user's command first, and the team's when asked for it", () => {
    expect(findCommand(catalog, "/ship")?.source).toBe("user");
    expect(findCommand(catalog, "ship", "team")?.source).toBe("workspace");
    expect(findCommand(catalog, "nope")).toBeUndefined();
  });
  it("finds a callee within a group only", () => {
    const group = catalog.entries.filter((e) => e.group === "workspace:/w");
    expect(findCallee(group, "/ship")?.origin).toBe("team-file");
    expect(findCallee(group, "mine")).toBeUndefined();
  });
});
