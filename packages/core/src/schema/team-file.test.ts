import { catchError } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";
import { SlashiErrorCode, isSlashiError } from "../errors.js";
import type { SlashiError } from "../errors.js";
import {
  findForbiddenFields,
  foldFieldName,
  isForbiddenFieldName,
  parseCommandDefinitions,
  parseTeamFile,
} from "./team-file.js";

const failure = (fn: () => unknown): SlashiError => catchError(fn, isSlashiError);

const FULL = `{
  // Shared commands for this repository.
  "$schema": "https://slashi.dev/schemas/team-file.json",
  "version": 1,
  "commands": [
    {
      "name": "test",
      "description": "Run the tests of the current file",
      "steps": [
        { "type": "terminal", "command": "pnpm vitest run \${q:relativeFile}", "cwd": "\${workspaceFolder}" },
      ],
    },
    {
      "name": "branch",
      "args": "<name>",
      "steps": [
        { "type": "input", "name": "branch", "prompt": "Branch name", "default": "\${args}" },
        { "type": "terminal", "command": "git switch -c \${q:input:branch}" },
        { "type": "notify", "message": "Switched", "level": "info" },
        { "type": "wait", "ms": 100 },
        { "type": "slash", "command": "/test", "args": "--all" },
        { "type": "command", "command": "workbench.action.files.saveAll", "args": { "policy": "any JSON" } },
        { "type": "setting", "key": "editor.rulers", "value": [100], "target": "workspace" },
        { "type": "open", "target": "https://example.com/docs" },
        { "type": "insert", "text": "done" }, /* trailing comma next */
      ],
    },
  ],
}
`;

describe("parseTeamFile", () => {
  it("accepts a full team file with comments and trailing commas", () => {
    const team = parseTeamFile(FULL, ".vscode/slashi.json");
    expect(team.version).toBe(1);
    expect(team.commands.map((c) => c.name)).toEqual(["test", "branch"]);
    expect(team.commands[1]?.steps).toHaveLength(9);
    expect(team.document.locate("/commands/1/name")).toEqual({ line: 14, column: 15 });
  });

  it("defaults the version to 1 and accepts an empty command list", () => {
    expect(parseTeamFile('{"commands": []}').version).toBe(1);
  });

  const forbidden: [string, string, string, number, number][] = [
    ["at the top level", '{\n  "commands": [],\n  "approvals": ["sha256:00"]\n}', "/approvals", 3, 3],
    [
      "in a command",
      '{"commands": [{\n  "name": "a", "alwaysAllow": true, "steps": []}]}',
      "/commands/0/alwaysAllow",
      2,
      16,
    ],
    [
      "in a step",
      '{"commands": [{"name": "a", "steps": [\n  {"type": "terminal", "command": "ls", "trusted": true}]}]}',
      "/commands/0/steps/0/trusted",
      2,
      41,
    ],
  ];
  for (const [where, text, jsonPath, line, column] of forbidden) {
    it(`rejects a forbidden field ${where} with its location`, () => {
      const err = failure(() => parseTeamFile(text, "f.json"));
      expect(err.code).toBe(SlashiErrorCode.FORBIDDEN_FIELD);
      expect(err.data).toMatchObject({ file: "f.json", jsonPath, line, column });
      expect(err.message.startsWith(`f.json:${line}:${column} (at ${jsonPath}): "`)).toBe(true);
    });
  }

  const names = [
    "approvals",
    "approved",
    "approvedCommands",
    "alwaysAllow",
    "AlwaysAllow",
    "ALWAYS_ALLOW",
    "always-allow",
    "trust",
    "trusted",
    "Trusted",
    "fingerprint",
    "fingerprints",
    "policy",
    "allowedCommands",
    "autoRun",
    "auto_run",
    "skipConfirm",
    "skipConfirmation",
    "SkipConfirmations",
    "\uFF41lwaysAllow",
  ];
  for (const name of names) {
    it(`rejects the field ${JSON.stringify(name)} in a step, not silently ignoring it`, () => {
      const text = JSON.stringify({
        commands: [{ name: "a", steps: [{ type: "insert", text: "x", [name]: true }] }],
      });
      const err = failure(() => parseTeamFile(text, "f.json"));
      expect(err.code).toBe(SlashiErrorCode.FORBIDDEN_FIELD);
      expect(err.data.field).toBe(name);
      expect(err.data.jsonPath).toBe(`/commands/0/steps/0/${name}`);
    });
  }

  it("lists every forbidden field, in document order", () => {
    const text =
      '{"trust": 1, "commands": [{"name": "a", "fingerprint": "x", "steps": [{"type": "insert", "text": "", "autoRun": 1}]}]}';
    const err = failure(() => parseTeamFile(text, "f.json"));
    expect((err.data.fields as { jsonPath: string }[]).map((f) => f.jsonPath)).toEqual([
      "/trust",
      "/commands/0/fingerprint",
      "/commands/0/steps/0/autoRun",
    ]);
    expect(err.message.split("\n")).toHaveLength(3);
  });

  it("does not search the payload of command and setting steps", () => {
    const text = JSON.stringify({
      commands: [
        {
          name: "a",
          steps: [
            { type: "command", command: "x.y", args: { trusted: true } },
            { type: "setting", key: "ext.conf", value: { policy: "strict" } },
          ],
        },
      ],
    });
    expect(parseTeamFile(text).commands).toHaveLength(1);
  });

  it("still searches an args object on a step that is not a command step", () => {
    expect(findForbiddenFields({ steps: [{ type: "slash", args: { trusted: true } }] })).toEqual([
      { field: "trusted", jsonPath: "/steps/0/args/trusted" },
    ]);
  });

  it("reports an unknown field as a schema error", () => {
    const err = failure(() =>
      parseTeamFile('{"commands": [{"name": "a", "steps": [], "icon": "x"}]}', "f.json"),
    );
    expect(err.code).toBe(SlashiErrorCode.SCHEMA_INVALID);
    expect(err.data.errors).toContainEqual(
      expect.objectContaining({ jsonPath: "/commands/0/icon", line: 1, column: 42 }),
    );
  });

  it("reports a wrong step type at the type", () => {
    const text = '{"commands": [{"name": "a", "steps": [\n  {"type": "shell", "command": "ls"}]}]}';
    const err = failure(() => parseTeamFile(text, "f.json"));
    expect(err.code).toBe(SlashiErrorCode.SCHEMA_INVALID);
    expect(err.data).toMatchObject({ jsonPath: "/commands/0/steps/0/type", line: 2, column: 12 });
    expect(err.message).toContain(
      "must be one of insert, notify, input, wait, terminal, slash, command, setting, open",
    );
  });

  it("reports a missing required field of a step kind", () => {
    const text = '{"commands": [{"name": "a", "steps": [\n  {"type": "setting", "key": "editor.tabSize"}]}]}';
    const err = failure(() => parseTeamFile(text, "f.json"));
    expect(err.code).toBe(SlashiErrorCode.SCHEMA_INVALID);
    expect(err.data).toMatchObject({ jsonPath: "/commands/0/steps/0", line: 2, column: 3 });
    expect(err.message).toContain('missing required property "value" in a setting step');
    expect(err.data.errors).toHaveLength(1);
  });

  it("reports a duplicate name at the second definition, naming the first", () => {
    const text = '{"commands": [\n  {"name": "build", "steps": []},\n  {"name": "Build", "steps": []}\n]}';
    const step = '[{"type": "insert", "text": "x"}]';
    const err = failure(() => parseTeamFile(text.replaceAll("[]}", `${step}}`), "f.json"));
    expect(err.code).toBe(SlashiErrorCode.SCHEMA_INVALID);
    expect(err.data).toMatchObject({ jsonPath: "/commands/1/name", line: 3, column: 12 });
    expect(err.message).toContain('duplicate command name "Build" (first defined at line 2, column 12)');
  });

  it("reports a syntax error as INVALID_JSON", () => {
    const err = failure(() => parseTeamFile('{"commands": [\n  {"name": "a" "steps": []}]}', "f.json"));
    expect(err.code).toBe(SlashiErrorCode.INVALID_JSON);
    expect(err.data).toMatchObject({ line: 2, column: 16 });
  });
});

