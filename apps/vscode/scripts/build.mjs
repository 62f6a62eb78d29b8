// Builds the extension: one CommonJS bundle (dist/extension.cjs) with `vscode` external, the two tree-sitter wasm
// files next to it (the shell parser loads them from there), and the JSON Schemas of the team file and of policy
// files from the core (dist/team-file.schema.json, dist/policy.schema.json, used by contributes.jsonValidation).
// The repository's LICENSE is copied next to package.json, where vsce takes it into the .vsix.
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, "dist");
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  conditions: ["@slashi/source"],
  // jsonc-parser's "main" is a UMD build that esbuild cannot follow; its ESM build is under "module".
  mainFields: ["module", "main"],
  legalComments: "none",
  logLevel: "warning",
};

await build({
  ...common,
  entryPoints: [join(root, "src/extension.ts")],
  outfile: join(dist, "extension.cjs"),
  format: "cjs",
  external: ["vscode"],
  // ESM sources read import.meta.url; in the CommonJS bundle it is the bundle's own file URL.
  define: { "import.meta.url": "__slashiImportMetaUrl" },
  // The core reads import.meta.resolve only when no wasm paths are given; the extension always gives them.
  logOverride: { "empty-import-meta": "silent" },
  banner: { js: 'const __slashiImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  minify: process.env.SLASHI_NO_MINIFY !== "1",
  sourcemap: false,
});

// The team file schema, self-contained, straight from the core's source.
const schemaModule = join(dist, "schema-export.mjs");
await build({
  ...common,
  stdin: {
    contents: 'export { policySchema, standaloneSchema, teamFileSchema } from "@slashi/core";',
    resolveDir: root,
    loader: "ts",
  },
  outfile: schemaModule,
  format: "esm",
  banner: { js: 'import { createRequire as __r } from "node:module"; const require = __r(import.meta.url);' },
});
const { policySchema, standaloneSchema, teamFileSchema } = await import(pathToFileURL(schemaModule).href);
writeFileSync(
  join(dist, "team-file.schema.json"),
  `${JSON.stringify(standaloneSchema(teamFileSchema), null, 2)}\n`,
);
// The policy schema refers only to itself; without its $id an editor resolves its references locally.
const { $id: _policyId, ...policy } = policySchema;
writeFileSync(join(dist, "policy.schema.json"), `${JSON.stringify(policy, null, 2)}\n`);
rmSync(schemaModule);

const coreRequire = createRequire(join(root, "../../packages/core/package.json"));
copyFileSync(
  join(dirname(coreRequire.resolve("web-tree-sitter")), "web-tree-sitter.wasm"),
  join(dist, "web-tree-sitter.wasm"),
);
copyFileSync(
  coreRequire.resolve("tree-sitter-bash/tree-sitter-bash.wasm"),
  join(dist, "tree-sitter-bash.wasm"),
);

copyFileSync(join(root, "../../LICENSE"), join(root, "LICENSE"));
