// Preloaded by the benchmarks (`node --require`): writes the process's peak resident set size in kilobytes
// to the file named by SLASHI_BENCH_MAXRSS when the process exits.
const { writeFileSync } = require("node:fs");

process.on("exit", () => {
  if (process.env.SLASHI_BENCH_MAXRSS)
    writeFileSync(process.env.SLASHI_BENCH_MAXRSS, String(process.resourceUsage().maxRSS));
});
