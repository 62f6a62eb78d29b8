// Builds slashi-mcp: one ESM bundle for Node 20 (dist/bin.js) with the SDK, zod, core and runtime inside, and
// the two tree-sitter wasm files copied next to it (src/main.ts loads them from there).
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
  outfile: join(dist, "bin.js"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "bundle",
  // Workspace packages resolve to their TypeScript sources.
  conditions: ["@slashi/source"],
  // jsonc-parser publishes a UMD "main" esbuild cannot follow; its ESM build is under "module".
  mainFields: ["module", "main"],
  define: { __SLASHI_VERSION__: JSON.stringify(pkg.version) },
  // Some bundled CommonJS code (execa's dependencies, ajv) calls require() for Node built-ins.
  banner: {
    js: 'import { createRequire as __slashiRequire } from "node:module"; const require = __slashiRequire(import.meta.url);',
  },
  legalComments: "none",
  logLevel: "warning",
});
chmodSync(join(dist, "bin.js"), 0o755);

const coreRequire = createRequire(join(root, "../../packages/core/package.json"));
copyFileSync(
  join(dirname(coreRequire.resolve("web-tree-sitter")), "web-tree-sitter.wasm"),
  join(dist, "web-tree-sitter.wasm"),
);
copyFileSync(
  coreRequire.resolve("tree-sitter-bash/tree-sitter-bash.wasm"),
  join(dist, "tree-sitter-bash.wasm"),
);
