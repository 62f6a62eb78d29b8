// Runs the shell and policy decision cases of @slashi/conformance through decide().
// Input: { command, shell?, cwd?, workspaceRoot?, home?, workspaceTrusted?, policy? | layers? } (see packages/conformance/README.md).
// Expected: { decision: "allow" | "ask" | "deny" }.
// Files and ids starting with `extraction` belong to the shell-extraction harness and are skipped here.
import { compareWithBaseline, knownFailureProblems, type ConformanceCase } from "@slashi/conformance";
import { coreDecisionFailures, decisionCases } from "@slashi/test-utils";
import { NOTHING_ON_DISK } from "../safety/command.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  decide,
  loadShellParser,
  RECOMMENDED_POLICY,
  RECOMMENDED_PRESET_NAME,
  resolvePolicy,
  validatePolicyDocument,
} from "../../src/index.js";
import type {
  DecideContext,
  Decision,
  PolicyLayer,
  PolicyLayerKind,
  ResolvedPolicy,
  Verdict,
} from "../../src/index.js";

/** One policy layer as a case writes it. */
interface CaseLayer {
  kind: Exclude<PolicyLayerKind, "builtin">;
  source: string;
  approved?: boolean;
  document: unknown;
}

interface DecideInput {
  command: string;
  shell?: string;
  cwd?: string;
  workspaceRoot?: string;
  home?: string;
  /** `false`: the workspace is not trusted. */
  workspaceTrusted?: boolean;
  /** A user policy document: the only layer (plus the presets it extends). */
  policy?: unknown;
  /** Several layers; exactly these (plus the presets they extend), no default preset. */
  layers?: CaseLayer[];
}

interface DecideExpected {
  decision: Verdict;
}

type DecideCase = ConformanceCase<DecideInput, DecideExpected>;

const WORKSPACE_ROOT = "/home/dev/project";
const HOME = "/home/dev";

const cases: DecideCase[] = decisionCases<DecideInput, DecideExpected>();

// Known failures of decide(), each with the reason it is not closed yet; the list may only shrink.
const knownFailures = coreDecisionFailures();
const expectedFailures = knownFailures.map((e) => e.id);
const failed: string[] = [];

/** Builds the resolved policy of a case: its layers, its single user policy, or the recommended preset alone. */
function policyFor(input: DecideInput): ResolvedPolicy {
  if (input.layers !== undefined) {
    const layers: PolicyLayer[] = input.layers.map((l) => ({
      kind: l.kind,
      source: l.source,
      document: validatePolicyDocument(l.document, l.source),
      ...(l.approved === undefined ? {} : { approved: l.approved }),
    }));
    return resolvePolicy(layers, { defaultPreset: null });
  }
  if (input.policy !== undefined) {
    const source = "conformance/user-policy.json";
    return resolvePolicy([{ kind: "user", source, document: validatePolicyDocument(input.policy, source) }]);
  }
  return resolvePolicy([
    { kind: "builtin", source: `preset:${RECOMMENDED_PRESET_NAME}`, document: RECOMMENDED_POLICY },
  ]);
}

/**
 * The context of a case; Slashi's own config folder is `<home>/.config/slashi`, as on a Linux host by default. The
 * disk holds nothing (`NOTHING_ON_DISK`), as where the hosts run the cases.
 */
function contextFor(input: DecideInput): DecideContext {
  const workspaceRoot = input.workspaceRoot ?? WORKSPACE_ROOT;
  const home = input.home ?? HOME;
  return {
    shell: input.shell ?? "bash",
    cwd: input.cwd ?? workspaceRoot,
    workspaceRoot,
    home,
    protectedPaths: [`${home}/.config/slashi`],
    fs: NOTHING_ON_DISK,
    ...(input.workspaceTrusted === undefined ? {} : { workspaceTrusted: input.workspaceTrusted }),
  };
}

