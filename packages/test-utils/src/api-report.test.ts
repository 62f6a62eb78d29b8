// The API report script (scripts/api-report.mjs), run on a small package written to a temporary directory. It
// lives here because the script has no package of its own.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { apiReport } from "../../../scripts/api-report.mjs";
import { tempDir } from "./temp.js";

const box = tempDir("slashi-api-report-");
afterAll(() => box.remove());

/** Writes a package with `src/types.ts`, `src/use.ts` and the two entry points given, and returns its folder. */
function writePackage(index: string, internal: string): string {
  const dir = path.join(box.dir, String(Math.random()).slice(2));
  mkdirSync(path.join(dir, "src"), { recursive: true });
  const files: Record<string, string> = {
    "package.json": JSON.stringify({ name: "@example/lib", type: "module" }),
    "tsconfig.json": JSON.stringify({
      compilerOptions: { strict: true, module: "NodeNext", moduleResolution: "NodeNext", noEmit: true },
      include: ["src"],
    }),
    "src/types.ts": "export interface Options {\n  depth: number;\n}\n",
    "src/use.ts":
      'import type { Options } from "./types.js";\nexport function run(options: Options): number {\n  return options.depth;\n}\n',
    "src/index.ts": index,
    "src/internal.ts": internal,
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

const entries = { ".": "src/index.ts", "./internal": "src/internal.ts" };

describe("apiReport", () => {
  it("lists each entry point's exports", () => {
    const dir = writePackage(
      'export { run } from "./use.js";\nexport type { Options } from "./types.js";\n',
      "export const LIMIT = 3;\n",
    );
    const report = apiReport({ dir, entries });
    expect(report).toContain("## `@example/lib` (2 exports)");
    expect(report).toContain("function run: (options: Options) => number");
    expect(report).toContain("## `@example/lib/internal` (1 exports)");
  });

  it("refuses a public signature that names a type only the internal entry exports", () => {
    const dir = writePackage(
      'export { run } from "./use.js";\n',
      'export type { Options } from "./types.js";\n',
    );
    expect(() => apiReport({ dir, entries })).toThrow(/\.\/internal:Options is named by public run/);
  });
});
