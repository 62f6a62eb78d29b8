import { catchError } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";
import { SlashiErrorCode, isSlashiError } from "../errors.js";
import type { SlashiError } from "../errors.js";
import { parseTeamFile } from "../schema/team-file.js";
import type { CommandDefinition, Step } from "../steps/types.js";
import { expandCommand, expandStep, expandableFields, validateVariables } from "./expand.js";
import type { ExpansionContext } from "./expand.js";

const failure = (fn: () => unknown): SlashiError => catchError(fn, isSlashiError);

const SECRET = "s3cr3t-value";

const context = (over: Partial<ExpansionContext> = {}): ExpansionContext => ({
  source: "workspace",
  values: {
    selection: "it's",
    file: "/w/src/a b.ts",
    relativeFile: "src/a b.ts",
    fileBasename: "a b.ts",
    fileDirname: "/w/src",
    workspaceFolder: "/w",
    lineNumber: "12",
    args: "--fix",
  },
  env: (name) => (name === "TOKEN" ? SECRET : undefined),
  config: (key) => ({ "editor.tabSize": 4, "a.obj": { x: 1 }, "a.str": SECRET })[key],
  clipboard: SECRET,
  inputs: { branch: "feat/x'y" },
  dialect: "posix",
  ...over,
});

const def = (...steps: Step[]): CommandDefinition => ({ name: "t", steps });

describe("expandableFields", () => {
  it("lists only the fields that expand, with string leaves of command args", () => {
    expect(
      expandableFields({ type: "terminal", command: "a", cwd: "b", terminal: "c" }).map((f) => f.path),
    ).toEqual([["command"], ["cwd"]]);
    expect(
      expandableFields({
        type: "command",
        command: "x",
        args: { text: "a", n: 1, list: ["b", { c: "d" }] },
      }).map((f) => f.path),
    ).toEqual([
      ["args", "text"],
      ["args", "list", 0],
      ["args", "list", 1, "c"],
    ]);
    expect(expandableFields({ type: "setting", key: "k", value: "${file}" })).toEqual([]);
    expect(expandableFields({ type: "slash", command: "${x}" })).toEqual([]);
  });
});

describe("expandStep", () => {
  it("expands every context variable in an insert step", () => {
    const text =
      "${selection}|${file}|${relativeFile}|${fileBasename}|${fileDirname}|${workspaceFolder}|${lineNumber}|${args}";
    expect(expandStep({ type: "insert", text }, context())).toEqual({
      type: "insert",
      text: "it's|/w/src/a b.ts|src/a b.ts|a b.ts|/w/src|/w|12|--fix",
    });
  });

  it("quotes ${q:…} for a posix shell in a terminal command", () => {
    const step = {
      type: "terminal",
      command: "git switch -c ${q:input:branch} && cat ${q:relativeFile}",
      cwd: "${workspaceFolder}/sub",
    } as const;
    expect(expandStep(step, context())).toEqual({
      type: "terminal",
      command: "git switch -c 'feat/x'\\''y' && cat 'src/a b.ts'",
      cwd: "/w/sub",
    });
  });

  it("expands secrets in insert and notify steps of a shared command", () => {
    expect(
      expandStep(
        { type: "notify", message: "${env:TOKEN} ${config:editor.tabSize} ${config:a.obj}" },
        context(),
      ),
    ).toEqual({
      type: "notify",
      message: `${SECRET} 4 {"x":1}`,
    });
    expect(expandStep({ type: "insert", text: "${clipboard}" }, context()).text).toBe(SECRET);
  });

  it("refuses a secret in a terminal step of a shared command without showing its value", () => {
    const err = failure(() =>
      expandStep({ type: "terminal", command: "curl -H ${q:env:TOKEN} x" }, context(), { index: 2 }),
    );
    expect(err.code).toBe(SlashiErrorCode.VARIABLE_NOT_ALLOWED);
    expect(err.data).toMatchObject({
      stepIndex: 2,
      stepKind: "terminal",
      field: "/command",
      variable: "env:TOKEN",
      jsonPath: "/steps/2/command",
    });
    expect(err.message).toContain('step 3 (terminal), field command: "${q:env:TOKEN}" is not allowed');
    expect(err.message).not.toContain(SECRET);
  });

  it("lets the user's own command use secrets anywhere", () => {
    expect(
      expandStep({ type: "terminal", command: "echo ${q:config:a.str}" }, context({ source: "user" }))
        .command,
    ).toBe(`echo '${SECRET}'`);
  });

  it("treats an agent's command like a shared one for secrets", () => {
    expect(
      failure(() => expandStep({ type: "open", target: "${clipboard}" }, context({ source: "agent" }))).code,
    ).toBe(SlashiErrorCode.VARIABLE_NOT_ALLOWED);
  });

  it("fails for a variable without a value instead of expanding it to nothing", () => {
    const err = failure(() =>
      expandStep({ type: "terminal", command: "rm -r ${q:fileDirname}/build" }, context({ values: {} })),
    );
    expect(err.code).toBe(SlashiErrorCode.UNDEFINED_VARIABLE);
    expect(err.message).toContain('"${q:fileDirname}" has no value');
    expect(failure(() => expandStep({ type: "insert", text: "${env:UNSET}" }, context())).code).toBe(
      SlashiErrorCode.UNDEFINED_VARIABLE,
    );
    expect(failure(() => expandStep({ type: "insert", text: "${input:other}" }, context())).code).toBe(
      SlashiErrorCode.UNDEFINED_VARIABLE,
    );
  });

  it("refuses ${q:…} outside a terminal command", () => {
    const err = failure(() =>
      expandStep({ type: "terminal", command: "ls", cwd: "${q:workspaceFolder}" }, context()),
    );
    expect(err.code).toBe(SlashiErrorCode.INVALID_VARIABLE);
    expect(err.data.field).toBe("/cwd");
  });

  it("quotes for the dialect of the target shell", () => {
    const step = { type: "terminal", command: "echo ${q:selection}" } as const;
    expect(expandStep(step, context({ dialect: "powershell" })).command).toBe("echo 'it''s'");
    expect(expandStep(step, context({ dialect: "cmd" })).command).toBe(`echo "it's"`);
    const err = failure(() => expandStep(step, context({ dialect: "cmd", values: { selection: "a\nb" } })));
    expect(err.code).toBe(SlashiErrorCode.UNQUOTABLE_VALUE);
  });

  it("fails closed when ${q:…} has no dialect", () => {
    expect(
      failure(() =>
        expandStep({ type: "terminal", command: "echo ${q:args}" }, context({ dialect: undefined })),
      ).code,
    ).toBe(SlashiErrorCode.UNKNOWN_SHELL);
  });

  it("reports an unquotable value by position, never by content", () => {
    const err = failure(() =>
      expandStep(
        { type: "terminal", command: "echo ${q:selection}" },
        context({ values: { selection: `${SECRET}\u0000` } }),
      ),
    );
    expect(err.code).toBe(SlashiErrorCode.UNQUOTABLE_VALUE);
    expect(err.message).not.toContain(SECRET);
    expect(err.data).toMatchObject({ stepKind: "terminal", variable: "selection" });
  });

  it("expands string values inside command args, never keys, and copies other fields", () => {
    const step: Step = {
      type: "command",
      command: "type",
      args: { "${file}": "${selection}", n: 3, list: ["${args}"] },
    };
    expect(expandStep(step, context({ source: "user" }))).toEqual({
      type: "command",
      command: "type",
      args: { "${file}": "it's", n: 3, list: ["--fix"] },
    });
    expect(step.args).toEqual({ "${file}": "${selection}", n: 3, list: ["${args}"] });
  });

  it("writes setting steps verbatim and leaves names alone", () => {
    expect(expandStep({ type: "setting", key: "a.b", value: "${file}" }, context())).toEqual({
      type: "setting",
      key: "a.b",
      value: "${file}",
    });
    expect(expandStep({ type: "slash", command: "build", args: "${args} $${x}" }, context())).toEqual({
      type: "slash",
      command: "build",
      args: "--fix ${x}",
    });
  });
});

