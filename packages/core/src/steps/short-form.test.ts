import fc from "fast-check";
import { catchError } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";
import { SlashiErrorCode, isSlashiError } from "../errors.js";
import type { SlashiError } from "../errors.js";
import { fingerprintCommand } from "../fingerprint/fingerprint.js";
import { parsePackManifest } from "../schema/pack-manifest.js";
import commandDefinitionJson from "../schema/command-definition.schema.json" with { type: "json" };
import { parseCommandDefinitions, parseTeamFile } from "../schema/team-file.js";
import { createValidator } from "../schema/validator.js";
import { commandDefinitionsSchema, slashiSchemas, teamFileSchema } from "../schema/schemas.js";
import { STEP_KINDS } from "./kinds.js";
import { STEP_MAIN_FIELDS, normalizeCommandSteps, normalizeStepForm } from "./short-form.js";
import type { CommandDefinition, Step } from "./types.js";

const failure = (fn: () => unknown): SlashiError => catchError(fn, isSlashiError);

/** The Slashi 0.6 team file from the issue, verbatim. */
const SHIP = `// .vscode/slashi.json
{
  "commands": [
    {
      "name": "ship",
      "args": "commit message",
      "steps": [
        { "command": "workbench.action.files.saveAll" },
        { "slash": "/test" },
        { "terminal": "git add -A && git commit -m \${q:args} && git push" }
      ]
    }
  ]
}
`;

describe("normalizeStepForm", () => {
  it("turns each kind's short key into its main field", () => {
    for (const kind of STEP_KINDS) {
      const result = normalizeStepForm({ [kind]: "x" }, "/s");
      expect(result).toEqual({
        ok: true,
        step: { type: kind, [STEP_MAIN_FIELDS[kind]]: "x" },
        renamed: { from: `/s/${STEP_MAIN_FIELDS[kind]}`, to: `/s/${kind}` },
      });
    }
  });

  it("keeps the other fields beside the short key", () => {
    expect(normalizeStepForm({ terminal: "make", cwd: "app" }, "/s")).toMatchObject({
      ok: true,
      step: { type: "terminal", command: "make", cwd: "app" },
    });
    expect(normalizeStepForm({ slash: "/test", args: "unit" }, "/s")).toMatchObject({
      ok: true,
      step: { type: "slash", command: "/test", args: "unit" },
    });
  });

  it("leaves typed steps alone, including kind names that are fields of their own type", () => {
    const named = { type: "terminal", command: "make", terminal: "Build" };
    expect(normalizeStepForm(named, "/s")).toEqual({ ok: true, step: named });
    const slash = { type: "slash", command: "/x" };
    expect(normalizeStepForm(slash, "/s")).toEqual({ ok: true, step: slash });
  });

  it("refuses two kind keys, pointing at the second", () => {
    const result = normalizeStepForm({ terminal: "ls", slash: "/x" }, "/commands/0/steps/1");
    expect(result).toMatchObject({
      ok: false,
      issue: { jsonPath: "/commands/0/steps/1/slash", atKey: true },
    });
  });

  it("refuses a kind key beside a different type", () => {
    const result = normalizeStepForm({ type: "notify", message: "hi", terminal: "rm -rf x" }, "/s");
    expect(result).toMatchObject({ ok: false, issue: { jsonPath: "/s/terminal" } });
  });

  it("refuses a short key together with the main field it stands for", () => {
    expect(normalizeStepForm({ notify: "a", message: "b" }, "/s")).toMatchObject({
      ok: false,
      issue: { jsonPath: "/s/message" },
    });
  });

  it("refuses a step with neither type nor kind key", () => {
    expect(normalizeStepForm({ cwd: "x" }, "/s")).toMatchObject({ ok: false, issue: { jsonPath: "/s" } });
  });

  it("never modifies its input", () => {
    const value = [{ name: "a", steps: [{ terminal: "ls" }] }];
    const copy = structuredClone(value);
    normalizeCommandSteps(value, "");
    expect(value).toEqual(copy);
  });
});

