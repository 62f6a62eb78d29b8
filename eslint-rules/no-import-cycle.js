// ESLint rule: no module may reach itself again through its relative imports. A cycle through values makes the
// order in which modules initialise depend on which one is loaded first (a `const` read before it is set); a cycle
// through types alone (`import type`, `export type`) is erased by the compiler but still shows two concerns that
// belong in one module or a third one, and it turns into a value cycle with the first constant one side needs.
// So every relative import counts. Package imports (`@slashi/core`) are left out: the workspace's package graph
// has no cycles (turbo refuses them).
import { readFileSync, statSync } from "node:fs";
import path from "node:path";

const STATEMENT =
  /^\s*(?:import|export)\s+(?:type\s+)?(?:[^;'"]*?\s+from\s+)?["'](\.{1,2}\/[^"']+)["']|\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/gm;

/** The relative specifiers a module's text imports or re-exports, values and types alike. */
export function relativeImports(text) {
  const found = [];
  for (const match of text.matchAll(STATEMENT)) found.push(match[1] ?? match[2]);
  return found;
}

/** Relative imports of one file, resolved to files; cached for the lint run. */
const edgeCache = new Map();

function resolve(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  const candidates = base.endsWith(".js")
    ? [`${base.slice(0, -3)}.ts`, `${base.slice(0, -3)}.tsx`, base]
    : [base, `${base}.ts`, path.join(base, "index.ts")];
  for (const candidate of candidates) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return undefined;
}

function edgesOf(file) {
  let edges = edgeCache.get(file);
  if (edges) return edges;
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {
    // unreadable: no edges
  }
  edges = relativeImports(text)
    .map((spec) => resolve(file, spec))
    .filter((target) => target !== undefined && /\.(ts|tsx|js|mjs)$/.test(target));
  edgeCache.set(file, edges);
  return edges;
}

/** A path from `start` back to `origin` through relative imports, or undefined. */
function pathBack(origin, start) {
  const seen = new Set();
  const stack = [[start, [start]]];
  while (stack.length > 0) {
    const [file, trail] = stack.pop();
    if (file === origin) return trail;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const next of edgesOf(file)) stack.push([next, [...trail, next]]);
  }
  return undefined;
}

/** @type {import("eslint").Rule.RuleModule} */
export const noImportCycle = {
  meta: {
    type: "problem",
    docs: { description: "forbid relative imports (types included) that lead back to the importing module" },
    schema: [],
    messages: { cycle: "import cycle: {{cycle}}" },
  },
  create(context) {
    const file = context.filename;
    const report = (node, spec) => {
      const target = resolve(file, spec);
      if (target === undefined) return;
      const trail = pathBack(file, target);
      if (trail === undefined) return;
      const cwd = context.cwd ?? process.cwd();
      const cycle = [file, ...trail].map((f) => path.relative(cwd, f)).join(" → ");
      context.report({ node, messageId: "cycle", data: { cycle } });
    };
    const declaration = (node) => {
      if (node.source === null || node.source === undefined) return;
      const spec = node.source.value;
      if (typeof spec !== "string" || !spec.startsWith(".")) return;
      report(node, spec);
    };
    return {
      ImportDeclaration: declaration,
      ExportNamedDeclaration: declaration,
      ExportAllDeclaration: declaration,
      ImportExpression(node) {
        if (
          node.source.type === "Literal" &&
          typeof node.source.value === "string" &&
          node.source.value.startsWith(".")
        )
          report(node, node.source.value);
      },
    };
  },
};

/** The plugin object for the flat config. */
export default { rules: { "no-import-cycle": noImportCycle } };
