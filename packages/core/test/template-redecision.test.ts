// Template re-decision against real bash: a terminal step with an unquoted `${args}`, approved as a template, is
// expanded with generated argument strings and run under bash in a temporary workspace. When bash ran something the
// template does not (a marker file appeared) and the policy's answer for the line is `ask`, an approval of the
// template must not answer it: `findingsBeyondTemplate` is not empty. A counter makes sure enough lines really
// created the marker, and plain-word arguments are checked to stay covered (an approval is still useful).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { requireTool, scratchDir } from "@slashi/test-utils";
import {
  decide,
  expandStep,
  loadShellParser,
  type ExpansionContext,
  type TerminalStep,
} from "../src/index.js";
import { recommendedPolicy, trustedContext } from "./decide-setup.js";
import { findingsBeyondTemplate, templateLine } from "../src/internal.js";

const BASH = requireTool("bash", "template re-decision against bash");
const base = scratchDir("slashi-template-");
const workspace = join(base, "project");
const MARKER = "injected-marker";

const policy = recommendedPolicy();
const context = trustedContext({ workspace, home: base, shell: "bash" });

/** Team-command steps that pass the arguments on unquoted. */
const TEMPLATES: readonly string[] = [
  "echo ${args}",
  "ls ${args}",
  "touch out-${args}",
  "git status ${args}",
  "rm -f build-${args}",
];

/** Ways arguments make bash run more than the template: separators, substitutions, redirections. */
const INJECTIONS: readonly ((payload: string) => string)[] = [
  (p) => `a; ${p}`,
  (p) => `a && ${p}`,
  (p) => `a || ${p}`,
  (p) => `a | ${p}`,
  (p) => `a & ${p}`,
  (p) => `a\n${p}`,
  (p) => `$(${p})`,
  (p) => `\`${p}\``,
  (p) => `a;${p};b`,
];

/** Commands that create the marker. */
const PAYLOADS: readonly string[] = [
  `touch ${MARKER}`,
  `cp /dev/null ${MARKER}`,
  `mkdir ${MARKER}`,
  `sh -c 'touch ${MARKER}'`,
  `>${MARKER}`,
  `tee ${MARKER} </dev/null`,
  `bash -c "touch ${MARKER}"`,
];

/** Where the text from outside the approved command comes from: the reference a step uses, and the context. */
interface Outside {
  reference: string;
  context: (text: string) => ExpansionContext;
}

const OUTSIDE: readonly Outside[] = [
  {
    reference: "${args}",
    context: (args) => ({ source: "workspace", values: { args, workspaceFolder: workspace } }),
  },
  {
    reference: "${selection}",
    context: (selection) => ({ source: "workspace", values: { selection, workspaceFolder: workspace } }),
  },
  {
    reference: "${relativeFile}",
    context: (relativeFile) => ({
      source: "workspace",
      values: { relativeFile, workspaceFolder: workspace },
    }),
  },
  {
    reference: "${input:name}",
    context: (name) => ({ source: "workspace", values: { workspaceFolder: workspace }, inputs: { name } }),
  },
  // ${env:…}, ${config:…} and ${clipboard} expand in terminal steps of the person's own commands only.
  {
    reference: "${env:NAME}",
    context: (text) => ({ source: "user", values: { workspaceFolder: workspace }, env: () => text }),
  },
  {
    reference: "${config:a.b}",
    context: (text) => ({ source: "user", values: { workspaceFolder: workspace }, config: () => text }),
  },
  {
    reference: "${clipboard}",
    context: (clipboard) => ({ source: "user", values: { workspaceFolder: workspace }, clipboard }),
  },
];

/** Runs a line under bash in the workspace; true when the marker appeared. */
function createsMarker(line: string): boolean {
  rmSync(join(workspace, MARKER), { recursive: true, force: true });
  spawnSync(BASH as string, ["--norc", "--noprofile", "-c", line], {
    cwd: workspace,
    env: { PATH: "/usr/bin:/bin", HOME: base, LC_ALL: "C" },
    timeout: 5000,
    input: "",
  });
  return existsSync(join(workspace, MARKER));
}

function covered(
  template: string,
  args: string,
  outside: Outside = OUTSIDE[0] as Outside,
): { line: string; verdict: string; beyond: number } {
  const step: TerminalStep = { type: "terminal", command: template.replace("${args}", outside.reference) };
  // The step as it runs, and as it was approved.
  const line = expandStep(step, outside.context(args)).command;
  const decision = decide(line, policy, context);
  const approved = decide(templateLine(step, outside.context(args)) as string, policy, context);
  return { line, verdict: decision.decision, beyond: findingsBeyondTemplate(decision, approved).length };
}

beforeAll(async () => {
  await loadShellParser();
  mkdirSync(join(workspace, ".git"), { recursive: true });
});

describe.skipIf(!BASH)("an approval of a template does not answer what the arguments add", () => {
  it("asks again for every generated argument string that makes bash run more than the template", () => {
    let reached = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...TEMPLATES),
        fc.constantFrom(...INJECTIONS),
        fc.constantFrom(...PAYLOADS),
        (template, inject, payload) => {
          const args = inject(payload);
          const { line, verdict, beyond } = covered(template, args);
          if (!createsMarker(line)) return;
          reached++;
          // `allow` and `deny` are the policy's own answer; only an `ask` can be answered by an approval.
          if (verdict === "ask") expect(beyond, line).toBeGreaterThan(0);
          expect(verdict, line).not.toBe("allow");
        },
      ),
      { numRuns: 60 },
    );
    expect(reached).toBeGreaterThan(25);
  }, 240_000);

  it("treats every value from outside the approved text as the arguments: input, editor, env, config, clipboard", () => {
    let reached = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...OUTSIDE.slice(1)),
        fc.constantFrom(...TEMPLATES),
        fc.constantFrom(...INJECTIONS),
        fc.constantFrom(...PAYLOADS),
        (outside, template, inject, payload) => {
          const text = inject(payload);
          const { line, verdict, beyond } = covered(template, text, outside);
          if (!createsMarker(line)) return;
          reached++;
          if (verdict === "ask") expect(beyond, `${outside.reference}: ${line}`).toBeGreaterThan(0);
          expect(verdict, line).not.toBe("allow");
        },
      ),
      { numRuns: 60 },
    );
    expect(reached).toBeGreaterThan(25);
  }, 240_000);

  it("keeps an approval useful: plain words in place of the arguments are covered", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TEMPLATES),
        fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,11}$/),
        (template, word) => {
          const { verdict, beyond } = covered(template, word);
          if (verdict === "ask") expect(beyond).toBe(0);
        },
      ),
      { numRuns: 100 },
    );
  });
});