describe("loading the short form", () => {
  it("loads the Slashi 0.6 team file unchanged, as three typed steps", () => {
    const team = parseTeamFile(SHIP, ".vscode/slashi.json");
    expect(team.commands).toEqual([
      {
        name: "ship",
        args: "commit message",
        steps: [
          { type: "command", command: "workbench.action.files.saveAll" },
          { type: "slash", command: "/test" },
          { type: "terminal", command: "git add -A && git commit -m ${q:args} && git push" },
        ],
      },
    ]);
  });

  it("gives both spellings of a command the same fingerprint", () => {
    const short = parseTeamFile(SHIP).commands[0] as CommandDefinition;
    const typed = parseTeamFile(
      SHIP.replace(
        '{ "command": "workbench.action.files.saveAll" }',
        '{ "type": "command", "command": "workbench.action.files.saveAll" }',
      )
        .replace('{ "slash": "/test" }', '{ "type": "slash", "command": "/test" }')
        .replace('{ "terminal": "git', '{ "type": "terminal", "command": "git'),
    ).commands[0] as CommandDefinition;
    expect(fingerprintCommand(short)).toBe(fingerprintCommand(typed));
    const changed = parseTeamFile(SHIP.replace("git push", "git push -f")).commands[0] as CommandDefinition;
    expect(fingerprintCommand(changed)).not.toBe(fingerprintCommand(short));
  });

  it("reports an ambiguous step with its file, line and JSON path", () => {
    const text = SHIP.replace('{ "slash": "/test" }', '{ "slash": "/test", "terminal": "curl x | sh" }');
    const error = failure(() => parseTeamFile(text, ".vscode/slashi.json"));
    expect(error.code).toBe(SlashiErrorCode.SCHEMA_INVALID);
    expect(error.data).toMatchObject({
      file: ".vscode/slashi.json",
      line: 9,
      jsonPath: "/commands/0/steps/1/terminal",
    });
  });

  it("reports a schema problem of a short step at the key as written", () => {
    const text = SHIP.replace('{ "slash": "/test" }', '{ "slash": 7 }');
    const error = failure(() => parseTeamFile(text, ".vscode/slashi.json"));
    expect(error.code).toBe(SlashiErrorCode.SCHEMA_INVALID);
    expect(error.data).toMatchObject({ jsonPath: "/commands/0/steps/1/slash", line: 9 });
  });

  it("reads the short form in settings and pack manifests", () => {
    expect(
      parseCommandDefinitions([{ name: "hi", steps: [{ notify: "hello", level: "warning" }] }], {
        file: "settings.json",
      }),
    ).toEqual([{ name: "hi", steps: [{ type: "notify", message: "hello", level: "warning" }] }]);
    const error = failure(() =>
      parseCommandDefinitions([{ name: "hi", steps: [{ notify: "a", insert: "b" }] }], {
        file: "settings.json",
        jsonPath: "/slashi.customCommands",
      }),
    );
    expect(error.data).toMatchObject({ jsonPath: "/slashi.customCommands/0/steps/0/insert" });
    const manifest = parsePackManifest(
      JSON.stringify({
        version: 1,
        commands: [{ name: "w", steps: [{ wait: 10 }, { open: "https://x.test" }] }],
      }),
    );
    expect(manifest.commands[0]?.steps).toEqual([
      { type: "wait", ms: 10 },
      { type: "open", target: "https://x.test" },
    ]);
  });
});

describe("the schema editors use", () => {
  const validator = createValidator({ schemas: slashiSchemas });

  it("accepts the short form and the typed form as they are written", () => {
    expect(
      validator.validate(teamFileSchema, { commands: [{ name: "a", steps: [{ terminal: "ls" }] }] }),
    ).toEqual([]);
    expect(
      validator.validate(commandDefinitionsSchema, [
        { name: "a", steps: [{ type: "terminal", command: "ls" }] },
      ]),
    ).toEqual([]);
  });

  it("refuses a short step with a field its kind does not have", () => {
    expect(
      validator.validate(commandDefinitionsSchema, [{ name: "a", steps: [{ notify: "x", cwd: "y" }] }]),
    ).not.toEqual([]);
  });

  it("gives every short step the typed step's fields, with the main field under the kind's name", () => {
    const defs = (
      commandDefinitionJson as unknown as { $defs: Record<string, { properties?: Record<string, unknown> }> }
    ).$defs;
    for (const kind of STEP_KINDS) {
      const typed = Object.keys(defs[`${kind}Step`]?.properties ?? {}).filter((k) => k !== "type");
      const short = Object.keys(defs[`short${kind[0]?.toUpperCase()}${kind.slice(1)}Step`]?.properties ?? {});
      const expected = typed
        .filter((k) => !(kind === "terminal" && k === "terminal"))
        .map((k) => (k === STEP_MAIN_FIELDS[kind] ? kind : k));
      expect(short.sort()).toEqual(expected.sort());
    }
  });
});

describe("generated steps", () => {
  const text = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== "");
  const typedStep: fc.Arbitrary<Step> = fc.oneof(
    text.map((t) => ({ type: "insert" as const, text: t })),
    fc
      .record({ message: text, level: fc.constantFrom("info", "warning", "error") as fc.Arbitrary<"info"> })
      .map((r) => ({ type: "notify" as const, ...r })),
    fc.constantFrom("name", "branch_1").map((n) => ({ type: "input" as const, name: n })),
    fc.integer({ min: 0, max: 600000 }).map((ms) => ({ type: "wait" as const, ms })),
    fc.record({ command: text, cwd: fc.option(text, { nil: undefined }) }).map(({ command, cwd }) => ({
      type: "terminal" as const,
      command,
      ...(cwd === undefined ? {} : { cwd }),
    })),
    fc.record({ command: fc.constantFrom("/test", "build") }).map((r) => ({ type: "slash" as const, ...r })),
    fc.record({ command: fc.constantFrom("workbench.action.files.save") }).map((r) => ({
      type: "command" as const,
      ...r,
    })),
    fc.constantFrom("https://x.test", "README.md").map((t) => ({ type: "open" as const, target: t })),
  );

  it("reads every typed step rewritten in the short form as the same step and fingerprint", () => {
    fc.assert(
      fc.property(fc.array(typedStep, { minLength: 1, maxLength: 5 }), (steps) => {
        const shortSteps = steps.map((step) => {
          const { type, ...rest } = step as unknown as Record<string, unknown> & {
            type: keyof typeof STEP_MAIN_FIELDS;
          };
          const main = STEP_MAIN_FIELDS[type];
          const { [main]: value, ...others } = rest;
          return { [type]: value, ...others };
        });
        const typed = parseCommandDefinitions([{ name: "g", steps }]);
        const short = parseCommandDefinitions([{ name: "g", steps: shortSteps }]);
        expect(short).toEqual(typed);
        expect(fingerprintCommand(short[0] as CommandDefinition)).toBe(
          fingerprintCommand(typed[0] as CommandDefinition),
        );
      }),
      { numRuns: 200 },
    );
  });
});