describe("validateVariables", () => {
  it("lists every reference with its step and field", () => {
    const uses = validateVariables(
      def(
        { type: "input", name: "b", default: "${args}" },
        { type: "terminal", command: "git switch ${q:input:b}" },
        { type: "notify", message: "${env:USER}" },
      ),
      "workspace",
    );
    expect(uses.map((u) => [u.stepIndex, u.stepKind, u.field, u.name, u.jsonPath])).toEqual([
      [0, "input", "/default", "args", "/steps/0/default"],
      [1, "terminal", "/command", "input:b", "/steps/1/command"],
      [2, "notify", "/message", "env:USER", "/steps/2/message"],
    ]);
  });

  it("rejects ${input:x} before the input step that binds it", () => {
    const err = failure(() =>
      validateVariables(
        def({ type: "terminal", command: "echo ${q:input:b}" }, { type: "input", name: "b" }),
        "user",
      ),
    );
    expect(err.code).toBe(SlashiErrorCode.UNDEFINED_VARIABLE);
    expect(err.message).toContain("used before any input step binds");
  });

  it("rejects a secret in an input default of a shared command, so it cannot reach a later terminal step", () => {
    const err = failure(() =>
      validateVariables(def({ type: "input", name: "t", default: "${env:TOKEN}" }), "pack"),
    );
    expect(err.code).toBe(SlashiErrorCode.VARIABLE_NOT_ALLOWED);
  });

  it("locates the offending field in the team file", () => {
    const text =
      '{"commands": [\n  {"name": "a", "steps": [\n    {"type": "open", "target": "https://x.test/?q=${config:token}"}]}]}';
    const team = parseTeamFile(text, ".vscode/slashi.json");
    const command = team.commands[0] as CommandDefinition;
    const err = failure(() =>
      validateVariables(command, "workspace", { document: team.document, jsonPath: "/commands/0" }),
    );
    expect(err.code).toBe(SlashiErrorCode.VARIABLE_NOT_ALLOWED);
    expect(err.data).toMatchObject({
      file: ".vscode/slashi.json",
      line: 3,
      column: 51,
      jsonPath: "/commands/0/steps/0/target",
    });
    expect(
      err.message.startsWith(
        ".vscode/slashi.json:3:51 (at /commands/0/steps/0/target): step 1 (open), field target:",
      ),
    ).toBe(true);
  });

  it("names the step for a malformed reference", () => {
    const err = failure(() =>
      validateVariables(def({ type: "insert", text: "ok" }, { type: "notify", message: "${oops" }), "user"),
    );
    expect(err.code).toBe(SlashiErrorCode.INVALID_VARIABLE);
    expect(err.data).toMatchObject({ stepIndex: 1, stepKind: "notify", field: "/message", offset: 0 });
  });
});

describe("expandCommand", () => {
  it("validates the whole command, then expands each step", () => {
    const command = def(
      { type: "input", name: "branch" },
      { type: "terminal", command: "git switch ${q:input:branch}" },
    );
    expect(expandCommand(command, context()).steps[1]).toEqual({
      type: "terminal",
      command: "git switch 'feat/x'\\''y'",
    });
    const bad = def({ type: "terminal", command: "echo ${q:input:branch}" });
    expect(failure(() => expandCommand(bad, context())).code).toBe(SlashiErrorCode.UNDEFINED_VARIABLE);
  });
});
