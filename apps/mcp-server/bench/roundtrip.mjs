// Round trip of shell_command for `true` through the built server (SDK client over stdio) against spawning `true`
// with execa directly, in the same run; then throughput with 16 concurrent calls. Prints medians, the ratio and
// the milliseconds the server adds per call. Then the server's resident set after start and after 4,000 more
// calls (half shell_command, half check_command of distinct lines), against the aim of 1.5× its start.
// Run with `pnpm bench:mcp` (builds first).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { execa } from "execa";

const BIN = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const WARMUP = 20;
const CONCURRENCY = 16;

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p90: at(0.9), mean: samples.reduce((a, b) => a + b, 0) / samples.length };
}

const fmt = (ms) => `${ms.toFixed(2)} ms`;

const root = mkdtempSync(path.join(tmpdir(), "slashi-mcp-bench-"));
const dirs = {
  home: path.join(root, "home"),
  config: path.join(root, "config"),
  state: path.join(root, "state"),
  work: path.join(root, "work"),
};
for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
mkdirSync(path.join(dirs.work, ".git"));
writeFileSync(
  path.join(dirs.config, "policy.json"),
  JSON.stringify({ version: 1, extends: ["recommended"], rules: [{ match: ["true"], decision: "allow" }] }),
);

const client = new Client({ name: "slashi-bench", version: "1.0.0" });
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [BIN, "--workspace", dirs.work, "--max-concurrent", String(CONCURRENCY), "--max-queued", "64"],
  env: {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dirs.home,
    SLASHI_CONFIG_DIR: dirs.config,
    SLASHI_STATE_DIR: dirs.state,
    SHELL: "/bin/sh",
  },
  cwd: dirs.work,
  stderr: "ignore",
});
await client.connect(transport);

/** The server's resident set in MB, from /proc (undefined where there is none). */
function rssMb() {
  try {
    const status = readFileSync(`/proc/${transport.pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
  } catch {
    return undefined;
  }
}
const RSS_CALLS = 4000;
const RSS_AIM = 1.5;

async function callTrue() {
  const result = await client.callTool({ name: "shell_command", arguments: { command: "true" } });
  if (result.isError || result.structuredContent?.exitCode !== 0)
    throw new Error(`unexpected result: ${JSON.stringify(result)}`);
}

try {
  await callTrue();
  const rssAtStart = rssMb();
  for (let i = 0; i < WARMUP; i++) {
    await callTrue();
    await execa("true", { cwd: dirs.work });
  }
  // Interleave the two so both see the same machine load.
  const viaMcp = [];
  const direct = [];
  const checks = [];
  for (let i = 0; i < ROUNDS; i++) {
    let t = performance.now();
    await callTrue();
    viaMcp.push(performance.now() - t);
    t = performance.now();
    await execa("true", { cwd: dirs.work });
    direct.push(performance.now() - t);
    t = performance.now();
    await client.callTool({ name: "check_command", arguments: { command: "true" } });
    checks.push(performance.now() - t);
  }
  const m = stats(viaMcp);
  const d = stats(direct);
  const c = stats(checks);
  console.log(`rounds: ${ROUNDS} (after ${WARMUP} warm-up)`);
  console.log(`execa true (direct):        median ${fmt(d.median)}  p90 ${fmt(d.p90)}  mean ${fmt(d.mean)}`);
  console.log(`shell_command true (MCP):   median ${fmt(m.median)}  p90 ${fmt(m.p90)}  mean ${fmt(m.mean)}`);
  console.log(`check_command true (MCP):   median ${fmt(c.median)}  p90 ${fmt(c.p90)}  mean ${fmt(c.mean)}`);
  console.log(`ratio MCP / direct:         ${(m.median / d.median).toFixed(2)}x`);
  console.log(`added per call:             ${fmt(m.median - d.median)} (median; aim: under 5 ms)`);

  const total = Math.max(CONCURRENCY * 10, Math.floor(ROUNDS / 2));
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < total) {
        next += 1;
        await callTrue();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `throughput, ${CONCURRENCY} concurrent:     ${(total / seconds).toFixed(0)} calls/s (${total} calls in ${seconds.toFixed(2)} s)`,
  );

  if (rssAtStart !== undefined) {
    for (let i = 0; i < RSS_CALLS; i++) {
      if (i % 2 === 0) await callTrue();
      else
        await client.callTool({
          name: "check_command",
          arguments: { command: `git log -n ${i} -- src/f${i}.ts` },
        });
    }
    const after = rssMb();
    const ratio = after / rssAtStart;
    console.log(
      `resident set: ${rssAtStart.toFixed(0)} MB after start, ${after.toFixed(0)} MB after ${RSS_CALLS} more calls: ${ratio.toFixed(2)}× (aim: ≤ ${RSS_AIM}×)${ratio <= RSS_AIM ? "" : "  MISS"}`,
    );
  }
} finally {
  await client.close();
  rmSync(root, { recursive: true, force: true });
}
