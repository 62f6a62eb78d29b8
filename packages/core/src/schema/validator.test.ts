import { catchError } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";
import { SlashiErrorCode, isSlashiError } from "../errors.js";
import type { SlashiError } from "../errors.js";
import { commandDefinitionsSchema, standaloneSchema, teamFileSchema } from "./schemas.js";
import { createValidator, defaultValidator, validateDocument, validateValue } from "./validator.js";
import type { JsonSchema, LocatedSchemaIssue } from "./validator.js";

const failure = (fn: () => unknown): SlashiError => catchError(fn, isSlashiError);

const pointSchema: JsonSchema = {
  $id: "https://slashi.dev/schemas/test-point.json",
  type: "object",
  required: ["x"],
  additionalProperties: false,
  properties: { x: { type: "integer" }, y: { type: "integer" }, kind: { enum: ["a", "b"] } },
};

describe("createValidator", () => {
  it("returns no issues for a valid value and readable issues for an invalid one", () => {
    const v = createValidator();
    expect(v.validate(pointSchema, { x: 1 })).toEqual([]);
    expect(v.validate(pointSchema, { y: "1", z: 0, kind: "c" })).toEqual([
      { jsonPath: "", keyword: "required", message: 'missing required property "x"' },
      {
        jsonPath: "/z",
        keyword: "additionalProperties",
        atKey: true,
        message: 'unknown property "z" (known properties: kind, x, y)',
      },
      { jsonPath: "/y", keyword: "type", message: "must be an integer" },
      { jsonPath: "/kind", keyword: "enum", message: "must be one of a, b" },
    ]);
  });

  it("compiles a schema once and reuses it by $id", () => {
    const v = createValidator();
    v.validate(pointSchema, { x: 1 });
    // a different object with the same $id is not compiled again: the first registration wins
    const other = { ...pointSchema, required: [] };
    expect(v.validate(other, {})).toHaveLength(1);
  });

  it("accepts VS Code's annotation keywords and uses patternErrorMessage", () => {
    const v = createValidator();
    const schema: JsonSchema = {
      $id: "https://slashi.dev/schemas/test-editor.json",
      type: "string",
      pattern: "^a",
      markdownDescription: "**a**",
      patternErrorMessage: "must start with a",
    };
    expect(v.validate(schema, "b")).toEqual([
      { jsonPath: "", keyword: "pattern", message: "must start with a" },
    ]);
    const plain: JsonSchema = {
      $id: "https://slashi.dev/schemas/test-plain.json",
      type: "string",
      pattern: "^a",
    };
    expect(v.validate(plain, "b")[0]?.message).toBe("must match the pattern ^a");
  });

  it("rejects a schema with an unknown keyword (strict mode)", () => {
    expect(() =>
      createValidator().validate({ $id: "https://slashi.dev/schemas/test-typo.json", typo: 1 }, {}),
    ).toThrow();
  });

  it("resolves $ref between registered schemas", () => {
    const list: JsonSchema = {
      $id: "https://slashi.dev/schemas/test-points.json",
      type: "array",
      items: { $ref: "test-point.json" },
    };
    const v = createValidator({ schemas: [pointSchema] });
    expect(v.validate(list, [{ x: 1 }, { x: "no" }])).toEqual([
      { jsonPath: "/1/x", keyword: "type", message: "must be an integer" },
    ]);
  });
});

