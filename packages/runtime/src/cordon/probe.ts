import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import type { Server } from "node:net";
import path from "node:path";
import { userStateDir } from "../config/paths.js";
import { readBoundedText } from "../fs/bounded-read.js";
import { runUnproven } from "../runner/run-command.js";
import { cordonAvailability, type CordonKind } from "./availability.js";
import type { ProbeOptions } from "./options.js";

export type { ProbeOptions } from "./options.js";

/** One check of the probe. */
export interface ProbeCheck {
  /**
   * `hidden-read`, `outside-write`, `inside-write`, `no-capabilities`, `network-off`, `own-processes` (no
   * process outside the sandbox is visible), `seccomp` (the system call filter is in force).
   */
  name:
    | "hidden-read"
    | "outside-write"
    | "inside-write"
    | "no-capabilities"
    | "network-off"
    | "own-processes"
    | "seccomp";
  /** The sandbox behaved as required. */
  passed: boolean;
  /** What was seen. */
  detail: string;
}

/** What {@link probeCordon} found. */
export interface ProbeResult {
  /** Every check passed: the cordon confines commands on this host. */
  ok: boolean;
  /** The sandbox that was probed. */
  kind?: CordonKind;
  /** Why it is not usable, when `ok` is false. */
  reason?: string;
  /** The checks. */
  checks: ProbeCheck[];
  /** Wall time of the probe. */
  durationMs: number;
}

const cache = new Map<string, Promise<ProbeResult>>();

/** Changes when the probe checks more: a pass remembered by an older probe no longer counts. */
export const PROBE_VERSION = 2;

// Runs inside the cordon: tries each forbidden and allowed action and prints what happened as JSON.
const PROBE_SCRIPT = `
const fs = require("node:fs");
const net = require("node:net");
const [secret, outside, inside, port, hostPid] = process.argv.slice(1);
const out = {};
try { out.hiddenRead = "read:" + fs.readFileSync(secret, "utf8"); } catch (e) { out.hiddenRead = "error:" + e.code; }
try { fs.writeFileSync(outside, "x"); out.outsideWrite = "written"; } catch (e) { out.outsideWrite = "error:" + e.code; }
try { fs.writeFileSync(inside, "inside"); out.insideWrite = "written"; } catch (e) { out.insideWrite = "error:" + e.code; }
try {
  const status = fs.readFileSync("/proc/self/status", "utf8");
  out.capabilities = (status.match(/^CapEff:\\s*([0-9a-f]+)/m) || [])[1] || "unknown";
  out.seccomp = (status.match(/^Seccomp:\\s*(\\d+)/m) || [])[1] || "unknown";
} catch (e) { out.capabilities = "n/a"; out.seccomp = "n/a"; }
try {
  const pids = fs.readdirSync("/proc").filter((name) => /^\\d+$/.test(name));
  out.processes = fs.existsSync("/proc/" + hostPid) ? "host-visible" : String(pids.length);
} catch (e) { out.processes = "n/a"; }
const socket = net.connect(Number(port), "127.0.0.1");
const done = (v) => { out.connect = v; socket.destroy(); process.stdout.write(JSON.stringify(out)); process.exit(0); };
socket.on("connect", () => done("connected"));
socket.on("error", (e) => done("error:" + e.code));
setTimeout(() => done("timeout"), 3000);
`;

async function listen(): Promise<{ server: Server; port: number }> {
  // node:net is loaded only when the probe runs, not by every process that imports the runtime.
  const { createServer } = await import("node:net");
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.end());
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve({ server, port: typeof address === "object" && address ? address.port : 0 });
    });
  });
}

async function exists(target: string): Promise<boolean> {
  return stat(target).then(
    () => true,
    () => false,
  );
}

