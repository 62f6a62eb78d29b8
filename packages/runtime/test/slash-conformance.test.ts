// The `steps` and `expansion` conformance cases through the runtime's slash-command runner, once for every host:
// each case becomes a command run by `runSlashSteps` (and, for approval and the source rules, planned by
// `approveSlashRun`) with a recording host port, which performs every step kind by writing down what the step
// would do (the terminal line and its cwd, a notification, an input's answer, a target to open with its check, an
// editor action, a setting, a read of the clipboard). The apps' contract tests check their own surfaces; a case
// this runner cannot express is listed under `runtime-slash` in @slashi/conformance's not-applicable.json.
//
// How an input becomes a run:
//   expansion { source, step | steps, values?, env?, config?, clipboard?, inputs?, dialect? }
//     -> a command of those steps from `source`; the port's context gives values, env, config and dialect; the
//        clipboard is read through the port (only when a step uses it); an input step is answered from `inputs`
//        (else its default, else the empty text); a lone step sees `inputs` as bound already. The steps the loop expanded
//        (`port.expanded`) must equal `expanded`, or the run must throw the error code, with no env, config or
//        clipboard value in the error's message or data.
//   steps { op: "needsApproval", step }  -> a team command of that step nobody approved: `true` when the approval
//        sequence asks (or refuses it before any prompt: nothing runs unasked), `false` when it runs unasked.
//   steps { op: "checkShared", step, source } -> the approval sequence's source rules (`checkSourceRules`, no
//        host check): the violations it refuses with, paths relative to the step, as the core's harness compares.
//   steps { op: "openTarget", target } -> the person's own command opening it: the check the port is handed.
//   steps { op: "loadTeamFile", text, run } -> the file loaded as a host loads it, the named command run with
//        `args` in `dialect` from the workspace, each expanded step rendered. A `slash` step whose callee the
//        file lacks calls an empty command (the recording host records the call; the plan's own refusal of a
//        missing callee is tested in approve.test.ts).
import {
  isSlashiError,
  parseTeamFile,
  renderStep,
  type CommandDefinition,
  type CommandSource,
  type ExpansionContext,
  type QuoteDialect,
  type Step,
} from "@slashi/core";
import {
  compareWithBaseline,
  loadCases,
  notApplicable as notApplicableTo,
  notApplicableProblems,
  type ConformanceCase,
} from "@slashi/conformance";
import { describe, expect, it } from "vitest";
import { approveSlashRun, runSlashSteps, type StepCommand, type StepHostPort } from "../src/index.js";

/** What one step would do, as the recording port writes it down. */
type Action = Record<string, unknown> & { kind: string };

interface Recording {
  port: StepHostPort<StepCommand>;
  /** What each step would do, in order. */
  actions: Action[];
  /** Each step as the loop expanded it, in order. */
  expanded: Step[];
}

interface RecordingOptions {
  /** The commands a `slash` step may call; a name not among them calls an empty command. */
  group?: readonly StepCommand[];
  /** The expansion context of every step, before the loop adds the inputs bound so far. */
  context: (inputs: Readonly<Record<string, string>>) => ExpansionContext;
  /** The clipboard text; without it the host has no clipboard. */
  clipboard?: string;
  /** The person's answer to each input step, by name; without one, the step's default or the empty text. */
  answers?: Readonly<Record<string, string>>;
}

