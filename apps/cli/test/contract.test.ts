// Runs every decision case of @slashi/conformance (shell and policy areas, extraction cases excepted) through
// the BUILT binary: `slashi check --jsonl`, one process per distinct policy (a case's user policy goes in with
// --policy, its layers with --layers, its home and workspace root through HOME and --workspace-root). The
// decisions are compared with the expected ones. Only the cases decide() itself fails (the core's list) and the cases
// listed under `cli` in @slashi/conformance's not-applicable.json (those this surface cannot express, each with its
// reason) may fail; both lists may only shrink.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { compareWithBaseline, type ConformanceCase } from "@slashi/conformance";
import { decisionBaseline, decisionCases } from "@slashi/test-utils";
import { TrustFileStore, workspaceKeyOf } from "@slashi/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, isolatedEnv, slashi, tempDir } from "./helpers.js";

interface DecideInput {
  command: string;
  shell?: string;
  cwd?: string;
  workspaceRoot?: string;
  home?: string;
  workspaceTrusted?: boolean;
  policy?: unknown;
  layers?: { kind: string; source: string; approved?: boolean; document: unknown }[];
}
type DecideCase = ConformanceCase<DecideInput, { decision: string }>;

const WORKSPACE_ROOT = "/home/dev/project";
const HOME = "/home/dev";

const cases: DecideCase[] = decisionCases<DecideInput, { decision: string }>();

const baseline = decisionBaseline("cli");
const { expectedFailures } = baseline;

/** The answer of the binary for each case id. */
const answers = new Map<string, { decision?: string; detail: string }>();
const failed: string[] = [];
const tmp = tempDir("slashi-contract-");

/** Groups cases that share a policy, home and workspace root: one process each. */
function groups(): Map<string, DecideCase[]> {
  const out = new Map<string, DecideCase[]>();
  for (const c of cases) {
    const i = c.input;
    const key = JSON.stringify([
      i.policy ?? null,
      i.layers ?? null,
      i.home ?? HOME,
      i.workspaceRoot ?? WORKSPACE_ROOT,
    ]);
    const list = out.get(key) ?? [];
    list.push(c);
    out.set(key, list);
  }
  return out;
}

async function runGroup(index: number, list: DecideCase[]): Promise<void> {
  const first = list[0] as DecideCase;
  const workspaceRoot = first.input.workspaceRoot ?? WORKSPACE_ROOT;
  const home = first.input.home ?? HOME;
  const args = ["check", "--jsonl", "--workspace-root", workspaceRoot];
  if (first.input.layers !== undefined) {
    const file = path.join(tmp.dir, `layers-${index}.json`);
    writeFileSync(file, JSON.stringify(first.input.layers));
    args.push("--layers", file);
  } else if (first.input.policy !== undefined) {
    const file = path.join(tmp.dir, `policy-${index}.json`);
    writeFileSync(file, JSON.stringify(first.input.policy, null, 1));
    args.push("--policy", file);
  }
  const input = list
    .map((c) =>
      JSON.stringify({
        command: c.input.command,
        cwd: c.input.cwd ?? workspaceRoot,
        shell: c.input.shell ?? "bash",
      }),
    )
    .join("\n");
  // The real home of the case (paths like ~/.ssh are judged against it); config under it as on Linux.
  const env = isolatedEnv(tmp.dir, { HOME: home, SLASHI_STATE_DIR: path.join(tmp.dir, "state") });
  delete env.SLASHI_CONFIG_DIR;
  const result = await slashi(args, { env, input });
  const lines = String(result.stdout)
    .split("\n")
    .filter((l) => l !== "");
  list.forEach((c, i) => {
    const line = lines[i];
    if (line === undefined) {
      answers.set(c.id, {
        detail: `no answer (exit ${result.exitCode}): ${String(result.stderr).slice(0, 500)}`,
      });
      return;
    }
    const parsed = JSON.parse(line) as {
      command?: string;
      decision?: string;
      reasons?: { code: string; severity: string }[];
      error?: { message: string };
    };
    if (parsed.command !== undefined && parsed.command !== c.input.command) {
      answers.set(c.id, { detail: `answer out of order: ${line}` });
      return;
    }
    answers.set(c.id, {
      ...(parsed.decision !== undefined ? { decision: parsed.decision } : {}),
      detail: parsed.error
        ? `error: ${parsed.error.message}`
        : (parsed.reasons ?? []).map((r) => `${r.severity} ${r.code}`).join("; "),
    });
  });
}

describe("conformance through the built binary (slashi check --jsonl)", () => {
  beforeAll(async () => {
    assertBuilt();
    // The cases assume a trusted workspace (the core harness's default context), unless they say otherwise.
    const trust = new TrustFileStore({ file: path.join(tmp.dir, "state", "trust.json") });
    const untrusted = new Set(
      cases
        .filter((c) => c.input.workspaceTrusted === false)
        .map((c) => c.input.workspaceRoot ?? WORKSPACE_ROOT),
    );
    for (const root of new Set(cases.map((c) => c.input.workspaceRoot ?? WORKSPACE_ROOT))) {
      if (untrusted.has(root)) continue;
      await trust.setTrusted(workspaceKeyOf(root), true);
    }
    const all = [...groups().values()];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < all.length) {
        const index = next++;
        await runGroup(index, all[index] as DecideCase[]);
      }
    };
    await Promise.all([worker(), worker(), worker()]);
  }, 600_000);

  afterAll(() => {
    tmp.remove();
  });

  it("covers the decision cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(500);
    expect(answers.size).toBe(cases.length);
  });

  it("lists only cases of this suite as not applicable, each with its reason, none of the core's", () => {
    expect(baseline.problems(cases.map((c) => c.id))).toEqual([]);
  });

  for (const c of cases) {
    it(`${c.id}: ${c.description}`, () => {
      const answer = answers.get(c.id) ?? { detail: "not run" };
      if (answer.decision !== c.expected.decision) failed.push(c.id);
      if (expectedFailures.includes(c.id)) return;
      expect(answer).toMatchObject({ decision: c.expected.decision });
    });
  }

  it("fails exactly the listed cases (the lists may only shrink)", () => {
    expect(compareWithBaseline(failed, expectedFailures)).toEqual([]);
  });
});
