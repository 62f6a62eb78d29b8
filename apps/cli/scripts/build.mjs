// Builds the slashi binary for Node 20: dist/bin.js, a small CommonJS entry holding only the decision-service
// client, and cli.mjs with its ES-module chunks for everything run in-process, plus the two tree-sitter wasm
// files copied next to them, where the CLI loads them from (see src/context.ts).
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
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

// The decision service answers only clients of the very same build: the build identity is a digest of every
// file of the bundle, written into the files after bundling (see src/service/protocol.ts).
const BUILD_ID_PLACEHOLDER = "@@slashi-build-id@@";

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

const define = {
  __SLASHI_VERSION__: JSON.stringify(pkg.version),
  __SLASHI_BUILD_ID__: JSON.stringify(BUILD_ID_PLACEHOLDER),
};

// Everything but the entry file: ES modules (.mjs), loaded when a command runs in-process.
await build({
  entryPoints: [join(root, "src/cli.ts")],
  outdir: dist,
  // Each command is its own chunk, loaded on first use: a hook call parses only what it needs.
  splitting: true,
  entryNames: "[name]",
  chunkNames: "[name]-[hash]",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "bundle",
  conditions: ["@slashi/source"],
  // jsonc-parser's "main" is a UMD build that esbuild cannot follow; its ESM build is under "module".
  mainFields: ["module", "main"],
  define,
  // execa and its dependencies use require() for a few Node built-ins.
  banner: {
    js: 'import { createRequire as __slashiRequire } from "node:module"; const require = __slashiRequire(import.meta.url);',
  },
  plugins: [lazyVendor],
  minify: true,
  legalComments: "none",
  logLevel: "warning",
});

// The entry file bin.js: CommonJS (a CommonJS entry starts measurably faster than an ES module on Node 20),
// one file with only the decision-service client; it imports cli.mjs when it must answer in-process.
// dist/package.json makes the .js files of dist CommonJS.
await build({
  entryPoints: [join(root, "src/bin.ts")],
  outfile: join(dist, "bin.js"),
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  packages: "bundle",
  conditions: ["@slashi/source"],
  define,
  plugins: [
    {
      name: "in-process-bundle",
      setup(b) {
        b.onResolve({ filter: /^\.\/cli\.js$/ }, () => ({ path: "./cli.mjs", external: true }));
      },
    },
  ],
  minify: true,
  legalComments: "none",
  logLevel: "warning",
});
writeFileSync(join(dist, "package.json"), `${JSON.stringify({ type: "commonjs" })}\n`);
chmodSync(join(dist, "bin.js"), 0o755);

// The wasm files come from the core's dependencies.
const coreRequire = createRequire(join(root, "../../packages/core/package.json"));
const runtimeWasm = join(dirname(coreRequire.resolve("web-tree-sitter")), "web-tree-sitter.wasm");
const bashWasm = coreRequire.resolve("tree-sitter-bash/tree-sitter-bash.wasm");
copyFileSync(runtimeWasm, join(dist, "web-tree-sitter.wasm"));
copyFileSync(bashWasm, join(dist, "tree-sitter-bash.wasm"));

const files = readdirSync(dist).sort();
const digest = createHash("sha256");
for (const file of files)
  digest
    .update(file)
    .update("\0")
    .update(readFileSync(join(dist, file)));
const buildId = digest.digest("hex").slice(0, 32);
for (const file of files.filter((f) => /\.(c|m)?js$/.test(f))) {
  const text = readFileSync(join(dist, file), "utf8");
  if (text.includes(BUILD_ID_PLACEHOLDER))
    writeFileSync(join(dist, file), text.replaceAll(BUILD_ID_PLACEHOLDER, buildId));
}
