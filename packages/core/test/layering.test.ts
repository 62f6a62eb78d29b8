// Keeps @slashi/core pure even if someone silences the lint rule: walks every source file and checks imports.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const srcDir = new URL("../src", import.meta.url).pathname;
const coreForbiddenImports: string[] = JSON.parse(
  readFileSync(new URL("../forbidden-imports.json", import.meta.url), "utf8"),
);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith(".ts") && !path.endsWith(".test.ts") ? [path] : [];
  });
}

const importPattern =
  /(?:import|export)[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|require\(\s*["']([^"']+)["']\s*\)/g;

describe("core layering", () => {
  const files = sourceFiles(srcDir);

  it("finds the core's source files", () => {
    expect(files.length).toBeGreaterThan(3);
  });

  it("imports no runner, file system, editor or adapter module", () => {
    const offences: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(importPattern)) {
        const spec = match[1] ?? match[2] ?? match[3] ?? "";
        if (coreForbiddenImports.includes(spec) || spec.startsWith("@slashi/") || spec.includes("/apps/")) {
          offences.push(`${relative(srcDir, file)} imports ${spec}`);
        }
      }
    }
    expect(offences).toEqual([]);
  });

  it("detects a forbidden import when one is present", () => {
    const sample = 'import { execa } from "execa";\nimport fs from "node:fs";';
    const specs = [...sample.matchAll(importPattern)].map((m) => m[1]);
    expect(specs.filter((s) => coreForbiddenImports.includes(s ?? ""))).toEqual(["execa", "node:fs"]);
  });
});