describe("validateDocument", () => {
  it("returns the parsed value of a valid JSONC document", () => {
    const value = validateDocument(teamFileSchema, '{ // c\n "commands": [],\n}', "t.json");
    expect(value).toEqual({ commands: [] });
  });

  it("names the allowed step types at the type's position", () => {
    const text =
      '{\n  "commands": [{ "name": "a", "steps": [\n    { "type": "insert", "text": "x" },\n    { "type": "shell", "command": "ls" }\n  ]}]\n}';
    const err = failure(() => validateDocument(teamFileSchema, text, ".vscode/slashi.json"));
    expect(err.code).toBe(SlashiErrorCode.SCHEMA_INVALID);
    expect(err.message).toBe(
      ".vscode/slashi.json:4:15 (at /commands/0/steps/1/type): must be one of insert, notify, input, wait, terminal, slash, command, setting, open",
    );
    expect(err.data).toMatchObject({
      file: ".vscode/slashi.json",
      line: 4,
      column: 15,
      jsonPath: "/commands/0/steps/1/type",
    });
    expect(err.data.errors).toHaveLength(1);
  });

  it("says exactly which field a step of a known type misses, without noise from other step kinds", () => {
    const text = '{"commands": [{"name": "a", "steps": [\n{"type": "terminal", "cwd": "/"}]}]}';
    const err = failure(() => validateDocument(teamFileSchema, text, "f.json"));
    expect(err.data.errors).toEqual([
      {
        file: "f.json",
        line: 2,
        column: 1,
        jsonPath: "/commands/0/steps/0",
        keyword: "required",
        message: 'missing required property "command" in a terminal step',
      },
    ]);
  });

  it("lists every problem in document order with its location", () => {
    const text =
      '{"version": 2,\n "commands": [{"name": "-a", "steps": []},\n {"steps": [{"type": "wait", "ms": -1, "until": 3}]}],\n "extra": true}';
    const err = failure(() => validateDocument(teamFileSchema, text, "f.json"));
    const errors = err.data.errors as LocatedSchemaIssue[];
    expect(errors.map((e) => [e.line, e.column, e.jsonPath, e.message])).toEqual([
      [1, 13, "/version", "must be 1"],
      [
        2,
        24,
        "/commands/0/name",
        "must be a command name: a letter or digit, then letters, digits, '.', '_', ':' or '-'",
      ],
      [2, 39, "/commands/0/steps", "must have at least 1 item"],
      [3, 2, "/commands/1", 'missing required property "name"'],
      [3, 36, "/commands/1/steps/0/ms", "must be >= 0"],
      [
        3,
        40,
        "/commands/1/steps/0/until",
        'unknown property "until" in a wait step (known properties: ms, type)',
      ],
      [4, 2, "/extra", 'unknown property "extra" (known properties: $schema, commands, version)'],
    ]);
    expect(err.message.split("\n")).toHaveLength(7);
    expect(err.message.split("\n")[0]).toBe("f.json:1:13 (at /version): must be 1");
  });

  it("throws INVALID_JSON for a syntax error before validating", () => {
    const err = failure(() => validateDocument(teamFileSchema, '{"commands": [}', "f.json"));
    expect(err.code).toBe(SlashiErrorCode.INVALID_JSON);
    expect(err.data).toMatchObject({ line: 1, column: 15 });
  });
});

describe("standaloneSchema", () => {
  it("validates like the registered schemas without any other schema", () => {
    const bare = createValidator();
    const team = standaloneSchema(teamFileSchema);
    expect(JSON.stringify(team)).not.toContain('"command-definition.json"');
    const good = { commands: [{ name: "a", steps: [{ type: "terminal", command: "ls" }] }] };
    expect(bare.validate(team, good)).toEqual([]);
    const bad = { commands: [{ name: "a", steps: [{ type: "terminal" }, { type: "nope" }] }] };
    expect(team.$id).toBeUndefined();
    expect(bare.validate(team, bad)).toEqual(defaultValidator().validate(teamFileSchema, bad));
    expect(bare.validate(team, bad).map((i) => i.jsonPath)).toEqual([
      "/commands/0/steps/0",
      "/commands/0/steps/1/type",
    ]);
    const list = standaloneSchema(commandDefinitionsSchema);
    expect(bare.validate(list, [{ name: "x", steps: [{ type: "wait", ms: 1 }] }])).toEqual([]);
    expect(bare.validate(list, [{ name: "x", steps: [] }])).toHaveLength(1);
  });
});

describe("validateValue", () => {
  it("prefixes the origin's path for values without text", () => {
    const err = failure(() =>
      validateValue(pointSchema, { x: "1" }, { file: "settings.json", jsonPath: "/slashi.point" }),
    );
    expect(err.message).toBe("settings.json (at /slashi.point/x): must be an integer");
    expect(err.data).toMatchObject({ file: "settings.json", jsonPath: "/slashi.point/x" });
  });

  it("never echoes the offending value", () => {
    const err = failure(() => validateValue(pointSchema, { x: 1, kind: "hunter2-secret" }));
    expect(err.message).not.toContain("hunter2");
    expect(JSON.stringify(err.data)).not.toContain("hunter2");
  });
});
