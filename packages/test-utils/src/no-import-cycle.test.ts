// The shared ESLint config's import-cycle rule (eslint-rules/no-import-cycle.js), run by ESLint itself on small
// module graphs written to a temporary directory. It lives here because the rule has no package of its own.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { afterAll, describe, expect, it } from "vitest";
import importCycles, { relativeImports } from "../../../eslint-rules/no-import-cycle.js";
import { tempDir } from "./temp.js";

const box = tempDir("slashi-cycle-");
afterAll(() => box.remove());

async function cycleMessages(files: Record<string, string>, lint: string): Promise<string[]> {
  const dir = path.join(box.dir, String(Math.random()).slice(2));
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ["**/*.ts"],
        languageOptions: { parser: tseslint.parser },
        plugins: { slashi: importCycles },
        rules: { "slashi/no-import-cycle": "error" },
      },
    ],
  });
  const [result] = await eslint.lintFiles([path.join(dir, lint)]);
  return (result?.messages ?? []).map((m) => m.message);
}

describe("no-import-cycle", () => {
  it("reports a module that reaches itself through value imports, naming the whole cycle", async () => {
    const messages = await cycleMessages(
      {
        "a.ts": 'import { b } from "./b.js";\nexport const a = () => b;\n',
        "b.ts": 'import { c } from "./sub/c.js";\nexport const b = c;\n',
        "sub/c.ts": 'export { a as c } from "../a.js";\n',
      },
      "a.ts",
    );
    expect(messages).toEqual(["import cycle: a.ts → b.ts → sub/c.ts → a.ts"]);
  });

  it("reports a cycle made of type-only imports, in either spelling", async () => {
    const files = {
      "a.ts": 'import type { B } from "./b.js";\nexport type A = B | string;\n',
      "b.ts": 'import { type C } from "./c.js";\nexport type B = C[];\n',
      "c.ts": 'export type { A as C } from "./a.js";\n',
    };
    expect(await cycleMessages(files, "a.ts")).toEqual(["import cycle: a.ts → b.ts → c.ts → a.ts"]);
  });

  it("leaves alone modules that do not lead back", async () => {
    const files = {
      "a.ts":
        'import type { B } from "./b.js";\nimport { c } from "./c.js";\nimport "./d.js";\nexport type A = B;\nexport const a = c;\n',
      "b.ts": 'import type { D } from "./d.js";\nexport type B = D[];\n',
      "c.ts": 'import { d } from "./d.js";\nexport const c = d;\n',
      "d.ts": "export type D = number;\nexport const d = 1;\n",
    };
    for (const file of Object.keys(files)) expect(await cycleMessages(files, file)).toEqual([]);
  });

  it("reads value, type, re-export, side-effect and dynamic imports, and leaves out packages", () => {
    const text = [
      'import { x } from "./x.js";',
      'import type { T } from "./t.js";',
      'import { type U, type V } from "./u.js";',
      'import { type W, w } from "./w.js";',
      'export * from "./all.js";',
      'export type { Z } from "./z.js";',
      'import "./side.js";',
      'const lazy = import("./lazy.js");',
      'import { pkg } from "@slashi/core";',
    ].join("\n");
    expect(relativeImports(text)).toEqual([
      "./x.js",
      "./t.js",
      "./u.js",
      "./w.js",
      "./all.js",
      "./z.js",
      "./side.js",
      "./lazy.js",
    ]);
  });
});
