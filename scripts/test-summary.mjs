#!/usr/bin/env node
// Sums every package's vitest JSON report (and the VS Code end-to-end report) into one closing line: "Tests: N passed, N failed, N skipped".
// Exits non-zero when a report is missing for a package that has tests, or when anything failed.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
for (const group of ["packages", "apps"]) {
  const dir = join(root, group);
  if (!existsSync(dir)) continue;
  for (const name of readdirSync(dir)) {
    const pkgDir = join(dir, name);
    const pkgJson = join(pkgDir, "package.json");
    if (!existsSync(pkgJson)) continue;
    const pkg = JSON.parse(readFileSync(pkgJson, "utf8"));
    if (!pkg.scripts?.test) continue;
    const report = join(pkgDir, ".test-results.json");
    if (!existsSync(report)) {
      missing.push(`${group}/${name}`);
      continue;
    }
    for (const [file, label] of [
      [report, pkg.name],
      [join(pkgDir, ".e2e-results.json"), `${pkg.name} (e2e)`],
    ]) {
      if (!existsSync(file)) continue;
      const r = JSON.parse(readFileSync(file, "utf8"));
      passed += r.numPassedTests ?? 0;
      failed += r.numFailedTests ?? 0;
      skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
      console.log(`${label.padEnd(34)} ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
    }
  }
}
if (missing.length > 0) {
  console.log(`no test report from: ${missing.join(", ")}`);
  failed += missing.length;
}
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
