// Runs every conformance case of the `steps` area through the core's step, rendering and source API.
//
// Inputs (by `op`) and expected results:
//   { op: "render", step, maxLength? }      -> string        renderStep()
//   { op: "renderCommand", command }        -> string        renderCommand()
//   { op: "makeVisible", text, edges? }     -> string        makeVisible()
//   { op: "needsApproval", step }           -> boolean       stepNeedsApproval()
//   { op: "checkShared", step, source }     -> [{ rule, jsonPath }]   checkSharedStep()
//   { op: "openTarget", target }            -> { ok, kind, scheme, host }   checkOpenTarget()
//   { op: "loadTeamFile", text, run? }      -> { steps } | { error: { code, jsonPath, line } }
//        parseTeamFile(); with `run` ({ name, args, dialect }) the named command is expanded with those
//        arguments (source workspace) and each step rendered; without it every command's steps are rendered.
// For `checkShared`, `[]` means the step is allowed; otherwise every listed violation must be reported and every
// reported violation must have one of the listed rules (a nested write may add further paths of the same rule).
import { readFileSync } from "node:fs";
import type { ConformanceCase } from "@slashi/conformance";
import { compareWithBaseline, loadCases } from "@slashi/conformance";
import { describe, expect, it } from "vitest";
import type { CommandDefinition, CommandSource, Step } from "../../src/index.js";
import type { QuoteDialect } from "../../src/index.js";
import {
  checkOpenTarget,
  checkSharedStep,
  expandCommand,
  isSlashiError,
  makeVisible,
  parseTeamFile,
  renderCommand,
  renderStep,
  stepNeedsApproval,
} from "../../src/index.js";

type Input =
  | { op: "render"; step: Step; maxLength?: number }
  | { op: "renderCommand"; command: CommandDefinition }
  | { op: "makeVisible"; text: string; edges?: boolean }
  | { op: "needsApproval"; step: Step }
  | { op: "checkShared"; step: Step; source: CommandSource }
  | { op: "openTarget"; target: string }
  | { op: "loadTeamFile"; text: string; run?: { name: string; args: string; dialect: QuoteDialect } };

/** The steps a team file's text loads to (expanded and rendered), or the error it fails with. */
function loadTeamFile(input: Extract<Input, { op: "loadTeamFile" }>): unknown {
  try {
    const team = parseTeamFile(input.text, ".vscode/slashi.json");
    const { run } = input;
    if (run === undefined) return { steps: team.commands.flatMap((c) => c.steps.map((s) => renderStep(s))) };
    const index = team.commands.findIndex((c) => c.name === run.name);
    const def = team.commands[index];
    if (def === undefined) return { error: { code: "NO_SUCH_COMMAND" } };
    const expanded = expandCommand(
      def,
      { source: "workspace", values: { args: run.args }, dialect: run.dialect },
      { document: team.document, jsonPath: `/commands/${index}` },
    );
    return { steps: expanded.steps.map((s) => renderStep(s)) };
  } catch (error) {
    if (!isSlashiError(error)) throw error;
    return { error: { code: error.code, jsonPath: error.data.jsonPath, line: error.data.line } };
  }
}

const cases = loadCases<Input, unknown>("steps");
const expectedFailures: string[] = JSON.parse(
  readFileSync(new URL("./steps.expected-failures.json", import.meta.url), "utf8"),
);

/** The problems with one case; empty when it passes. */
function problemsOf(c: ConformanceCase<Input, unknown>): string[] {
  const input = c.input;
  const differ = (actual: unknown): string[] =>
    JSON.stringify(actual) === JSON.stringify(c.expected)
      ? []
      : [`expected ${JSON.stringify(c.expected)}, got ${JSON.stringify(actual)}`];
  switch (input.op) {
    case "render":
      return differ(
        renderStep(input.step, input.maxLength === undefined ? {} : { maxLength: input.maxLength }),
      );
    case "renderCommand":
      return differ(renderCommand(input.command));
    case "makeVisible":
      return differ(makeVisible(input.text, { edges: input.edges === true }));
    case "needsApproval":
      return differ(stepNeedsApproval(input.step));
    case "loadTeamFile":
      return differ(loadTeamFile(input));
    case "openTarget": {
      const { ok, kind, scheme, host } = checkOpenTarget(input.target);
      return differ({ ok, kind, scheme, host });
    }
    case "checkShared": {
      const want = c.expected as { rule: string; jsonPath: string }[];
      const got = checkSharedStep(input.step, input.source).map((v) => ({
        rule: v.rule,
        jsonPath: v.jsonPath,
      }));
      if (want.length === 0) return differ(got);
      const problems: string[] = [];
      for (const w of want) {
        if (!got.some((g) => g.rule === w.rule && g.jsonPath === w.jsonPath)) {
          problems.push(`missing ${JSON.stringify(w)} in ${JSON.stringify(got)}`);
        }
      }
      for (const g of got) {
        if (!want.some((w) => w.rule === g.rule)) problems.push(`unexpected ${JSON.stringify(g)}`);
      }
      return problems;
    }
    default:
      return [`unknown steps case input: ${JSON.stringify(input)}`];
  }
}

describe("steps conformance", () => {
  const failed: string[] = [];

  it("has cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(100);
  });

  for (const c of cases) {
    it(`${c.id}: ${c.description}`, () => {
      const problems = problemsOf(c);
      if (problems.length > 0) {
        failed.push(c.id);
        if (!expectedFailures.includes(c.id)) expect(problems, c.file).toEqual([]);
      }
    });
  }

  it("matches the expected-failures baseline", () => {
    expect(compareWithBaseline(failed, expectedFailures)).toEqual([]);
  });
});
