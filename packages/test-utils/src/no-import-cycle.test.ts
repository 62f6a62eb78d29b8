// The shared ESLint config's import-cycle rule (eslint-rules/no-import-cycle.js), run by ESLint itself on small
// module graphs written to a temporary directory. It lives here because the rule has no package of its own.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { afterAll, describe, expect, it } from "vitest";
import importCycles, { valueImports } from "../../../eslint-rules/no-import-cycle.js";
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

  it("ignores type-only imports and modules that do not lead back", async () => {
    const files = {
      "a.ts":
        'import type { B } from "./b.js";\nimport { type C } from "./c.js";\nimport "./d.js";\nexport type A = B | C;\n',
      "b.ts": 'import type { A } from "./a.js";\nexport type B = A[];\n',
      "c.ts": 'import { type A } from "./a.js";\nexport type C = A;\n',
      "d.ts": "export const d = 1;\n",
    };
    expect(await cycleMessages(files, "a.ts")).toEqual([]);
    expect(await cycleMessages(files, "b.ts")).toEqual([]);
  });

  it("reads value, re-export, side-effect and dynamic imports, and skips type-only ones", () => {
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
    expect(valueImports(text)).toEqual(["./x.js", "./w.js", "./all.js", "./side.js", "./lazy.js"]);
  });
});
