// Measures decide() against the built core: decisions per second and p50/p99 latency over the conformance
// commands, warm, beside a baseline from the same run (a bare tree-sitter parse of the same commands).
// Run with `pnpm --filter @slashi/core bench` (builds dist first). Prints numbers and PASS/MISS words for the
// targets; asserts nothing.
//
// The phases are interleaved command by command (parse, analyse, classify, policy, decide, then the next
// command), so a change in machine load during the run touches every phase alike. Wall-clock tails on a busy
// machine include time the process waited for a CPU; the "best of N" columns (each command's fastest run)
// show the cost without those waits.
import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Language, Parser } from "web-tree-sitter";
import { analyzeShell, classifyCommand, decide, loadShellParser, resolvePolicy } from "../dist/index.js";
import { evaluateAnalysis } from "../dist/policy/evaluate.js";
import { maskHeredocs, readHeredocs } from "../dist/shell/heredocs.js";

/** The aims of the issue: decide at most this many times a bare parse (mean), and a p99 under this. */
const AIM_RATIO = 3;
const AIM_P99_MS = 1;
/** How long to measure (after the warm-up), and the fewest rounds over all commands. */
const MEASURE_MS = Number(process.env.BENCH_MS ?? 4000);
const MIN_ROUNDS = 3;

const casesDir = new URL("../../conformance/cases/", import.meta.url);

const FALLBACK = [
  "ls -la",
  "git status --short",
  "git log --oneline -20 | head -5",
  "cat package.json | jq .version",
  "grep -rn TODO src | wc -l",
  "find . -name '*.ts' -not -path './node_modules/*'",
  "npm test 2>&1 | tail -20",
  "rm -rf build && mkdir build",
  "curl -fsSL https://example.com/install.sh | sh",
  'echo "$(git rev-parse HEAD)" > rev.txt',
  'for f in *.md; do wc -l "$f"; done',
  "sudo apt-get install -y jq",
  "bash -c 'echo hi && ls'",
  "sed -n 1,20p README.md",
  "python3 -c 'print(1)'",
  "git push --force origin main",
  "cd packages/core && pnpm exec vitest run",
  "command -v node >/dev/null 2>&1 || echo missing",
];

/** Command strings from the conformance cases of the shell and policy areas. */
function conformanceCommands() {
  const out = [];
  for (const area of ["shell", "policy"]) {
    let files;
    try {
      files = readdirSync(new URL(`${area}/`, casesDir)).filter((f) => f.endsWith(".json"));
    } catch {
      continue;
    }
    for (const file of files) {
      const cases = JSON.parse(readFileSync(new URL(`${area}/${file}`, casesDir), "utf8"));
      for (const c of cases) {
        const command = c?.input?.command;
        if (typeof command === "string" && (c.input.shell === undefined || c.input.shell === "bash"))
          out.push(command);
      }
    }
  }
  return out;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function stats(latencies) {
  const total = latencies.reduce((a, b) => a + b, 0);
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    perSecond: latencies.length / (total / 1000),
    mean: total / latencies.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
  };
}

const fromCases = conformanceCommands();
const commands = fromCases.length >= 20 ? fromCases : [...fromCases, ...FALLBACK];
const origin =
  fromCases.length >= 20
    ? "conformance cases of the shell and policy areas"
    : `${fromCases.length} conformance cases + ${FALLBACK.length} built-in commands`;

await loadShellParser();
const policy = resolvePolicy([]);
const context = { cwd: "/code/repo", workspaceRoot: "/code/repo", home: "/home/dev" };

await Parser.init();
const parser = new Parser();
parser.setLanguage(
  await Language.load(fileURLToPath(import.meta.resolve("tree-sitter-bash/tree-sitter-bash.wasm"))),
);

const analyses = new Map(commands.map((c) => [c, analyzeShell(c, "bash")]));
const phases = [
  ["tree-sitter parse only", (c) => parser.parse(c)?.delete()],
  ["analyzeShell()", (c) => analyzeShell(c, "bash")],
  [
    "analyze + classify",
    (c) => {
      for (const command of analyzeShell(c, "bash").commands) classifyCommand(command, context);
    },
  ],
  ["policy only", (c) => evaluateAnalysis(c, analyses.get(c), policy, { context, classify: () => [] })],
  ["decide()", (c) => decide(c, policy, context)],
];

for (let round = 0; round < 3; round++) for (const c of commands) for (const [, fn] of phases) fn(c);

const latencies = phases.map(() => []);
const best = phases.map(() => new Array(commands.length).fill(Infinity));
const loadBefore = loadavg();
const started = performance.now();
let rounds = 0;
while (rounds < MIN_ROUNDS || performance.now() - started < MEASURE_MS) {
  for (let i = 0; i < commands.length; i++) {
    const c = commands[i];
    for (let p = 0; p < phases.length; p++) {
      const t0 = performance.now();
      phases[p][1](c);
      const t = performance.now() - t0;
      latencies[p].push(t);
      if (t < best[p][i]) best[p][i] = t;
    }
  }
  rounds++;
}
const loadAfter = loadavg();

