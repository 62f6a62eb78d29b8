// Runs the shell and policy decision cases of @slashi/conformance through the BUILT server's check_command, over
// stdio with the SDK's client: the same cases core's decide() harness runs, through the real MCP surface.
//
// Each distinct (home, workspace root, shell) gets its own server: HOME is the case's home, the workspace root is
// given with --workspace and marked trusted in a temp state dir (core's harness decides for a trusted workspace).
// Each case's policy is written as the user policy in the server's temp config dir (replaced by rename, removed
// for cases without one) before its cases run: the server re-reads a changed policy file on the next call.
//
// Cases with several layers (`input.layers`) are written where the server reads each layer, one server for all of
// them: the user layer as the user policy (its `extends` as the case writes it, so a pack nobody extends is
// installed, perhaps approved, and never read), the workspace layer as a real workspace's
// `.vscode/slashi-policy.json` (approved, when the case says so, by the record `slashi trust` writes), a pack layer
// as an installed pack (approved by the record `slashi pack approve` writes). A managed layer's path is fixed
// (`/etc/slashi/policy.json`) and must be root-owned, so the cases with one run through a second server started
// under bubblewrap, with a folder of the test bound read-only at `/etc/slashi` (see `underBubblewrap`).
// Cases the core's own harness lists as failing fail here too.
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compareWithBaseline, type ConformanceCase } from "@slashi/conformance";
import { decisionBaseline, decisionCases, skipUnlessCi, tempDir, tempHome } from "@slashi/test-utils";
import { createHash } from "node:crypto";
import {
  CommandApprovalFileStore,
  packPolicyApprovalKey,
  textDigest,
  TrustFileStore,
  workspaceKeyOf,
  workspacePolicyApprovalKey,
} from "@slashi/runtime";
import { packPolicyFingerprint } from "@slashi/registry-client";
import { afterAll, describe, expect, it } from "vitest";
import {
  bubblewrapWorks,
  connect,
  serverEnv,
  structured,
  underBubblewrap,
  type Connected,
  type Sandbox,
} from "./helpers.js";

interface DecideInput {
  command: string;
  shell?: string;
  cwd?: string;
  workspaceRoot?: string;
  home?: string;
  workspaceTrusted?: boolean;
  policy?: unknown;
  layers?: CaseLayer[];
}

/** One policy layer as a case writes it. */
interface CaseLayer {
  kind: "managed" | "user" | "workspace" | "pack";
  source: string;
  approved?: boolean;
  document: { extends?: string[] } & Record<string, unknown>;
}
type DecideCase = ConformanceCase<DecideInput, { decision: string }>;

const WORKSPACE_ROOT = "/home/dev/project";
const HOME = "/home/dev";

const cases: DecideCase[] = decisionCases<DecideInput, { decision: string }>();

// The cases this surface cannot express (under `mcp` in @slashi/conformance's not-applicable.json, each with its
// reason; may only shrink), plus the core's known failures: a
// case decide() itself gets wrong fails here too, and is tracked (and removed when fixed) in the core's list.
const baseline = decisionBaseline("mcp");
const { expectedFailures } = baseline;

interface Group {
  key: string;
  home: string;
  workspaceRoot: string;
  shell: string;
  cases: DecideCase[];
}

const layered = cases.filter((c) => c.input.layers !== undefined);
const hasManaged = (c: DecideCase): boolean => c.input.layers?.some((l) => l.kind === "managed") === true;
/** Layered cases without a managed layer: one server reads their layers from files. */
const layeredFiles = layered.filter((c) => !hasManaged(c));
/** Layered cases with a managed layer: a server under bubblewrap reads it at the fixed path. */
const layeredManaged = layered.filter(hasManaged);
const bubblewrap =
  process.platform === "linux" ? bubblewrapWorks() : { ok: false, reason: "bubblewrap needs Linux" };
/** The cases not run here: the managed ones when bubblewrap cannot start (outside CI only). */
const skipped = skipUnlessCi(bubblewrap.ok ? undefined : bubblewrap.reason, "the managed-layer cases")
  ? layeredManaged
  : [];
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