describe("parseCommandDefinitions", () => {
  const where = { file: "settings.json", jsonPath: "/slashi.customCommands" };

  it("returns valid definitions from a setting value", () => {
    const value = [{ name: "hi", steps: [{ type: "notify", message: "hello" }] }];
    expect(parseCommandDefinitions(value, where)).toEqual(value);
  });

  it("locates schema errors by the setting's path", () => {
    const err = failure(() => parseCommandDefinitions([{ name: "hi", steps: [{ type: "wait" }] }], where));
    expect(err.code).toBe(SlashiErrorCode.SCHEMA_INVALID);
    expect(err.data).toMatchObject({ file: "settings.json", jsonPath: "/slashi.customCommands/0/steps/0" });
    expect(err.message).toBe(
      'settings.json (at /slashi.customCommands/0/steps/0): missing required property "ms" in a wait step',
    );
  });

  it("rejects forbidden fields and duplicate names", () => {
    const forbidden = failure(() =>
      parseCommandDefinitions([{ name: "a", approved: true, steps: [] }], where),
    );
    expect(forbidden.code).toBe(SlashiErrorCode.FORBIDDEN_FIELD);
    expect(forbidden.data.jsonPath).toBe("/slashi.customCommands/0/approved");
    const step = { type: "insert", text: "x" };
    const dup = failure(() =>
      parseCommandDefinitions(
        [
          { name: "a", steps: [step] },
          { name: "a", steps: [step] },
        ],
        where,
      ),
    );
    expect(dup.data.jsonPath).toBe("/slashi.customCommands/1/name");
  });

  it("rejects a value that is not an array", () => {
    expect(failure(() => parseCommandDefinitions({ name: "a" }, where)).message).toContain(
      "must be an array",
    );
  });
});

describe("field name folding", () => {
  it("folds case, separators and full-width letters", () => {
    expect(foldFieldName("Always_Allow")).toBe("alwaysallow");
    expect(foldFieldName("\uFF21lways-allow")).toBe("alwaysallow");
  });

  it("leaves every legitimate field name alone", () => {
    const legit = [
      "$schema",
      "version",
      "commands",
      "name",
      "description",
      "args",
      "steps",
      "type",
      "text",
      "message",
      "level",
      "prompt",
      "placeholder",
      "default",
      "password",
      "ms",
      "command",
      "terminal",
      "cwd",
      "key",
      "value",
      "target",
    ];
    expect(legit.filter(isForbiddenFieldName)).toEqual([]);
  });
});
