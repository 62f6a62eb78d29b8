// Runs the shell and policy decision cases of @slashi/conformance through the BUILT server's check_command, over
// stdio with the SDK's client: the same cases core's decide() harness runs, through the real MCP surface.
//
// Each distinct (home, workspace root, shell) gets its own server: HOME is the case's home, the workspace root is
// given with --workspace and marked trusted in a temp state dir (core's harness decides for a trusted workspace).
// Each case's policy is written as the user policy in the server's temp config dir (replaced by rename, removed
// for cases without one) before its cases run: the server re-reads a changed policy file on the next call.
//
// Cases with several layers (`input.layers`) are not run: a managed layer cannot be installed by a test (its
// path is fixed and must be root-owned), so they are listed in contract.expected-failures.json until the server
// can be given layers. Cases the core's own harness lists as failing are expected to fail here too.
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compareWithBaseline, type ConformanceCase } from "@slashi/conformance";
import { decisionCases } from "@slashi/test-utils";
import { TrustFileStore } from "@slashi/runtime";
import { afterAll, describe, expect, it } from "vitest";
import { connect, structured, type Connected, type Sandbox } from "./helpers.js";

interface DecideInput {
  command: string;
  shell?: string;
  cwd?: string;
  workspaceRoot?: string;
  home?: string;
  workspaceTrusted?: boolean;
  policy?: unknown;
  layers?: unknown[];
}
type DecideCase = ConformanceCase<DecideInput, { decision: string }>;

const WORKSPACE_ROOT = "/home/dev/project";
const HOME = "/home/dev";

const cases: DecideCase[] = decisionCases<DecideInput, { decision: string }>();

// This adapter's own known failures (may only shrink), plus the core's: a case decide() itself gets wrong fails
// here too, and is tracked (and removed when fixed) in the core's list, not in this one.
const ownExpectedFailures = JSON.parse(
  readFileSync(new URL("./contract.expected-failures.json", import.meta.url), "utf8"),
) as string[];
const coreExpectedFailures = JSON.parse(
  readFileSync(
    new URL("../../../packages/core/test/conformance/decide.expected-failures.json", import.meta.url),
    "utf8",
  ),
) as string[];
const expectedFailures = [...new Set([...ownExpectedFailures, ...coreExpectedFailures])];

interface Group {
  key: string;
  home: string;
  workspaceRoot: string;
  shell: string;
  cases: DecideCase[];
}

const layered = cases.filter((c) => c.input.layers !== undefined);
const groups = new Map<string, Group>();
for (const c of cases) {
  if (c.input.layers !== undefined) continue;
  const home = c.input.home ?? HOME;
  const workspaceRoot = c.input.workspaceRoot ?? WORKSPACE_ROOT;
  const shell = c.input.shell ?? "bash";
  const key = JSON.stringify([home, workspaceRoot, shell]);
  let group = groups.get(key);
  if (group === undefined) {
    group = { key, home, workspaceRoot, shell, cases: [] };
    groups.set(key, group);
  }
  group.cases.push(c);
}

const results = new Map<string, { decision?: string; detail: string }>();

async function runGroup(group: Group): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "slashi-contract-"));
  const configDir = join(root, "config");
  const stateDir = join(root, "state");
  mkdirSync(configDir);
  mkdirSync(stateDir);
  if (group.cases.every((c) => c.input.workspaceTrusted !== false))
    await new TrustFileStore({ file: join(stateDir, "trust.json") }).setTrusted(group.workspaceRoot, true);
  const sandbox: Sandbox = {
    root,
    home: group.home,
    configDir,
    stateDir,
    workspace: group.workspaceRoot,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: group.home,
      SLASHI_CONFIG_DIR: configDir,
      SLASHI_STATE_DIR: stateDir,
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
  let connected: Connected | undefined;
  try {
    connected = await connect(sandbox, { cwd: root, args: ["--shell", group.shell] });
    const policyFile = join(configDir, "policy.json");
    let current: string | undefined;
    const byPolicy = [...group.cases].sort((a, b) =>
      JSON.stringify(a.input.policy ?? null).localeCompare(JSON.stringify(b.input.policy ?? null)),
    );
    for (const c of byPolicy) {
      const wanted = c.input.policy === undefined ? undefined : JSON.stringify(c.input.policy);
      if (wanted !== current) {
        if (wanted === undefined) rmSync(policyFile, { force: true });
        else {
          writeFileSync(`${policyFile}.tmp`, wanted);
          renameSync(`${policyFile}.tmp`, policyFile);
        }
        current = wanted;
      }
      try {
        const result = await connected.client.callTool({
          name: "check_command",
          arguments: { command: c.input.command, cwd: c.input.cwd ?? group.workspaceRoot },
        });
        const content = structured(result);
        const reasons = (content.reasons as { severity: string; code: string }[] | undefined) ?? [];
        results.set(c.id, {
          ...(typeof content.decision === "string" ? { decision: content.decision } : {}),
          detail:
            result.isError === true
              ? JSON.stringify(result.content)
              : reasons.map((r) => `${r.severity} ${r.code}`).join("; "),
        });
      } catch (error) {
        results.set(c.id, { detail: `threw ${(error as Error).message}` });
      }
    }
  } catch (error) {
    for (const c of group.cases) results.set(c.id, { detail: `server failed: ${(error as Error).message}` });
  } finally {
    await connected?.close();
    sandbox.cleanup();
  }
}

describe("check_command conformance (shell and policy cases over stdio)", () => {
  const failed: string[] = layered.map((c) => c.id);

  it("runs every case through the built server", { timeout: 600_000 }, async () => {
    const queue = [...groups.values()];
    const workers = Array.from({ length: 3 }, async () => {
      for (let g = queue.shift(); g !== undefined; g = queue.shift()) await runGroup(g);
    });
    await Promise.all(workers);
    expect(results.size).toBe(cases.length - layered.length);
  });

  it("has the suite's cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(520);
  });

  it("lists only ids of this suite as expected failures, none already in the core's list", () => {
    const ids = new Set(cases.map((c) => c.id));
    expect(ownExpectedFailures.filter((id) => !ids.has(id))).toEqual([]);
    expect(ownExpectedFailures.filter((id) => coreExpectedFailures.includes(id))).toEqual([]);
  });

  it("matches every expected decision except the listed failures", () => {
    const unexpected: string[] = [];
    for (const c of cases) {
      if (c.input.layers !== undefined) continue;
      const got = results.get(c.id);
      if (got?.decision !== c.expected.decision) {
        failed.push(c.id);
        if (!expectedFailures.includes(c.id)) {
          unexpected.push(
            `${c.id}: expected ${c.expected.decision}, got ${got?.decision ?? "none"} (${got?.detail ?? ""})`,
          );
        }
      }
    }
    expect(unexpected).toEqual([]);
  });

  afterAll(() => {
    expect(compareWithBaseline(failed, expectedFailures)).toEqual([]);
  });
});
