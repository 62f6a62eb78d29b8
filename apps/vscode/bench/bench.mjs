// `pnpm bench:vscode`: bundle size, .vsix size and activation time of the packaged extension, beside an empty
// extension built and packaged the same way (esbuild CJS bundle, vsce package --no-dependencies).
// Activation is measured outside the editor, in fresh Node processes: load the bundle (with a stand-in `vscode`
// module that answers every call) and call activate(), median of several runs. That is the part of the editor's
// activation the extension itself controls; the editor adds its own fixed cost for any extension.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const vsce = join(root, "node_modules/.bin/vsce");

// 1. The real extension: build and package.
execFileSync("node", [join(root, "scripts/build.mjs")], { stdio: "inherit" });
execFileSync(
  vsce,
  ["package", "--no-dependencies", "--allow-missing-repository", "-o", "dist/slashi-vscode.vsix"],
  {
    cwd: root,
    stdio: "ignore",
  },
);

// 2. An empty extension, built the same way.
const empty = mkdtempSync(join(tmpdir(), "slashi-bench-empty-"));
mkdirSync(join(empty, "src"), { recursive: true });
writeFileSync(
  join(empty, "src/extension.ts"),
  "export function activate(): void {}\nexport function deactivate(): void {}\n",
);
writeFileSync(
  join(empty, "package.json"),
  JSON.stringify({
    name: "empty-extension",
    displayName: "Empty",
    description: "An empty extension for comparison",
    version: "0.0.0",
    publisher: "slashi",
    engines: { vscode: "^1.100.0" },
    main: "./dist/extension.cjs",
    activationEvents: ["onStartupFinished"],
  }),
);
writeFileSync(join(empty, ".vscodeignore"), "src/**\n");
await build({
  entryPoints: [join(empty, "src/extension.ts")],
  outfile: join(empty, "dist/extension.cjs"),
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  external: ["vscode"],
  minify: true,
  logLevel: "warning",
});
execFileSync(
  vsce,
  ["package", "--no-dependencies", "--allow-missing-repository", "--skip-license", "-o", "empty.vsix"],
  {
    cwd: empty,
    stdio: "ignore",
  },
);

// 3. Activation time in fresh processes.
const probe = join(empty, "probe.cjs");
writeFileSync(
  probe,
  `const Module = require("node:module");
const path = require("node:path");
const handler = { get: (t, k) => (k === "then" || (typeof k === "string" && k.endsWith("Value")) ? undefined : k in t ? t[k] : proxy()), apply: () => proxy() };
function proxy() { const f = function () {}; return new Proxy(f, handler); }
const stub = { ExtensionMode: { Test: 3 }, workspace: new Proxy({ isTrusted: false, workspaceFolders: [] }, handler) };
for (const k of ["window", "commands", "languages", "extensions", "env", "Uri", "Range", "Diagnostic", "DiagnosticSeverity", "ConfigurationTarget"]) stub[k] = proxy();
const load = Module._load;
Module._load = function (request, ...rest) { return request === "vscode" ? stub : load.call(this, request, ...rest); };
const memento = () => ({ get: () => undefined, update: async () => {}, keys: () => [] });
const context = { subscriptions: [], workspaceState: memento(), globalState: memento(), extensionMode: 1,
  extensionPath: path.dirname(path.dirname(process.argv[2])), asAbsolutePath: (p) => path.join(path.dirname(path.dirname(process.argv[2])), p) };
const t0 = process.hrtime.bigint();
const ext = require(process.argv[2]);
const t1 = process.hrtime.bigint();
ext.activate(context);
const t2 = process.hrtime.bigint();
process.stdout.write(JSON.stringify({ load: Number(t1 - t0) / 1e6, activate: Number(t2 - t1) / 1e6 }));
`,
);

function measure(bundle) {
  const loads = [];
  const activates = [];
  for (let i = 0; i < RUNS; i++) {
    const r = spawnSync(process.execPath, [probe, bundle], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`probe failed for ${bundle}: ${r.stderr}`);
    const m = JSON.parse(r.stdout);
    loads.push(m.load);
    activates.push(m.activate);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return {
    load: median(loads),
    activate: median(activates),
    total: median(loads.map((l, i) => l + activates[i])),
  };
}

const rows = [
  {
    name: "slashi-vscode",
    bundle: join(root, "dist/extension.cjs"),
    vsix: join(root, "dist/slashi-vscode.vsix"),
  },
  { name: "empty extension", bundle: join(empty, "dist/extension.cjs"), vsix: join(empty, "empty.vsix") },
].map((r) => ({
  ...r,
  ...measure(r.bundle),
  bundleBytes: statSync(r.bundle).size,
  vsixBytes: statSync(r.vsix).size,
}));

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const ms = (n) => `${n.toFixed(2)} ms`;
const load = readFileSync("/proc/loadavg", "utf8").split(" ")[0];
console.log(`VS Code extension benchmark (${RUNS} fresh Node processes each, median; load average ${load})`);
console.log("| extension | bundle | .vsix | load bundle | activate() | load + activate |");
console.log("| --- | --- | --- | --- | --- | --- |");
for (const r of rows) {
  console.log(
    `| ${r.name} | ${kb(r.bundleBytes)} | ${kb(r.vsixBytes)} | ${ms(r.load)} | ${ms(r.activate)} | ${ms(r.total)} |`,
  );
}
console.log(
  "The .vsix also carries the shell parser's wasm files (about 1.5 MB unpacked), loaded on the first terminal step, not at activation.",
);
rmSync(empty, { recursive: true, force: true });
