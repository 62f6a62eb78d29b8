// Builds the slashi binary: an ESM bundle for Node 20 (dist/bin.js plus its chunks) with the two tree-sitter wasm files copied
// next to it, where the CLI loads them from (see src/context.ts).
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, "dist");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

await build({
  entryPoints: [join(root, "src/bin.ts")],
  outdir: dist,
  // Each command is its own chunk, loaded on first use: a hook call parses only what it needs.
  splitting: true,
  entryNames: "[name]",
  chunkNames: "[name]-[hash]",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "bundle",
  conditions: ["@slashi/source"],
  // jsonc-parser's "main" is a UMD build that esbuild cannot follow; its ESM build is under "module".
  mainFields: ["module", "main"],
  define: { __SLASHI_VERSION__: JSON.stringify(pkg.version) },
  // execa and its dependencies use require() for a few Node built-ins.
  banner: {
    js: 'import { createRequire as __slashiRequire } from "node:module"; const require = __slashiRequire(import.meta.url);',
  },
  legalComments: "none",
  logLevel: "warning",
});
chmodSync(join(dist, "bin.js"), 0o755);

// The wasm files come from the core's dependencies.
const coreRequire = createRequire(join(root, "../../packages/core/package.json"));
const runtimeWasm = join(dirname(coreRequire.resolve("web-tree-sitter")), "web-tree-sitter.wasm");
const bashWasm = coreRequire.resolve("tree-sitter-bash/tree-sitter-bash.wasm");
copyFileSync(runtimeWasm, join(dist, "web-tree-sitter.wasm"));
copyFileSync(bashWasm, join(dist, "tree-sitter-bash.wasm"));
