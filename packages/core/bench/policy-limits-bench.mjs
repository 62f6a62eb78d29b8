// Measures the worst policy files the limits of `POLICY_LIMITS` accept against the `recommended` preset in the
// same run: the time to load each file (parse, shape, examples, resolve) and to decide a set of command lines
// under it. The ratios say what a repository can cost a decision at most; nothing is asserted. Run with
// `pnpm --filter @slashi/core bench:limits` (builds dist first).
import { availableParallelism, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { decide, loadShellParser, parsePolicy, RECOMMENDED_POLICY, resolvePolicy } from "../dist/index.js";
import { POLICY_LIMITS as L } from "../dist/internal.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const LINES = [
  "ls -la",
  "git status --short",
  "git log --oneline -20 | head -5",
  "cat package.json | jq .version",
  "grep -rn TODO src | wc -l",
  "npm test 2>&1 | tail -20",
  "rm -rf build && mkdir build",
  'echo "$(git rev-parse HEAD)" > rev.txt',
  'for f in *.md; do wc -l "$f"; done',
  "git push --force origin main",
];

const words = (n, stem) => Array.from({ length: n }, (_, i) => `${stem}${i}`);

/** Fills rules up to the text limit: `make(i)` gives rule i; stops at the rule count limit or the text limit. */
function upToLimits(make, extra = {}) {
  const rules = [];
  let size = JSON.stringify({ version: 1, ...extra, rules: [] }).length;
  for (let i = 0; i < L.rules; i++) {
    const rule = make(i);
    const more = JSON.stringify(rule).length + 1;
    if (size + more > L.text) break;
    size += more;
    rules.push(rule);
  }
  return JSON.stringify({ version: 1, ...extra, rules });
}

// The costliest examples found: command substitutions, each a command the analyser extracts and classifies.
const exampleLength = Math.floor(L.exampleCharacters / L.examples);
const substitutions = (i) => `c${i} x ${"$(a) ".repeat(Math.floor((exampleLength - 8) / 5))}`.trimEnd();

const WORST = [
  [
    "examples: the most, of the costliest form",
    upToLimits((i) => ({
      match: [`c${i}`, "x"],
      decision: "ask",
      ...(i < L.examples ? { examples: { match: [substitutions(i)] } } : {}),
    })),
  ],
  [
    "rules: the most, each for any program",
    upToLimits((i) => ({ match: ["*", ...words(3, `w${i}-`)], decision: "ask" })),
  ],
  [
    "rules: the most, each for one program, all matching",
    upToLimits((i) => ({ match: ["git", ...(i % 2 === 0 ? [] : ["*"])], decision: "ask" })),
  ],
  [
    "prefix lists: every list full",
    JSON.stringify({
      version: 1,
      allowedCommands: words(L.prefixes, "p"),
      approvedCommands: words(L.prefixes, "q"),
      restrictedTerms: words(L.prefixes, "r"),
      networkAllowedCommands: words(L.prefixes, "n"),
    }),
  ],
];

await loadShellParser();
const context = { cwd: "/code/repo", workspaceRoot: "/code/repo", home: "/home/dev" };

/** Loads a policy file as a host does (parse, check, resolve with the default preset) and decides every line. */
function measure(text) {
  const t0 = performance.now();
  const document = parsePolicy(text, "policy.json");
  const policy = resolvePolicy([{ kind: "workspace", source: "policy.json", document, approved: true }]);
  const t1 = performance.now();
  for (const line of LINES) decide(line, policy, context);
  return { load: t1 - t0, decide: (performance.now() - t1) / LINES.length };
}

const baselineText = JSON.stringify(RECOMMENDED_POLICY);
const cases = [["baseline: the recommended preset as a file", baselineText], ...WORST];
const best = cases.map(() => ({ load: Infinity, decide: Infinity }));
const loadBefore = loadavg();
measure(baselineText);
for (let round = 0; round < ROUNDS; round++) {
  // interleaved, so a change of machine load touches every case alike
  cases.forEach(([, text], i) => {
    const m = measure(text);
    best[i].load = Math.min(best[i].load, m.load);
    best[i].decide = Math.min(best[i].decide, m.decide);
  });
}
const loadAfter = loadavg();

const fmt = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(1)} ms`);
console.log(
  `policy limits benchmark: best of ${ROUNDS} rounds, ${LINES.length} lines decided per load; ` +
    `${availableParallelism()} CPUs, load average ${loadBefore[0].toFixed(1)} before, ${loadAfter[0].toFixed(1)} after`,
);
console.log(
  `limits: ${L.text} characters, ${L.rules} rules, ${L.examples} examples / ${L.exampleCharacters} characters, ` +
    `${L.prefixes} entries per prefix list`,
);
console.log("");
console.log(
  `${"policy file".padEnd(54)}${"size".padStart(9)}${"load".padStart(11)}${"×".padStart(8)}${"decide/line".padStart(13)}${"×".padStart(8)}`,
);
cases.forEach(([name, text], i) => {
  const b = best[i];
  console.log(
    `${name.padEnd(54)}${`${Math.round(text.length / 1024)} KB`.padStart(9)}${fmt(b.load).padStart(11)}` +
      `${`${(b.load / best[0].load).toFixed(1)}×`.padStart(8)}${fmt(b.decide).padStart(13)}` +
      `${`${(b.decide / best[0].decide).toFixed(1)}×`.padStart(8)}`,
  );
});
const worstLoad = Math.max(...best.slice(1).map((b) => b.load));
const worstDecide = Math.max(...best.slice(1).map((b) => b.decide));
console.log("");
console.log(
  `worst load ${fmt(worstLoad)} (${(worstLoad / best[0].load).toFixed(1)}× the preset), worst decision ${fmt(worstDecide)} ` +
    `(${(worstDecide / best[0].decide).toFixed(1)}× the preset)`,
);