/** A host port that performs every step kind by recording what the step would do. */
function recordingPort(options: RecordingOptions): Recording {
  const actions: Action[] = [];
  const expanded: Step[] = [];
  const group = options.group ?? [];
  const port: StepHostPort<StepCommand> = {
    name: "the recording host",
    context: (_command, _args, inputs) => options.context(inputs),
    callee: (_caller, name) => {
      const bare = name.replace(/^\//, "");
      return (
        group.find((c) => c.definition.name === bare) ?? {
          definition: { name: bare, steps: [] },
          source: "workspace",
        }
      );
    },
    ...(options.clipboard === undefined
      ? {}
      : {
          clipboard: async () => {
            actions.push({ kind: "clipboard-read" });
            return options.clipboard as string;
          },
        }),
    expanded: (_at, step) => {
      expanded.push(step);
      if (step.type === "slash") actions.push({ kind: "slash", command: step.command, args: step.args });
    },
    terminal: async (run) => {
      actions.push({ kind: "terminal", line: run.step.command, cwd: run.cwd, display: run.display });
    },
    notify: (step) => {
      actions.push({ kind: "notify", message: step.message, level: step.level });
    },
    input: async (step) => {
      // The person answers every input: the case's answer, else the step's default, else nothing typed.
      const value = options.answers?.[step.name] ?? step.default ?? "";
      actions.push({ kind: "input", name: step.name, value });
      return value;
    },
    wait: async (step) => {
      actions.push({ kind: "wait", ms: step.ms });
    },
    open: async (step, _at, check) => {
      actions.push({ kind: "open", target: step.target, check });
    },
    insert: async (step) => {
      actions.push({ kind: "insert", text: step.text });
    },
    command: async (step) => {
      actions.push({ kind: "command", command: step.command, args: step.args });
    },
    setting: async (step) => {
      actions.push({ kind: "setting", key: step.key, value: step.value });
    },
  };
  return { port, actions, expanded };
}

const notApplicable = notApplicableTo("runtime-slash");
const notApplicableIds = new Set(notApplicable.map((e) => e.case));
/** The ids of these cases that the list names: they must fail here, or leave the list. */
const listedOf = (cases: readonly ConformanceCase[]): string[] =>
  cases.filter((c) => notApplicableIds.has(c.id)).map((c) => c.id);

// --- expansion ---------------------------------------------------------------------------------------------

interface ExpansionInput {
  source: CommandSource;
  step?: Step;
  steps?: Step[];
  values?: ExpansionContext["values"];
  env?: Record<string, string>;
  config?: Record<string, unknown>;
  clipboard?: string;
  inputs?: Record<string, string>;
  dialect?: QuoteDialect;
}
type ExpansionExpected = { expanded: Step | Step[] } | { error: string };

/** Values no error may show: env, config and clipboard values of the case (short ones could match by chance). */
function secretsOf(input: ExpansionInput): string[] {
  return [
    ...Object.values(input.env ?? {}),
    ...Object.values(input.config ?? {}).map((v) => (typeof v === "string" ? v : JSON.stringify(v))),
    ...(input.clipboard === undefined ? [] : [input.clipboard]),
  ].filter((v) => v.length >= 6);
}

/** One expansion case through the loop: the expanded steps or the error, what was recorded, what leaked. */
async function runExpansion(input: ExpansionInput): Promise<{
  result: ExpansionExpected;
  recording: Recording;
  leaked: string[];
}> {
  const lone = input.steps === undefined;
  const steps = input.steps ?? (input.step === undefined ? [] : [input.step]);
  const lookup = (table: Record<string, unknown> | undefined, key: string): unknown =>
    table !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
  const recording = recordingPort({
    context: (inputs) => ({
      source: input.source,
      values: input.values ?? {},
      env: (name) => lookup(input.env, name) as string | undefined,
      config: (key) => lookup(input.config, key),
      // A lone step sees the case's inputs as bound by earlier steps; in a list only the input steps bind them.
      inputs: lone ? { ...input.inputs, ...inputs } : inputs,
      ...(input.dialect === undefined ? {} : { dialect: input.dialect }),
    }),
    ...(input.clipboard === undefined ? {} : { clipboard: input.clipboard }),
    answers: input.inputs ?? {},
  });
  const command: StepCommand = { definition: { name: "case", steps }, source: input.source };
  try {
    const outcome = await runSlashSteps(command, recording.port, { args: "" });
    if (outcome.status !== "done") return { result: { error: outcome.code }, recording, leaked: [] };
    const expanded = lone ? recording.expanded[0] : recording.expanded;
    return { result: { expanded: expanded as Step }, recording, leaked: [] };
  } catch (error) {
    if (!isSlashiError(error)) throw error;
    const shown = `${error.message}\n${JSON.stringify(error.data)}`;
    const leaked = secretsOf(input).filter((s) => shown.includes(s));
    return { result: { error: error.code }, recording, leaked };
  }
}

/** What the recorded actions must say of the expanded steps: each port method saw the step as expanded. */
function actionsAgree(recording: Recording): string[] {
  const problems: string[] = [];
  const performed = recording.actions.filter((a) => a.kind !== "clipboard-read");
  recording.expanded.forEach((step, i) => {
    const action = performed[i];
    if (action?.kind !== step.type) {
      problems.push(`step ${i + 1} (${step.type}) recorded as ${JSON.stringify(action)}`);
      return;
    }
    if (step.type === "terminal" && (action.line !== step.command || action.cwd !== step.cwd))
      problems.push(`terminal step ${i + 1} handed over as ${JSON.stringify(action)}`);
    if (step.type === "insert" && action.text !== step.text) problems.push(`insert step ${i + 1} differs`);
    if (step.type === "open" && action.target !== step.target) problems.push(`open step ${i + 1} differs`);
  });
  return problems;
}

describe("expansion conformance through the runtime's step loop", () => {
  const cases = loadCases<ExpansionInput, ExpansionExpected>("expansion");
  const failed: string[] = [];

  for (const c of cases) {
    it(`${c.id}: ${c.description}`, async () => {
      const { result, recording, leaked } = await runExpansion(c.input);
      const agree = "expanded" in result ? actionsAgree(recording) : [];
      const same = JSON.stringify(result) === JSON.stringify(c.expected);
      if (!same || leaked.length > 0 || agree.length > 0) failed.push(c.id);
      if (notApplicableIds.has(c.id)) return;
      expect(leaked).toEqual([]);
      expect(result).toEqual(c.expected);
      expect(agree).toEqual([]);
    });
  }

  it("reads the clipboard only for a step that uses it", async () => {
    const used = await runExpansion({
      source: "user",
      steps: [
        { type: "notify", message: "no clipboard here" },
        { type: "insert", text: "${clipboard}" },
      ],
      clipboard: "clip",
    });
    expect(used.recording.actions.map((a) => a.kind)).toEqual(["notify", "clipboard-read", "insert"]);
  });

  it("passes every applicable case, and fails every case listed as not applicable", () => {
    expect(compareWithBaseline(failed, listedOf(cases))).toEqual([]);
  });
});

// --- steps -------------------------------------------------------------------------------------------------

type StepsInput =
  | { op: "render" | "renderCommand" | "makeVisible" }
  | { op: "needsApproval"; step: Step }
  | { op: "checkShared"; step: Step; source: CommandSource }
  | { op: "openTarget"; target: string }
  | { op: "loadTeamFile"; text: string; run?: { name: string; args: string; dialect: QuoteDialect } };

const everything = { name: "the recording host", performs: () => true };
const sameJson = (actual: unknown, expected: unknown): string[] =>
  JSON.stringify(actual) === JSON.stringify(expected)
    ? []
    : [`expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];

/** Whether the approval sequence asks about a team command of this one step nobody approved. */
async function asksFor(step: Step): Promise<boolean> {
  const command: StepCommand = { definition: { name: "case", steps: [step] }, source: "workspace" };
  let asked = false;
  try {
    await approveSlashRun(
      command,
      [command],
      {
        state: () => ({ state: "new" }),
        ask: async () => {
          asked = true;
          return undefined;
        },
        remember: async () => undefined,
      },
      { performer: everything },
    );
  } catch (error) {
    if (!isSlashiError(error)) throw error;
    return true;
  }
  return asked;
}

/** The violations the approval sequence refuses a command of this one step with, relative to the step. */
async function refusedFor(step: Step, source: CommandSource): Promise<{ rule: string; jsonPath: string }[]> {
  const command: StepCommand = { definition: { name: "case", steps: [step] }, source };
  try {
    await approveSlashRun(
      command,
      [command],
      { state: () => ({ state: "new" }), ask: async () => "once", remember: async () => undefined },
      { performer: everything },
    );
    return [];
  } catch (error) {
    if (!isSlashiError(error) || error.code !== "STEP_NOT_ALLOWED") throw error;
    const violations = (error.data.violations ?? []) as { rule: string; jsonPath: string }[];
    return violations.map((v) => ({ rule: v.rule, jsonPath: v.jsonPath.replace(/^\/steps\/0/, "") }));
  }
}

/** A team file's command run through the loop, each expanded step rendered; or the error it fails with. */
async function runTeamFile(input: Extract<StepsInput, { op: "loadTeamFile" }>): Promise<unknown> {
  const run = input.run as NonNullable<typeof input.run>;
  try {
    const team = parseTeamFile(input.text, ".vscode/slashi.json");
    const group = team.commands.map((definition: CommandDefinition, i): StepCommand => ({
      definition,
      source: "workspace",
      where: { document: team.document, jsonPath: `/commands/${i}` },
    }));
    const root = group.find((c) => c.definition.name === run.name);
    if (root === undefined) return { error: { code: "NO_SUCH_COMMAND" } };
    const recording = recordingPort({
      group,
      context: (inputs) => ({
        source: "workspace",
        values: { args: run.args },
        inputs,
        dialect: run.dialect,
      }),
    });
    await runSlashSteps(root, recording.port, { args: run.args });
    return { steps: recording.expanded.map((s) => renderStep(s)) };
  } catch (error) {
    if (!isSlashiError(error)) throw error;
    return { error: { code: error.code, jsonPath: error.data.jsonPath, line: error.data.line } };
  }
}

async function stepsProblems(c: ConformanceCase<StepsInput, unknown>): Promise<string[]> {
  const input = c.input;
  switch (input.op) {
    case "needsApproval":
      return sameJson(await asksFor(input.step), c.expected);
    case "openTarget": {
      const command: StepCommand = {
        definition: { name: "case", steps: [{ type: "open", target: input.target }] },
        source: "user",
      };
      const recording = recordingPort({ context: (inputs) => ({ source: "user", values: {}, inputs }) });
      await runSlashSteps(command, recording.port, { args: "" });
      const { ok, kind, scheme, host } = recording.actions[0]?.check as Record<string, unknown>;
      return sameJson({ ok, kind, scheme, host }, c.expected);
    }
    case "checkShared": {
      const want = c.expected as { rule: string; jsonPath: string }[];
      const got = await refusedFor(input.step, input.source);
      if (want.length === 0) return sameJson(got, want);
      return [
        ...want
          .filter((w) => !got.some((g) => g.rule === w.rule && g.jsonPath === w.jsonPath))
          .map((w) => `missing ${JSON.stringify(w)} in ${JSON.stringify(got)}`),
        ...got
          .filter((g) => !want.some((w) => w.rule === g.rule))
          .map((g) => `unexpected ${JSON.stringify(g)}`),
      ];
    }
    case "loadTeamFile":
      if (input.run === undefined) return ["the case runs no command: only a host's loader can run it"];
      return sameJson(await runTeamFile(input), c.expected);
    default:
      return [`no way to run ${input.op} through the runner: list it as not applicable`];
  }
}

describe("steps conformance through the runtime's approval sequence and step loop", () => {
  const cases = loadCases<StepsInput, unknown>("steps");
  const failed: string[] = [];

  for (const c of cases) {
    it(`${c.id}: ${c.description}`, async () => {
      const problems = await stepsProblems(c);
      if (problems.length > 0) failed.push(c.id);
      if (notApplicableIds.has(c.id)) return;
      expect(problems, c.file).toEqual([]);
    });
  }

  it("passes every applicable case, and fails every case listed as not applicable", () => {
    expect(compareWithBaseline(failed, listedOf(cases))).toEqual([]);
  });
});

describe("the not-applicable list", () => {
  it("names only cases this harness runs", () => {
    const ids = [...loadCases("steps"), ...loadCases("expansion")].map((c) => c.id);
    expect(notApplicableProblems(notApplicable, ids)).toEqual([]);
  });
});