/** The decision, or the error that prevented one (an error never matches an expected decision). */
function run(input: DecideInput): { decision?: Verdict; detail: string } {
  try {
    const result: Decision = decide(input.command, policyFor(input), contextFor(input));
    const reasons = result.reasons
      .filter((r) => r.inactive === undefined)
      .map((r) => `${r.severity} ${r.code}${r.command === undefined ? "" : ` [${r.command}]`}`);
    return { decision: result.decision, detail: reasons.join("; ") };
  } catch (error) {
    return { detail: `threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}` };
  }
}

describe("decide conformance (shell and policy cases)", () => {
  beforeAll(async () => {
    await loadShellParser();
  });

  it("has at least 520 cases, 150 of them benign", () => {
    expect(cases.length).toBeGreaterThanOrEqual(520);
    const benign = cases.filter((c) => c.tags?.includes("benign"));
    expect(benign.length).toBeGreaterThanOrEqual(150);
    expect(benign.filter((c) => c.expected.decision !== "allow").map((c) => c.id)).toEqual([]);
  });

  it("lists only ids of this suite as expected failures, each with its reason", () => {
    expect(
      knownFailureProblems(
        knownFailures,
        cases.map((c) => c.id),
      ),
    ).toEqual([]);
  });

  // A case that expects `allow` from an approved workspace or pack layer must owe that `allow` to the layer: the
  // same case with the layer's approval withdrawn must not be allowed, or a host that ignores the layer passes it.
  const approvedAllows = cases.filter(
    (c) => c.expected.decision === "allow" && (c.input.layers ?? []).some((l) => l.approved === true),
  );

  it("has cases whose allow comes only from an approved layer", () => {
    expect(approvedAllows.map((c) => c.id)).toEqual(
      expect.arrayContaining(["policy-layers-workspace-allow-approved", "policy-layers-pack-allow-approved"]),
    );
  });

  for (const c of approvedAllows) {
    it(`${c.id}: is not allowed once its approved layers are ignored`, () => {
      const layers = c.input.layers!.map((l) => (l.approved === true ? { ...l, approved: false } : l));
      const { decision, detail } = run({ ...c.input, layers });
      expect({ decision, detail }).not.toMatchObject({ decision: "allow" });
    });
  }

  // A case with a managed layer must owe its decision to that layer: the same case with the managed layer dropped
  // must decide otherwise, or a host that never reads the managed policy passes it. Dropping a layer that only
  // allows can only tighten, so a case showing that a lower layer's deny beats a managed allow cannot meet this;
  // such a case guards precedence, is listed here with that reason, and the list may only shrink.
  const managedCases = cases.filter((c) => (c.input.layers ?? []).some((l) => l.kind === "managed"));
  const precedenceOnly: Record<string, string> = {
    "policy-layers-managed-allow-user-deny":
      "a user deny over a managed allow: without the managed layer the deny stands alone (policy-layers-managed-allow-rest needs the managed allow)",
  };

  it("has at least 13 managed-layer cases, and lists only managed cases as precedence-only", () => {
    expect(managedCases.length).toBeGreaterThanOrEqual(13);
    expect(Object.keys(precedenceOnly).filter((id) => !managedCases.some((c) => c.id === id))).toEqual([]);
  });

  for (const c of managedCases.filter((m) => precedenceOnly[m.id] === undefined)) {
    it(`${c.id}: decides otherwise once its managed layer is dropped`, () => {
      const layers = c.input.layers!.filter((l) => l.kind !== "managed");
      const { decision, detail } = run({ ...c.input, layers });
      expect({ decision, detail }).not.toMatchObject({ decision: c.expected.decision });
    });
  }

  for (const c of cases) {
    it(`${c.id}: ${c.description}`, () => {
      const { decision, detail } = run(c.input);
      if (decision !== c.expected.decision) failed.push(c.id);
      if (expectedFailures.includes(c.id)) return;
      expect({ decision, detail }).toMatchObject({ decision: c.expected.decision });
    });
  }

  afterAll(() => {
    expect(compareWithBaseline(failed, expectedFailures)).toEqual([]);
  });
});
