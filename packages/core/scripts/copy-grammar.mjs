// Copies the tree-sitter-bash grammar into dist/, so the published package carries it and loadShellParser finds
// it next to the compiled modules (tree-sitter-bash itself is only a development dependency).
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const grammar = createRequire(join(root, "package.json")).resolve("tree-sitter-bash/tree-sitter-bash.wasm");
mkdirSync(join(root, "dist"), { recursive: true });
copyFileSync(grammar, join(root, "dist", "tree-sitter-bash.wasm"));
