import { catchError } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";
import { SlashiErrorCode, isSlashiError } from "../errors.js";
import type { SlashiError } from "../errors.js";
import { parseJsonc, parseJsonPointer, toJsonPointer } from "./jsonc.js";

const failure = (fn: () => unknown): SlashiError => catchError(fn, isSlashiError);

describe("parseJsonc", () => {
  it("accepts comments and trailing commas", () => {
    const doc = parseJsonc(
      '// team commands\n{\n  /* list */ "a": [1, 2,],\n  "b": "x", // end\n}\n',
      "t.json",
    );
    expect(doc.value).toEqual({ a: [1, 2], b: "x" });
  });

  it("locates values and keys by JSON Pointer with 1-based line and column", () => {
    const text = '{\n  "commands": [\n    { "name": "x", "steps": [ { "type": "terminal" } ] }\n  ]\n}';
    const doc = parseJsonc(text, "f.json");
    expect(doc.locate("")).toEqual({ line: 1, column: 1 });
    expect(doc.locate("/commands")).toEqual({ line: 2, column: 15 });
    expect(doc.locate("/commands/0/name")).toEqual({ line: 3, column: 15 });
    expect(doc.locate("/commands/0/name", { key: true })).toEqual({ line: 3, column: 7 });
    expect(doc.locate("/commands/0/steps/0/type")).toEqual({ line: 3, column: 41 });
    expect(doc.locationOf("/commands/0/steps/0")).toEqual({
      file: "f.json",
      line: 3,
      column: 31,
      jsonPath: "/commands/0/steps/0",
    });
  });

  it("falls back to the nearest existing ancestor for a missing path", () => {
    const doc = parseJsonc('{\n  "a": {\n    "b": 1 }\n}');
    expect(doc.locate("/a/missing/deeper")).toEqual({ line: 2, column: 8 });
    expect(doc.locate("/a/b/0")).toEqual({ line: 3, column: 10 });
  });

  it("counts CRLF and CR line endings and ignores a byte-order mark", () => {
    const doc = parseJsonc('\uFEFF{\r\n"a": 1,\r"b": 2}');
    expect(doc.locate("/a")).toEqual({ line: 2, column: 6 });
    expect(doc.locate("/b")).toEqual({ line: 3, column: 6 });
  });

  it("locates a character inside a string value, counting escapes as one character", () => {
    const doc = parseJsonc('{"a": "x\\n\\u0041${env:X}",\n "b": 1}');
    expect(doc.locate("/a", { index: 0 })).toEqual({ line: 1, column: 8 });
    expect(doc.locate("/a", { index: 3 })).toEqual({ line: 1, column: 17 });
    expect(doc.locate("/a", { index: 99 })).toEqual({ line: 1, column: 25 });
    expect(doc.locate("/b", { index: 3 })).toEqual({ line: 2, column: 7 });
    expect(doc.locate("/a/x", { index: 3 })).toEqual({ line: 1, column: 7 });
  });

  it("resolves escaped pointer segments", () => {
    const doc = parseJsonc('{"a/b": {"c~d": 5}}');
    expect(doc.locate("/a~1b/c~0d")).toEqual({ line: 1, column: 17 });
    expect(parseJsonPointer("/a~1b/c~0d")).toEqual(["a/b", "c~d"]);
    expect(toJsonPointer(["a/b", "c~d", 0])).toBe("/a~1b/c~0d/0");
  });

  it("reports a missing comma with file, line and column", () => {
    const err = failure(() => parseJsonc('{\n  "a": 1\n  "b": 2\n}', ".vscode/slashi.json"));
    expect(err.code).toBe(SlashiErrorCode.INVALID_JSON);
    expect(err.message).toBe("invalid JSON: expected a comma");
    expect(err.data).toMatchObject({ file: ".vscode/slashi.json", line: 3, column: 3 });
  });

  it("reports an unterminated string and an empty document", () => {
    const unterminated = failure(() => parseJsonc('{"a": "x', "f"));
    expect(unterminated.message).toBe("invalid JSON: unterminated string");
    expect(unterminated.data).toMatchObject({ line: 1, column: 7 });
    const empty = failure(() => parseJsonc("  // nothing\n", "f"));
    expect(empty.code).toBe(SlashiErrorCode.INVALID_JSON);
    expect(empty.message).toContain("empty");
  });

  it("rejects a key repeated in one object, pointing at the repeat", () => {
    const err = failure(() => parseJsonc('{"steps": [{"command": "ls",\n "command": "rm -rf ~"}]}', "f"));
    expect(err.code).toBe(SlashiErrorCode.INVALID_JSON);
    expect(err.message).toContain('"command" appears more than once');
    expect(err.data).toMatchObject({ line: 2, column: 2, jsonPath: "/steps/0/command" });
    expect(parseJsonc('{"a": 1, "a": 2}', "f", { allowDuplicateKeys: true }).value).toEqual({ a: 2 });
  });

  it("keeps a __proto__ key as plain data", () => {
    const value = parseJsonc('{"__proto__": {"polluted": true}}').value as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });
});
