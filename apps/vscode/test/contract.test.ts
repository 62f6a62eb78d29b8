// Runs the conformance cases of the steps, expansion and fingerprint areas through the extension's own
// command-handler layer (the Runner over a recording host), not through the core directly:
// - expansion: each case becomes a command of its source (user settings, team file, pack) run with the case's
//   editor values, environment, settings, clipboard and shell; the steps the runner expanded (or the code it
//   stopped with) are compared with the expected result;
// - steps: whether the runner asks before a shared step (needsApproval), what the approval modal shows (render,
//   makeVisible), what the runner refuses before any prompt (checkShared), whether it opens a target (openTarget:
//   only `ok` and `kind`, the part the extension acts on);
// - fingerprint: Always Allow of one definition, then a run of another (compare, compareJson); stored approvals,
//   then a run of the root (coverage).
// Ops with no handler surface (pure functions such as canonical, sha256, approval key formats, diffSteps) and the
// `agent` source (which the extension never loads) are not applicable here; the core runs them. Other cases this
// surface cannot express are listed under `vscode` in @slashi/conformance's not-applicable.json, each with the
// reason; the list may only shrink.
import {
  compareWithBaseline,
  loadCases,
  notApplicable as notApplicableTo,
  notApplicableProblems,
  type ConformanceCase,
} from "@slashi/conformance";
import {
  DEFAULT_MAX_SLASH_DEPTH,
  makeApprovalRecord,
  renderStep,
  type CommandDefinition,
  type Step,
} from "@slashi/core";
import { DEFAULT_RENDER_MAX_LENGTH } from "@slashi/core/internal";
import { afterAll, describe, expect, it } from "vitest";
import type { PackCommandInput } from "../src/catalog.js";
import type { RunOutcome } from "../src/runner.js";
import { FOLDER, FOLDER_KEY, harness, teamFile, type Harness } from "./fake-host.js";

type AnyCase = ConformanceCase<Record<string, unknown>, unknown>;

const notApplicable = notApplicableTo("vscode");
const expectedFailures = notApplicable.map((e) => e.case);
const failed: string[] = [];

const SHELLS: Record<string, string> = {
  posix: "/bin/bash",
  fish: "/usr/bin/fish",
  powershell: "/usr/bin/pwsh",
  cmd: "C:\\Windows\\System32\\cmd.exe",
};

/** A harness holding one command from the given source (packs skip the team file schema, like installed packs). */
function withCommand(source: string, def: CommandDefinition, h?: (x: Harness) => void): Harness {
  let out: Harness;
  if (source === "user") out = harness(undefined, { userValue: [def] });
  else if (source === "workspace") out = harness(teamFile([def]));
  else
    out = harness(undefined, {
      packs: [
        { pack: "@acme/pack", version: "1.0.0", integrity: "sha512-x", command: def } as PackCommandInput,
      ],
    });
  h?.(out);
  return out;
}

function sameJson(a: unknown, b: unknown): boolean {
  try {
    expect(a).toEqual(b);
    return true;
  } catch {
    return false;
  }
}

// ---- expansion -------------------------------------------------------------------------------------------------

/** A `${input:x}` or `${q:input:x}` reference. */
const INPUT_REFERENCE = /\$\{(?:q:)?input:([A-Za-z_][\w-]*)\}/g;

