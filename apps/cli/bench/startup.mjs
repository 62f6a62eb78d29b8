// Start-up cost of the slashi binary against bare Node, measured in the same run: each command is spawned N
// times (after warm-up runs), interleaved so machine load hits all of them alike; medians and ratios printed.
// Usage: node apps/cli/bench/startup.mjs [runs]   (root: pnpm bench:cli)
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const runs = Number(process.argv[2] ?? 30);
const warmup = 5;
const scratch = mkdtempSync(path.join(tmpdir(), "slashi-bench-"));
const env = {
  ...process.env,
  SLASHI_CONFIG_DIR: path.join(scratch, "config"),
  SLASHI_STATE_DIR: path.join(scratch, "state"),
};
const claudePayload = JSON.stringify({
  session_id: "bench",
  transcript_path: "/tmp/bench.jsonl",
  cwd: scratch,
  permission_mode: "default",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command: "git status", description: "Show status" },
});

const cases = [
  { name: "node -e 0", args: ["-e", "0"] },
  { name: "slashi check -- 'git status'", args: [bin, "check", "--", "git status"] },
  { name: "slashi hook claude", args: [bin, "hook", "claude"], input: claudePayload },
];

function once(c) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, c.args, {
    env,
    input: c.input ?? "",
    cwd: scratch,
    stdio: ["pipe", "ignore", "pipe"],
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0 && r.status !== 10 && r.status !== 20)
    throw new Error(`${c.name} failed (${r.status}): ${r.stderr}`);
  return ms;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

for (let i = 0; i < warmup; i++) for (const c of cases) once(c);
const times = cases.map(() => []);
for (let i = 0; i < runs; i++) cases.forEach((c, j) => times[j].push(once(c)));
rmSync(scratch, { recursive: true, force: true });

const base = median(times[0]);
console.log(`start-up, median of ${runs} runs (after ${warmup} warm-up runs), Node ${process.version}`);
cases.forEach((c, j) => {
  const m = median(times[j]);
  console.log(`  ${c.name.padEnd(32)} ${m.toFixed(1).padStart(7)} ms   ${(m / base).toFixed(2)}× node -e 0`);
});
console.log("aim: ≤ 1.5× bare Node for check and hook");
