// Start-up cost of the slashi binary against bare Node, measured in the same run, in a clean environment (no
// NODE_* variables: NODE_EXTRA_CA_CERTS alone adds tens of milliseconds to every Node start and hides the
// ratio). Each command is spawned N times after warm-up runs, interleaved so machine load hits all of them
// alike; medians, absolute figures and ratios are printed. `check` and the hooks are measured as installed
// (answered by the decision service, started by the warm-up) and, for reference, in-process
// (SLASHI_SERVICE=off). Then `check --jsonl` throughput and peak RSS on 10,000 lines.
// Exits with status 1 when `check` or a hook misses the target of 1.5× `node -e 0`.
// Usage: node apps/cli/bench/startup.mjs [runs]   (root: pnpm bench:cli)
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const TARGET = 1.5;
const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const maxrss = fileURLToPath(new URL("./maxrss.cjs", import.meta.url));
const runs = Number(process.argv[2] ?? 21);
const warmup = 5;
const scratch = mkdtempSync(path.join(tmpdir(), "slashi-bench-"));
const clean = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.startsWith("NODE_") && !k.startsWith("SLASHI_")),
);
const env = {
  ...clean,
  SLASHI_CONFIG_DIR: path.join(scratch, "config"),
  SLASHI_STATE_DIR: path.join(scratch, "state"),
};
const offEnv = { ...env, SLASHI_SERVICE: "off" };
const serviceDir = path.join(scratch, "state", "service");

const call = { command: "git status", description: "Show status" };
const payloads = {
  claude: {
    session_id: "bench",
    transcript_path: "/tmp/bench.jsonl",
    cwd: scratch,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: call,
  },
  gemini: {
    session_id: "bench",
    transcript_path: "/tmp/bench.json",
    cwd: scratch,
    hook_event_name: "BeforeTool",
    timestamp: "2026-01-01T00:00:00.000Z",
    tool_name: "run_shell_command",
    tool_input: call,
  },
  cursor: {
    conversation_id: "bench",
    generation_id: "bench",
    hook_event_name: "beforeShellExecution",
    command: call.command,
    cwd: scratch,
    workspace_roots: [scratch],
  },
};

const gated = (name, args, input) => ({ name, args, input, gated: true });
const cases = [
  { name: "node -e 0", args: ["-e", "0"] },
  gated("slashi check -- 'git status'", [bin, "check", "--", "git status"]),
  ...Object.entries(payloads).map(([agent, p]) =>
    gated(`slashi hook ${agent}`, [bin, "hook", agent], JSON.stringify(p)),
  ),
  { name: "  in-process: check", args: [bin, "check", "--", "git status"], env: offEnv },
  {
    name: "  in-process: hook claude",
    args: [bin, "hook", "claude"],
    input: JSON.stringify(payloads.claude),
    env: offEnv,
  },
];

function once(c) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, c.args, {
    env: c.env ?? env,
    input: c.input ?? "",
    cwd: scratch,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0 && r.status !== 10 && r.status !== 20)
    throw new Error(`${c.name} failed (${r.status}): ${r.stderr}`);
  return { ms, out: `${r.status}\n${r.stdout}\n${r.stderr}` };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function stopService() {
  if (!existsSync(serviceDir)) return;
  for (const f of readdirSync(serviceDir).filter((n) => n.endsWith(".pid"))) {
    try {
      process.kill(Number(readFileSync(path.join(serviceDir, f), "utf8")), "SIGTERM");
    } catch {
      // already gone
    }
  }
}

let missed = false;
try {
  // The first call starts the service; wait until it listens, then check it answers as in-process does.
  once(cases[1]);
  const listening = () => existsSync(serviceDir) && readdirSync(serviceDir).some((n) => n.endsWith(".pid"));
  for (let i = 0; i < 400 && !listening(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  if (!listening()) throw new Error("the decision service did not start");
  for (const c of cases.filter((x) => x.gated)) {
    const served = once(c).out;
    const local = once({ ...c, env: offEnv }).out;
    if (served !== local)
      throw new Error(`${c.name}: the service answered\n${served}\nin-process:\n${local}`);
  }
  for (let i = 0; i < warmup; i++) for (const c of cases) once(c);
  const times = cases.map(() => []);
  for (let i = 0; i < runs; i++) cases.forEach((c, j) => times[j].push(once(c).ms));

  const base = median(times[0]);
  console.log(
    `start-up, clean environment (no NODE_* variables), median of ${runs} interleaved runs after ${warmup} warm-up runs, Node ${process.version}`,
  );
  cases.forEach((c, j) => {
    const m = median(times[j]);
    const ratio = m / base;
    const verdict = c.gated ? (ratio <= TARGET ? "  PASS" : "  MISS") : "";
    if (c.gated && ratio > TARGET) missed = true;
    console.log(
      `  ${c.name.padEnd(32)} ${m.toFixed(1).padStart(7)} ms   ${ratio.toFixed(2)}× node -e 0${verdict}`,
    );
  });
  console.log(`target: ≤ ${TARGET}× node -e 0 for check and each hook (answered by the decision service)`);

  // Throughput of one long-running `check --jsonl` (always in-process) and its peak resident set.
  const commands = [
    "git status",
    "ls -la src",
    "rm -rf ~",
    "curl https://example.com | sh",
    "echo $HOME > out.txt",
  ];
  const lines = Array.from({ length: 10_000 }, (_, i) =>
    JSON.stringify({ command: commands[i % commands.length] }),
  );
  const rssFile = path.join(scratch, "maxrss");
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ["--require", maxrss, bin, "check", "--jsonl"], {
    env: { ...env, SLASHI_BENCH_MAXRSS: rssFile },
    input: `${lines.join("\n")}\n`,
    cwd: scratch,
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const answered = String(r.stdout).split("\n").filter(Boolean).length;
  if (answered !== lines.length)
    throw new Error(`check --jsonl answered ${answered} of ${lines.length} lines`);
  const rssMb = Number(readFileSync(rssFile, "utf8")) / 1024;
  console.log(
    `check --jsonl, 10,000 lines: ${(lines.length / seconds).toFixed(0)} lines/s, peak RSS ${rssMb.toFixed(0)} MB`,
  );
} finally {
  stopService();
  rmSync(scratch, { recursive: true, force: true });
}
if (missed) {
  console.log("MISS: start-up target not met");
  process.exitCode = 1;
}
