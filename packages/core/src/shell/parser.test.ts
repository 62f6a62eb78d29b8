import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it, vi } from "vitest";

/** A fresh copy of the shell modules, with no parser loaded. */
async function fresh() {
  vi.resetModules();
  const parser = await import("./parser.js");
  const analyze = await import("./analyze.js");
  return { ...parser, ...analyze };
}

const require = createRequire(import.meta.url);
const bashWasmPath = require.resolve("tree-sitter-bash/tree-sitter-bash.wasm");

describe("loadShellParser", () => {
  it("refuses to analyse bash before the parser is loaded", async () => {
    const m = await fresh();
    expect(m.isShellParserLoaded()).toBe(false);
    expect(() => m.analyzeShell("ls")).toThrow(expect.objectContaining({ code: "PARSER_UNAVAILABLE" }));
  });

  it("still analyses other dialects without the parser", async () => {
    const m = await fresh();
    expect(m.analyzeShell("dir", "cmd").commands[0]?.argv).toEqual(["dir"]);
  });

  it("fails with PARSER_UNAVAILABLE for a missing grammar file, then loads on retry", async () => {
    const m = await fresh();
    await expect(m.loadShellParser({ bashWasm: "/nonexistent/tree-sitter-bash.wasm" })).rejects.toMatchObject(
      {
        code: "PARSER_UNAVAILABLE",
      },
    );
    expect(m.isShellParserLoaded()).toBe(false);
    await m.loadShellParser();
    expect(m.analyzeShell("ls -la").commands[0]?.argv).toEqual(["ls", "-la"]);
  });

  it("loads the grammar from bytes and from a file URL", async () => {
    const a = await fresh();
    await a.loadShellParser({ bashWasm: new Uint8Array(readFileSync(bashWasmPath)) });
    expect(a.analyzeShell("a && b").commands).toHaveLength(2);
    const b = await fresh();
    await b.loadShellParser({ bashWasm: new URL(`file://${bashWasmPath}`).href });
    expect(b.isShellParserLoaded()).toBe(true);
  });

  it("shares one promise between concurrent callers", async () => {
    const m = await fresh();
    const first = m.loadShellParser();
    expect(m.loadShellParser()).toBe(first);
    await first;
  });
});