/** The plain callee names (without `/`) of a command's slash steps. */
function calleesOf(steps: readonly Step[]): string[] {
  return [
    ...new Set(
      steps.flatMap((s) =>
        s.type === "slash" && !s.command.includes("${") ? [s.command.replace(/^\//, "")] : [],
      ),
    ),
  ];
}

async function expansion(input: Record<string, unknown>): Promise<unknown> {
  const steps = (input.steps ?? [input.step]) as Step[];
  const seen: Step[] = [];
  const values = { ...(input.values as Record<string, string> | undefined) };
  const args = values.args ?? "";
  delete values.args;
  // The case's inputs not bound by an input step of its own were bound by input steps that ran before: the
  // extension binds `${input:x}` only from an input step, so each gets one, answered with the case's value.
  const own = new Set(steps.flatMap((s) => (s.type === "input" ? [s.name] : [])));
  const before: Step[] = Object.keys((input.inputs as Record<string, string> | undefined) ?? {})
    .filter((name) => !own.has(name))
    .map((name) => ({ type: "input", name }));
  const def = { name: "case", steps: [...before, ...steps] };
  // A slash step needs its callee to exist (every host refuses a missing callee before anything runs): each plain
  // callee name gets a command of one harmless step, whose steps are not part of the case.
  const callees = calleesOf(steps).map((name): CommandDefinition => ({
    name,
    steps: [{ type: "wait", ms: 0 }],
  }));
  const defs = [def, ...callees];
  const observe = (e: { name: string }, i: number, s: Step): void => {
    if (e.name === "case" && i >= before.length) seen.push(s);
  };
  const source = input.source as string;
  const h =
    source === "user"
      ? harness(undefined, { userValue: defs }, observe)
      : source === "workspace"
        ? harness(teamFile(defs), {}, observe)
        : harness(
            undefined,
            {
              packs: defs.map(
                (command) =>
                  ({
                    pack: "@acme/pack",
                    version: "1.0.0",
                    integrity: "sha512-x",
                    command,
                  }) as PackCommandInput,
              ),
            },
            observe,
          );
  h.host.values = values;
  h.host.env_ = (input.env as Record<string, string>) ?? {};
  h.host.config_ = (input.config as Record<string, unknown>) ?? {};
  h.host.clipboardText = (input.clipboard as string) ?? "";
  h.host.inputs = (input.inputs as Record<string, string>) ?? {};
  h.host.shell = input.dialect === undefined ? undefined : SHELLS[input.dialect as string];
  const outcome: RunOutcome = await h.runner.run({ name: "case", args });
  if (seen.length === steps.length) return { expanded: input.steps ? seen : seen[0] };
  return outcome.status === "done" ? { expanded: seen } : { error: outcome.code };
}

describe("expansion conformance through the runner", () => {
  const cases = (loadCases("expansion") as AnyCase[]).filter((c) => c.input.source !== "agent");
  it("has cases", () => expect(cases.length).toBeGreaterThan(50));
  for (const c of cases) {
    it(`${c.id}: ${c.description}`, async () => {
      const result = await expansion(c.input);
      if (!sameJson(result, c.expected)) failed.push(c.id);
      if (expectedFailures.includes(c.id)) return;
      expect(result).toEqual(c.expected);
    });
  }
});

// ---- steps -----------------------------------------------------------------------------------------------------

async function steps(input: Record<string, unknown>): Promise<unknown> {
  const step = input.step as Step;
  switch (input.op) {
    case "needsApproval": {
      const h = withCommand("pack", { name: "case", steps: [step] });
      h.host.answer = undefined;
      const outcome = await h.runner.run({ name: "case", args: "" });
      return h.host.approvals.length > 0 || outcome.status === "refused";
    }
    case "render":
    case "makeVisible": {
      // What the approval modal shows for the step. makeVisible: a terminal line (no edges) or a slash step's
      // arguments (the field the modal shows with its edges marked).
      const shown: Step =
        input.op === "render"
          ? step
          : input.edges === true
            ? { type: "slash", command: "callee", args: input.text as string }
            : { type: "terminal", command: input.text as string };
      // Every host refuses a `${input:x}` no input step binds, and a slash step whose callee is missing, before
      // the modal: the command gets those input steps first, and the callee exists.
      const inputs = [...new Set([...JSON.stringify(shown).matchAll(INPUT_REFERENCE)].map((m) => m[1]))];
      const before: Step[] = inputs.map((name) => ({ type: "input", name: name as string }));
      const h = withCommand("pack", { name: "case", steps: [...before, shown] });
      for (const name of calleesOf([shown])) {
        h.input.packs = [
          ...(h.input.packs ?? []),
          {
            pack: "@acme/pack",
            version: "1.0.0",
            integrity: "sha512-x",
            command: { name, steps: [{ type: "wait", ms: 0 }] },
          },
        ] as PackCommandInput[];
      }
      h.host.answer = undefined;
      await h.runner.run({ name: "case", args: "" });
      const number = `${before.length + 1}. `;
      const line = h.host.approvals[0]?.commands[0]?.steps.find((l) => l.startsWith(number));
      if (line === undefined) return undefined;
      const rendered = line.slice(number.length);
      if (input.op === "render") return rendered;
      return input.edges === true
        ? rendered.replace(/^Run \/callee with args /, "")
        : rendered.replace(/^Terminal: /, "");
    }
    case "checkShared": {
      const h = withCommand((input.source as string) === "user" ? "user" : "pack", {
        name: "case",
        steps: [step],
      });
      const outcome = await h.runner.run({ name: "case", args: "" });
      if (outcome.status !== "refused" || !outcome.data?.violations) return [];
      const violations = (outcome.data?.violations ?? []) as { rule: string; jsonPath: string }[];
      return violations.map((v) => ({ rule: v.rule, jsonPath: v.jsonPath.replace(/^\/steps\/0/, "") }));
    }
    case "openTarget": {
      const h = withCommand("pack", {
        name: "case",
        steps: [{ type: "open", target: input.target as string }],
      });
      const outcome = await h.runner.run({ name: "case", args: "" });
      const effect = h.host.effects[0];
      if (outcome.status === "refused") return { ok: false };
      return { ok: true, kind: effect?.kind === "openExternal" ? "url" : "file" };
    }
    case "loadTeamFile":
      return loadTeamFile(input);
    default:
      return { notApplicable: input.op };
  }
}

/**
 * loadTeamFile: the team file text goes through the catalog (the extension's loader); a file it refuses gives the
 * problem's code and position. With `run`, the command runs with the case's arguments (a workspace-settings command
 * `/test` stands in for any callee) and each of its own steps is rendered as the runner expanded it.
 */
async function loadTeamFile(input: Record<string, unknown>): Promise<unknown> {
  const run = input.run as { name: string; args: string; dialect: string } | undefined;
  const ran: Step[] = [];
  const h = harness(
    input.text as string,
    {
      workspaceValue: [{ name: "test", steps: [{ type: "notify", message: "tested" }] }],
      workspaceSettings: { label: "settings.json", key: FOLDER_KEY, folder: FOLDER },
    },
    (entry, _index, step) => {
      if (entry.name === run?.name) ran.push(step);
    },
  );
  const { entries, problems } = h.catalog();
  const problem = problems[0]?.error;
  if (problem)
    return { error: { code: problem.code, jsonPath: problem.data.jsonPath, line: problem.data.line } };
  if (run === undefined) {
    return {
      steps: entries
        .filter((e) => e.name !== "test")
        .flatMap((e) => e.definition.steps.map((s) => renderStep(s))),
    };
  }
  h.host.shell = SHELLS[run.dialect] ?? "/bin/bash";
  await h.runner.run({ name: run.name, args: run.args });
  return { steps: ran.map((s) => renderStep(s)) };
}

describe("steps conformance through the runner", () => {
  const cases = loadCases("steps") as AnyCase[];
  it("has cases", () => expect(cases.length).toBeGreaterThan(50));
  for (const c of cases) {
    it(`${c.id}: ${c.description}`, async () => {
      const result = await steps(c.input);
      // openTarget: the extension acts on ok and kind; scheme and host are the core's report.
      const expected =
        c.input.op === "openTarget"
          ? (c.expected as { ok: boolean; kind: string }).ok
            ? { ok: true, kind: (c.expected as { kind: string }).kind }
            : { ok: false }
          : c.input.op === "checkShared"
            ? (c.expected as { rule: string; jsonPath: string }[]).map((v) => ({
                rule: v.rule,
                jsonPath: v.jsonPath,
              }))
            : c.expected;
      // checkShared: like the core's harness, every expected violation must be reported (more may be).
      const actual =
        c.input.op === "checkShared" && Array.isArray(result) && Array.isArray(expected)
          ? (expected as unknown[]).every((e) => result.some((r) => sameJson(r, e))) &&
            (expected.length === 0) === (result.length === 0)
            ? expected
            : result
          : result;
      if (!sameJson(actual, expected)) failed.push(c.id);
      if (expectedFailures.includes(c.id)) return;
      expect(actual).toEqual(expected);
    });
  }
});

// ---- fingerprint -----------------------------------------------------------------------------------------------

const FINGERPRINT_OPS = new Set(["compare", "compareJson", "coverage"]);

async function fingerprint(input: Record<string, unknown>): Promise<unknown> {
  if (input.op === "compare" || input.op === "compareJson") {
    const parse = (v: unknown): CommandDefinition =>
      (input.op === "compareJson" ? JSON.parse(v as string) : v) as CommandDefinition;
    // Both get the same extra terminal step, so even a command of harmless steps asks before its first run.
    const probe: Step = { type: "terminal", command: "true" };
    const withProbe = (d: CommandDefinition): CommandDefinition => ({
      ...d,
      steps: [...(d.steps ?? []), probe],
    });
    const a = withProbe(parse(input.a));
    const b = withProbe(parse(input.b));
    const h = harness(teamFile([a]));
    h.host.answer = "always";
    await h.runner.run({ name: a.name, args: "" });
    const asked = h.host.approvals.length;
    h.input.folders = [
      {
        path: FOLDER,
        key: FOLDER_KEY,
        teamFile: { path: `${FOLDER}/.vscode/slashi.json`, text: teamFile([b]) },
      },
    ];
    h.host.answer = undefined;
    await h.runner.run({ name: b.name, args: "" });
    return h.host.approvals.length === asked ? "same" : "different";
  }
  const commands = input.commands as CommandDefinition[];
  const h = harness(undefined, {
    packs: commands.map((command) => ({
      pack: "@acme/pack",
      version: "1.0.0",
      integrity: "sha512-x",
      command,
    })),
  });
  for (const def of input.approved as CommandDefinition[]) {
    const record = makeApprovalRecord(
      def,
      {
        source: "pack",
        name: def.name,
        packId: "@acme/pack",
        packVersion: "1.0.0",
        packIntegrity: "sha512-x",
      },
      { now: () => 0 },
    );
    await h.approvalStore.put(record);
  }
  h.host.answer = undefined;
  const outcome = await h.runner.run({ name: input.root as string, args: "" });
  const prompt = h.host.approvals[0];
  const uncovered =
    prompt?.uncovered ??
    (outcome.status === "refused"
      ? (outcome.data?.uncovered as { name: string; reason: string }[] | undefined)
      : undefined) ??
    [];
  return {
    covered: prompt === undefined && outcome.status !== "refused",
    // The cases model approvals as a set of fingerprints, where a command approved in another form is "new"; the
    // extension also knows the earlier approval of that command and says "changed".
    uncovered: uncovered.map((u) => ({ name: u.name, reason: u.reason === "changed" ? "new" : u.reason })),
  };
}

describe("fingerprint conformance through the runner", () => {
  const cases = (loadCases("fingerprint") as AnyCase[]).filter((c) =>
    FINGERPRINT_OPS.has(c.input.op as string),
  );
  it("has cases", () => expect(cases.length).toBeGreaterThan(20));
  for (const c of cases) {
    it(`${c.id}: ${c.description}`, async () => {
      const result = await fingerprint(c.input);
      const expected =
        c.input.op === "coverage"
          ? {
              covered: (c.expected as { covered: boolean }).covered,
              uncovered: (c.expected as { uncovered: { name: string; reason: string }[] }).uncovered.map(
                (u) => ({
                  name: u.name,
                  reason: u.reason,
                }),
              ),
            }
          : c.expected;
      if (!sameJson(result, expected)) failed.push(c.id);
      if (expectedFailures.includes(c.id)) return;
      expect(result).toEqual(expected);
    });
  }
});

// ---- what the not-applicable cases stand for on this surface ------------------------------------------------

describe("the surface behind the not-applicable cases", () => {
  it("cuts a step longer than the core's default limit in the modal, with the marker", async () => {
    const step: Step = { type: "terminal", command: `echo ${"a".repeat(DEFAULT_RENDER_MAX_LENGTH * 2)}` };
    const h = withCommand("pack", { name: "case", steps: [step] });
    h.host.answer = undefined;
    await h.runner.run({ name: "case", args: "" });
    const line = h.host.approvals[0]?.commands[0]?.steps[0];
    expect(line).toBe(`1. ${renderStep(step)}`);
    expect(line).toMatch(/⟨… \+\d+ more characters, sha256:[0-9a-f]{64}⟩$/);
  });

  it("refuses a chain of slash calls deeper than the core's default before any prompt", async () => {
    const depth = DEFAULT_MAX_SLASH_DEPTH + 1;
    const commands = Array.from({ length: depth + 1 }, (_, i) => ({
      pack: "@acme/pack",
      version: "1.0.0",
      integrity: "sha512-x",
      command: {
        name: `c${i}`,
        steps: [
          { type: "terminal", command: `echo c${i}` },
          ...(i < depth ? [{ type: "slash", command: `c${i + 1}` }] : []),
        ],
      },
    })) as PackCommandInput[];
    const h = harness(undefined, { packs: commands });
    const outcome = await h.runner.run({ name: "c0", args: "" });
    expect(outcome).toMatchObject({ status: "refused", code: "SLASH_CALL_INVALID" });
    expect(h.host.approvals).toEqual([]);
    expect(h.host.effects).toEqual([]);
  });
});

describe("not-applicable cases", () => {
  afterAll(() => {
    expect(compareWithBaseline(failed, expectedFailures)).toEqual([]);
  });
  it("lists only cases of this suite as not applicable", () => {
    const ids = [...loadCases("expansion"), ...loadCases("steps"), ...loadCases("fingerprint")].map(
      (c) => c.id,
    );
    expect(notApplicableProblems(notApplicable, ids)).toEqual([]);
  });
});