async function runProbe(options: ProbeOptions): Promise<ProbeResult> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const availability = cordonAvailability(options);
  if (!availability.available) {
    return { ok: false, reason: availability.reason, checks: [], durationMs: elapsed() };
  }
  const base = options.scratchDir ?? path.join(userStateDir(), "probe");
  await mkdir(base, { recursive: true, mode: 0o700 });
  const root = await mkdtemp(path.join(base, "cordon-"));
  const { server, port } = await listen();
  try {
    const workspace = path.join(root, "workspace");
    const home = path.join(root, "home");
    const outsideDir = path.join(root, "outside");
    const secretValue = `probe-secret-${process.pid}-${Date.now()}`;
    await mkdir(workspace);
    await mkdir(outsideDir);
    await mkdir(path.join(home, ".ssh"), { recursive: true });
    const secret = path.join(home, ".ssh", "id_probe");
    await writeFile(secret, secretValue);
    const outside = path.join(outsideDir, "written-from-cordon");
    const inside = path.join(workspace, "written-in-cordon");

    const run = await runUnproven({
      argv: [
        process.execPath,
        "-e",
        PROBE_SCRIPT,
        secret,
        outside,
        inside,
        String(port),
        String(process.pid),
      ],
      cwd: workspace,
      timeoutMs: options.timeoutMs ?? 15_000,
      cordon: { workspace, home, network: false, slashiDirs: [] },
      cordonOptions: options,
    });
    let seen: Record<string, string> = {};
    try {
      seen = JSON.parse(run.stdout) as Record<string, string>;
    } catch {
      const why = run.spawnError ?? `exit ${run.exitCode ?? run.signal}: ${run.stderr.trim().slice(0, 300)}`;
      return {
        ok: false,
        kind: availability.kind,
        reason: `the sandbox did not run the probe (${why})`,
        checks: [],
        durationMs: elapsed(),
      };
    }
    // What the sandbox left there is read as any file a command controls: a FIFO does not hold the probe up.
    const insideOnHost = await readBoundedText(inside).catch(() => undefined);
    const outsideOnHost = await exists(outside);
    const checks: ProbeCheck[] = [
      {
        name: "hidden-read",
        passed: seen.hiddenRead !== `read:${secretValue}`,
        detail: seen.hiddenRead?.startsWith("read:")
          ? "read returned other content"
          : `read ${seen.hiddenRead}`,
      },
      {
        name: "outside-write",
        passed: !outsideOnHost,
        detail: outsideOnHost
          ? "a file written in the cordon appeared outside the workspace"
          : `write ${seen.outsideWrite}`,
      },
      {
        name: "inside-write",
        passed: insideOnHost === "inside",
        detail: insideOnHost === "inside" ? "write reached the workspace" : `write ${seen.insideWrite}`,
      },
      {
        name: "no-capabilities",
        passed: seen.capabilities === "n/a" || /^0+$/.test(seen.capabilities ?? ""),
        detail:
          seen.capabilities === "n/a"
            ? "no /proc here (macOS)"
            : `effective capabilities inside: ${seen.capabilities ?? "unknown"}`,
      },
      {
        name: "network-off",
        passed: seen.connect !== "connected",
        detail: `connect to a loopback listener: ${seen.connect}`,
      },
      {
        // A new PID namespace shows bubblewrap's init and the probe, nothing of the host.
        name: "own-processes",
        passed:
          seen.processes === "n/a" ||
          (/^\d+$/.test(seen.processes ?? "") && Number(seen.processes) >= 1 && Number(seen.processes) <= 3),
        detail:
          seen.processes === "host-visible"
            ? "the probe's parent process is visible inside"
            : `processes visible inside: ${seen.processes ?? "unknown"}`,
      },
      {
        name: "seccomp",
        passed: seen.seccomp === "n/a" || seen.seccomp === "2",
        detail:
          seen.seccomp === "n/a"
            ? "no /proc here (macOS)"
            : `seccomp mode inside: ${seen.seccomp ?? "unknown"}`,
      },
    ];
    const failed = checks.filter((check) => !check.passed);
    return {
      ok: failed.length === 0,
      kind: availability.kind,
      ...(failed.length > 0
        ? { reason: `the sandbox does not confine: ${failed.map((c) => c.name).join(", ")}` }
        : {}),
      checks,
      durationMs: elapsed(),
    };
  } finally {
    server.close();
    await rm(root, { recursive: true, force: true });
  }
}

/**
 * Proves the cordon works on this host before anything relies on it (such as skipping a confirmation because a
 * command is sandboxed, which stays off by default): inside the sandbox a hidden secret must be unreadable, a
 * write outside the workspace must not reach the disk, a write inside must, the command must hold no
 * capabilities (Linux), a connect to a loopback listener started for the probe must fail, no process outside
 * the sandbox may be visible and the seccomp filter must be in force (Linux). A sandbox program that exits 0
 * without confining (user namespaces disabled, AppArmor, a stub) fails the probe. The result is cached per process; `refresh` runs it again.
 */
export function probeCordon(options: ProbeOptions = {}): Promise<ProbeResult> {
  const key = JSON.stringify([options.bwrapPath, options.platform, options.scratchDir]);
  const cached = cache.get(key);
  if (cached && !options.refresh) return cached;
  const pending = runProbe(options).catch((error: unknown): ProbeResult => ({
    ok: false,
    reason: `the probe failed: ${(error as Error).message}`,
    checks: [],
    durationMs: 0,
  }));
  cache.set(key, pending);
  return pending;
}