// Heredocs are read twice: by our reader ahead of the grammar (bodies found, then blanked), then the grammar
// parses the masked line. The reader's own cost, on the lines that hold `<<`, next to their parse and decide.
const heredocLines = commands.filter((c) => c.includes("<<"));
const reader = (c) => {
  const reading = readHeredocs(c);
  if (reading.heredocs !== undefined && reading.heredocs.length > 0) maskHeredocs(c, reading.heredocs);
};
const heredocPhases = [phases[0][1], reader, phases[phases.length - 1][1]];
const heredocBest = heredocPhases.map(() => new Array(heredocLines.length).fill(Infinity));
for (let round = 0; round < Math.max(rounds, MIN_ROUNDS); round++) {
  for (let i = 0; i < heredocLines.length; i++) {
    for (let p = 0; p < heredocPhases.length; p++) {
      const t0 = performance.now();
      heredocPhases[p](heredocLines[i]);
      const t = performance.now() - t0;
      if (t < heredocBest[p][i]) heredocBest[p][i] = t;
    }
  }
}
const [heredocParse, heredocReader, heredocDecide] = heredocBest.map((b) => stats(b).mean);

const results = phases.map(([name], p) => ({ name, wall: stats(latencies[p]), best: stats(best[p]) }));
const parse = results[0];
const decided = results[results.length - 1];

const fmt = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);
const cell = (ms) => fmt(ms).padStart(9);
const x = (r) => `${r.toFixed(2)}×`;
const verdict = (ok) => (ok ? "PASS" : "MISS");

const cpus = availableParallelism();
console.log(`decide() benchmark: ${commands.length} command lines (${origin}), recommended preset, warm`);
console.log(
  `${rounds} rounds in ${((performance.now() - started) / 1000).toFixed(1)} s, phases interleaved per command; ` +
    `${cpus} CPUs, load average ${loadBefore[0].toFixed(1)} before, ${loadAfter[0].toFixed(1)} after`,
);
console.log("");
console.log(
  `${"phase".padEnd(24)}${"calls/s".padStart(9)}${"p50".padStart(10)}${"p99".padStart(10)}${"mean".padStart(10)}` +
    `  │ best of ${rounds}:${"p50".padStart(7)}${"p99".padStart(10)}${"mean".padStart(10)}`,
);
for (const r of results) {
  console.log(
    `${r.name.padEnd(24)}${String(Math.round(r.wall.perSecond)).padStart(9)} ${cell(r.wall.p50)} ${cell(r.wall.p99)} ${cell(r.wall.mean)}` +
      `  │ ${" ".repeat(9)}${cell(r.best.p50)} ${cell(r.best.p99)} ${cell(r.best.mean)}`,
  );
}
console.log("");
const ratioMean = decided.wall.mean / parse.wall.mean;
const ratioP50 = decided.wall.p50 / parse.wall.p50;
const ratioBest = decided.best.mean / parse.best.mean;
console.log(
  `ratio decide / parse-only: mean ${x(ratioMean)}   p50 ${x(ratioP50)}   best-of-${rounds} mean ${x(ratioBest)}`,
);
const policyOnly = results[3];
console.log(
  `ratio per phase / parse-only (best-of-${rounds} mean): ` +
    results
      .slice(1)
      .map((r) => `${r.name} ${x(r.best.mean / parse.best.mean)}`)
      .join(", "),
);
console.log("");
console.log(
  `target: decide ≤ ${AIM_RATIO}× parse-only (mean, wall clock)   ${x(ratioMean).padStart(8)}   ${verdict(ratioMean <= AIM_RATIO)}`,
);
console.log(
  `target: decide p99 < ${AIM_P99_MS} ms (wall clock)            ${fmt(decided.wall.p99).padStart(8)}   ${verdict(decided.wall.p99 < AIM_P99_MS)}`,
);
console.log(
  `  without scheduler waits (best of ${rounds} per command): ratio ${x(ratioBest)} ${verdict(ratioBest <= AIM_RATIO)}, ` +
    `p99 ${fmt(decided.best.p99)} ${verdict(decided.best.p99 < AIM_P99_MS)}; policy layer alone ${fmt(policyOnly.best.mean)} mean`,
);
if (heredocLines.length > 0)
  console.log(
    `lines holding << (${heredocLines.length}), best of ${rounds} mean: heredoc reader ${fmt(heredocReader)} ` +
      `(${x(heredocReader / heredocParse)} their parse, ${((100 * heredocReader) / heredocDecide).toFixed(1)} % of their decide ${fmt(heredocDecide)})`,
  );
const busiest = Math.max(loadBefore[0], loadAfter[0]);
if (busiest > cpus)
  console.log(
    `note: the load average (${busiest.toFixed(1)}) exceeds the ${cpus} CPUs; wall-clock p99 and means then mostly measure waiting for a CPU`,
  );
else if (busiest > cpus / 2)
  console.log(`note: the machine was busy (load average ${busiest.toFixed(1)}); wall-clock tails are noisy`);
