// Measures decide() against the built core: decisions per second and p50/p99 latency over the conformance
// commands, warm, beside a baseline from the same run (a bare tree-sitter parse of the same commands).
// Run with `pnpm --filter @slashi/core bench` (builds dist first). Prints numbers; asserts nothing.
import { readdirSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Language, Parser } from "web-tree-sitter";
import { analyzeShell, classifyCommand, decide, loadShellParser, resolvePolicy } from "../dist/index.js";
import { evaluateAnalysis } from "../dist/policy/evaluate.js";

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

/** Runs fn over every command for at least `ms` milliseconds after a warm-up; returns timing stats. */
function measure(commands, fn, ms = 1500) {
  for (let round = 0; round < 3; round++) for (const c of commands) fn(c);
  const latencies = [];
  const start = performance.now();
  while (performance.now() - start < ms) {
    for (const c of commands) {
      const t0 = performance.now();
      fn(c);
      latencies.push(performance.now() - t0);
    }
  }
  const total = latencies.reduce((a, b) => a + b, 0);
  latencies.sort((a, b) => a - b);
  return {
    calls: latencies.length,
    perSecond: latencies.length / (total / 1000),
    mean: total / latencies.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

const fromCases = conformanceCommands();
const commands = fromCases.length >= 20 ? fromCases : [...fromCases, ...FALLBACK];
const origin =
  fromCases.length >= 20
    ? "conformance cases"
    : `${fromCases.length} conformance cases + ${FALLBACK.length} built-in commands`;

await loadShellParser();
const policy = resolvePolicy([]);
const context = { cwd: "/work/repo", workspaceRoot: "/work/repo", home: "/home/dev" };

await Parser.init();
const parser = new Parser();
parser.setLanguage(
  await Language.load(fileURLToPath(import.meta.resolve("tree-sitter-bash/tree-sitter-bash.wasm"))),
);

const parse = measure(commands, (c) => parser.parse(c)?.delete());
const analysed = measure(commands, (c) => analyzeShell(c, "bash"));
const classified = measure(commands, (c) => {
  for (const command of analyzeShell(c, "bash").commands) classifyCommand(command, context);
});
const analyses = new Map(commands.map((c) => [c, analyzeShell(c, "bash")]));
const policyOnly = measure(commands, (c) =>
  evaluateAnalysis(c, analyses.get(c), policy, { context, classify: () => [] }),
);
const decided = measure(commands, (c) => decide(c, policy, context));

const fmt = (n) => (n < 1 ? `${(n * 1000).toFixed(1)} µs` : `${n.toFixed(3)} ms`);
const row = (name, s) =>
  `${name.padEnd(22)} ${String(Math.round(s.perSecond)).padStart(9)}/s   p50 ${fmt(s.p50).padStart(10)}   p99 ${fmt(s.p99).padStart(10)}   mean ${fmt(s.mean).padStart(10)}`;

const ratio = decided.mean / parse.mean;
console.log(
  `decide() benchmark — ${commands.length} distinct commands (${origin}), recommended preset, warm`,
);
console.log(row("tree-sitter parse only", parse));
console.log(row("analyzeShell()", analysed));
console.log(row("analyze + classify", classified));
console.log(row("policy only", policyOnly));
console.log(row("decide()", decided));
console.log(
  `ratio decide / parse (mean): ${ratio.toFixed(2)}×   (aim: ≤ 3×)   ${ratio <= 3 ? "ok" : "ABOVE AIM"}`,
);
console.log(`p99 of decide(): ${fmt(decided.p99)}   (aim: < 1 ms)   ${decided.p99 < 1 ? "ok" : "ABOVE AIM"}`);
console.log(
  `ratio at p50: ${(decided.p50 / parse.p50).toFixed(2)}×; the policy layer alone (rules, gates, terms, reasons on a ` +
    `ready analysis, classifiers stubbed): ${(policyOnly.mean / parse.mean).toFixed(2)}× parse (mean)`,
);
const [load1] = (await import("node:os")).loadavg();
if (load1 > 1.5) console.log(`note: load average ${load1.toFixed(1)}; timings on a busy machine are noisy`);
