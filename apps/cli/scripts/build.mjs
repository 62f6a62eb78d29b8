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

// Two dependencies are large and only needed by some commands: ajv (compiling a policy or team file schema) and
// execa (running a command). Each is bundled on its own as CommonJS next to the binary and replaced in the main
// bundle by a small shim that requires it on first use, so `slashi check` and `slashi hook` do not parse them.
const VENDORED = {
  "ajv/dist/2020.js": {
    file: "vendor-ajv.cjs",
    from: "../../packages/core",
    source: 'export { Ajv2020 } from "ajv/dist/2020.js";',
    shim: "export function Ajv2020(options) { return new (load().Ajv2020)(options); }",
  },
  execa: {
    file: "vendor-execa.cjs",
    from: "../../packages/runtime",
    source: 'export { execa } from "execa";',
    shim: "export function execa(...args) { return load().execa(...args); }",
  },
};

for (const vendored of Object.values(VENDORED)) {
  await build({
    stdin: { contents: vendored.source, resolveDir: join(root, vendored.from), loader: "js" },
    outfile: join(dist, vendored.file),
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    minify: true,
    legalComments: "none",
    logLevel: "warning",
  });
}

/** Resolves the vendored imports to their shims. */
const lazyVendor = {
  name: "lazy-vendor",
  setup(b) {
    const filter = new RegExp(
      `^(${Object.keys(VENDORED)
        .map((k) => k.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"))
        .join("|")})$`,
    );
    b.onResolve({ filter }, (args) => ({ path: args.path, namespace: "lazy-vendor" }));
    b.onLoad({ filter: /.*/, namespace: "lazy-vendor" }, (args) => {
      const vendored = VENDORED[args.path];
      return {
        loader: "js",
        contents: [
          'import { createRequire } from "node:module";',
          "let loaded;",
          `const load = () => (loaded ??= createRequire(import.meta.url)("./${vendored.file}"));`,
          vendored.shim,
        ].join("\n"),
      };
    });
  },
};

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
  plugins: [lazyVendor],
  minify: true,
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
