import { it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { loadShellParser, analyzeShell } from "./index.js";
import { bashParserOrThrow } from "./parser.js";
import type { Tree, Node } from "web-tree-sitter";
interface M {
  type: string;
  named: boolean;
  start: number;
  end: number;
  field: string | null;
  children: M[];
}
function mirror(tree: Tree): M {
  const c = tree.walk();
  const root: M = {
    type: c.nodeType,
    named: c.nodeIsNamed,
    start: c.startIndex,
    end: c.endIndex,
    field: null,
    children: [],
  };
  const stack: M[] = [root];
  if (c.gotoFirstChild()) {
    for (;;) {
      const m: M = {
        type: c.nodeType,
        named: c.nodeIsNamed,
        start: c.startIndex,
        end: c.endIndex,
        field: c.currentFieldName,
        children: [],
      };
      stack[stack.length - 1]!.children.push(m);
      if (c.gotoFirstChild()) {
        stack.push(m);
        continue;
      }
      while (!c.gotoNextSibling()) {
        if (!c.gotoParent()) {
          c.delete();
          return root;
        }
        stack.pop();
        if (stack.length === 0) {
          c.delete();
          return root;
        }
      }
    }
  }
  c.delete();
  return root;
}
function viaNodes(n: Node): number {
  let k = 1;
  for (let i = 0; i < n.childCount; i++) k += viaNodes(n.child(i)!);
  return k;
}
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
    for (let r = 0; r < 20; r++) for (const s of scripts) fn(s);
    const t = performance.now();
    let n = 0;
    while (performance.now() - t < 2000) {
      for (const s of scripts) fn(s);
      n += scripts.length;
    }
    return `mean ${(((performance.now() - t) / n) * 1000).toFixed(1)}us`;
  }
  for (let k = 0; k < 2; k++) {
    console.log(
      "parse  ",
      run((s) => p.parse(s)?.delete()),
    );
    console.log(
      "mirror ",
      run((s) => {
        const t = p.parse(s)!;
        mirror(t);
        t.delete();
      }),
    );
    console.log(
      "nodes  ",
      run((s) => {
        const t = p.parse(s)!;
        viaNodes(t.rootNode);
        t.delete();
      }),
    );
    console.log(
      "analyze",
      run((s) => analyzeShell(s)),
    );
  }
}, 60000);