const results = new Map<string, Result>();

type Result = { decision?: string; detail: string };

/** The server's check_command answer for one line: its decision, and its reasons (or error) as detail. */
async function check(connected: Connected, command: string, cwd: string): Promise<Result> {
  try {
    const result = await connected.client.callTool({ name: "check_command", arguments: { command, cwd } });
    const content = structured(result);
    const reasons = (content.reasons as { severity: string; code: string }[] | undefined) ?? [];
    return {
      ...(typeof content.decision === "string" ? { decision: content.decision } : {}),
      detail:
        result.isError === true
          ? JSON.stringify(result.content)
          : reasons.map((r) => `${r.severity} ${r.code}`).join("; "),
    };
  } catch (error) {
    return { detail: `threw ${(error as Error).message}` };
  }
}

async function runGroup(group: Group): Promise<void> {
  const scratch = tempDir("slashi-contract-");
  const root = scratch.dir;
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
    cleanup: scratch.remove,
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
      results.set(c.id, await check(connected, c.input.command, c.input.cwd ?? group.workspaceRoot));
    }
  } catch (error) {
    for (const c of group.cases) results.set(c.id, { detail: `server failed: ${(error as Error).message}` });
  } finally {
    await connected?.close();
    sandbox.cleanup();
  }
}

/** Writes a file by rename, so the server never reads half of it and sees a new inode. */
function replaceFile(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

/** A pack layer's name and version from its source (`@acme/pack@1.2.0`, or a bare name at 1.0.0). */
function packOf(source: string): { name: string; version: string } {
  const at = source.lastIndexOf("@");
  return at > 0
    ? { name: source.slice(0, at), version: source.slice(at + 1) }
    : { name: source, version: "1.0.0" };
}

/**
 * Writes a case's layers where the server reads them: the managed policy (when the server runs with
 * `managedDir` as `/etc/slashi`), the user policy as the case writes it, the workspace policy and its
 * approval, the installed packs (lockfile last) and their approvals.
 */
async function writeLayers(box: Sandbox, layers: readonly CaseLayer[], managedDir?: string): Promise<void> {
  const managed = layers.find((l) => l.kind === "managed");
  if (managed !== undefined && managedDir === undefined) throw new Error("a managed layer needs bubblewrap");
  if (managedDir !== undefined) {
    const managedFile = join(managedDir, "policy.json");
    if (managed === undefined) rmSync(managedFile, { force: true });
    else {
      writeFileSync(`${managedFile}.tmp`, JSON.stringify(managed.document), { mode: 0o644 });
      renameSync(`${managedFile}.tmp`, managedFile);
    }
  }
  const approvals = new CommandApprovalFileStore({ file: join(box.stateDir, "command-approvals.json") });
  await approvals.reset();
  const packs = layers.filter((l) => l.kind === "pack").map((l) => ({ layer: l, ...packOf(l.source) }));
  const user = layers.find((l) => l.kind === "user");
  const userFile = join(box.configDir, "policy.json");
  if (user === undefined) rmSync(userFile, { force: true });
  else replaceFile(userFile, JSON.stringify(user.document));
  const workspace = layers.find((l) => l.kind === "workspace");
  const workspaceFile = join(box.workspace, ".vscode", "slashi-policy.json");
  if (workspace === undefined) rmSync(workspaceFile, { force: true });
  else {
    const text = JSON.stringify(workspace.document);
    mkdirSync(join(box.workspace, ".vscode"), { recursive: true });
    replaceFile(workspaceFile, text);
    if (workspace.approved === true)
      await approvals.put({
        key: workspacePolicyApprovalKey(workspaceKeyOf(box.workspace)),
        digest: textDigest(text),
        approvedAt: new Date().toISOString(),
      });
  }
  const packsDir = join(box.stateDir, "packs");
  rmSync(packsDir, { recursive: true, force: true });
  const lock: Record<string, unknown> = {};
  for (const [i, { layer, name, version }] of packs.entries()) {
    const dir = `pack-${i}`;
    mkdirSync(join(packsDir, dir), { recursive: true });
    const manifest = JSON.stringify({ version: 1, commands: [], policy: layer.document });
    writeFileSync(
      join(packsDir, dir, "package.json"),
      JSON.stringify({ name, version, keywords: ["slashi-pack"] }),
    );
    writeFileSync(join(packsDir, dir, "slashi-pack.json"), manifest);
    const integrity = "sha512-AAAA";
    lock[name] = {
      version,
      integrity,
      registry: "https://registry.npmjs.org/",
      installedAt: "2026-12-01T00:00:00.000Z",
      dir,
      signature: "unsigned",
      manifestSha256: createHash("sha256").update(manifest).digest("hex"),
    };
    if (layer.approved === true)
      await approvals.put({
        key: packPolicyApprovalKey(name),
        digest: packPolicyFingerprint({ name, version, integrity }, layer.document as never),
        approvedAt: new Date().toISOString(),
      });
  }
  mkdirSync(packsDir, { recursive: true });
  replaceFile(
    join(packsDir, "packs.lock.json"),
    JSON.stringify({ format: "slashi.packs-lock", version: 1, packs: lock }),
  );
}

/**
 * Layered cases, one after the other through one server in a real, trusted workspace; with `managed`, the
 * server runs under bubblewrap with a managed policy folder of its own at `/etc/slashi`.
 */
async function runLayered(layeredCases: readonly DecideCase[], managed: boolean): Promise<void> {
  if (layeredCases.length === 0) return;
  const temp = tempHome("slashi-contract-layers-");
  const managedDir = managed ? tempDir("slashi-contract-managed-") : undefined;
  const box: Sandbox = {
    root: temp.dir,
    home: temp.home,
    configDir: temp.configDir,
    stateDir: temp.stateDir,
    workspace: temp.workspace,
    env: serverEnv(temp),
    cleanup: temp.remove,
  };
  await new TrustFileStore({ file: join(box.stateDir, "trust.json") }).setTrusted(
    workspaceKeyOf(box.workspace),
    true,
  );
  let connected: Connected | undefined;
  try {
    const launcher = managedDir === undefined ? [] : underBubblewrap(box, managedDir.dir);
    connected = await connect(box, { cwd: box.workspace, args: ["--shell", "bash"], launcher });
    for (const c of layeredCases) {
      await writeLayers(box, c.input.layers ?? [], managedDir?.dir);
      results.set(c.id, await check(connected, c.input.command, box.workspace));
    }
  } catch (error) {
    const stderr = connected?.stderr() ?? "";
    for (const c of layeredCases)
      if (!results.has(c.id))
        results.set(c.id, { detail: `server failed: ${(error as Error).message} ${stderr}` });
  } finally {
    await connected?.close();
    box.cleanup();
    managedDir?.remove();
  }
}

describe("check_command conformance (shell and policy cases over stdio)", () => {
  const failed: string[] = [];

  it("runs every case through the built server", { timeout: 600_000 }, async () => {
    const queue = [...groups.values()];
    const workers = Array.from({ length: 3 }, async () => {
      for (let g = queue.shift(); g !== undefined; g = queue.shift()) await runGroup(g);
    });
    const managed = skipped.length === 0 ? layeredManaged : [];
    await Promise.all([...workers, runLayered(layeredFiles, false), runLayered(managed, true)]);
    expect(results.size).toBe(cases.length - skipped.length);
  });

  it("has the suite's cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(520);
    expect(layeredFiles.length).toBeGreaterThanOrEqual(15);
    expect(layeredManaged.length).toBeGreaterThanOrEqual(13);
  });

  it("lists only cases of this suite as not applicable, each with its reason, none of the core's", () => {
    expect(baseline.problems(cases.map((c) => c.id))).toEqual([]);
  });

  it("matches every expected decision except the listed cases", () => {
    const unexpected: string[] = [];
    for (const c of cases) {
      if (skipped.includes(c)) continue;
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
    const skippedIds = new Set(skipped.map((c) => c.id));
    expect(
      compareWithBaseline(
        failed,
        expectedFailures.filter((id) => !skippedIds.has(id)),
      ),
    ).toEqual([]);
  });
});
