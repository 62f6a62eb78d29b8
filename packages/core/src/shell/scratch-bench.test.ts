import { it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { analyzeShell, loadShellParser } from "./index.js";
import { bashParserOrThrow } from "./parser.js";
it("bench", async () => {
  await loadShellParser();
  const dir = new URL("../../../conformance/cases/shell/", import.meta.url);
  const scripts: string[] = [];
  for (const f of readdirSync(dir))
    if (f.startsWith("extraction"))
      for (const c of JSON.parse(readFileSync(new URL(f, dir), "utf8")))
        if (!c.input.language) scripts.push(c.input.script);
  const p = bashParserOrThrow();
  function run(fn: (s: string) => void) {
    for (let r = 0; r < 5; r++) for (const s of scripts) fn(s);
    const lat: number[] = [];
    const t = performance.now();
    while (performance.now() - t < 2000)
      for (const s of scripts) {
        const t0 = performance.now();
        fn(s);
        lat.push(performance.now() - t0);
      }
    lat.sort((a, b) => a - b);
    const mean = lat.reduce((a, b) => a + b, 0) / lat.length;
    return `mean ${(mean * 1000).toFixed(1)}us p50 ${(lat[lat.length >> 1]! * 1000).toFixed(1)}us p99 ${(lat[Math.floor(lat.length * 0.99)]! * 1000).toFixed(1)}us`;
  }
  const per = scripts.map((s) => {
    for (let i = 0; i < 20; i++) analyzeShell(s);
    const t0 = performance.now();
    for (let i = 0; i < 50; i++) analyzeShell(s);
    const a = (performance.now() - t0) / 50;
    const t1 = performance.now();
    for (let i = 0; i < 50; i++) p.parse(s)?.delete();
    return [a, (performance.now() - t1) / 50, s] as const;
  });
  per.sort((x, y) => y[0] - x[0]);
  for (const [a, b, s] of per.slice(0, 12))
    console.log((a * 1000).toFixed(0), (b * 1000).toFixed(0), JSON.stringify(s).slice(0, 80));
  console.log(
    "parse  ",
    run((s) => p.parse(s)?.delete()),
  );
  console.log(
    "analyze",
    run((s) => analyzeShell(s)),
  );
}, 60000);
