import fc from "fast-check";
import { catchError } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";
import { isSlashiError } from "../errors.js";
import { canonicalCommand, canonicalize } from "./canonical.js";

describe("canonicalize", () => {
  it("sorts keys and drops insignificant whitespace", () => {
    expect(canonicalize(JSON.parse('{ "b": 1,\n "a": [true, null, "x"] }'))).toBe(
      '{"a":[true,null,"x"],"b":1}',
    );
  });

  it("sorts keys by UTF-16 code units", () => {
    expect(canonicalize({ b: 1, a: 2, B: 3, é: 4, "\ud83d\ude00": 5, "\uff01": 6 })).toBe(
      '{"B":3,"a":2,"b":1,"\\u00e9":4,"\\ud83d\\ude00":5,"\\uff01":6}',
    );
  });

  it("writes numbers in ECMAScript shortest form", () => {
    expect(canonicalize([1, 1.0, -0, 0.1, 1e21, 1e-7, 123456789012345680000, -5.5])).toBe(
      "[1,1,0,0.1,1e+21,1e-7,123456789012345680000,-5.5]",
    );
  });

  it("keeps every character: escapes non-ASCII and controls, no normalisation", () => {
    expect(canonicalize('a"b\\c\n\u0000\u007f')).toBe('"a\\"b\\\\c\\u000a\\u0000\\u007f"');
    expect(canonicalize("é")).not.toBe(canonicalize("e\u0301"));
    expect(canonicalize("a\u200bb")).toBe('"a\\u200bb"');
    expect(canonicalize("\ud800")).toBe('"\\ud800"');
  });

  it("produces pure ASCII that parses back to the same value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalize(value);
        expect(/^[\x20-\x7e]*$/.test(text)).toBe(true);
        expect(canonicalize(JSON.parse(text))).toBe(text);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 300 },
    );
  });

  it("omits undefined members and rejects what JSON cannot hold", () => {
    expect(canonicalize({ a: undefined, b: 1 })).toBe('{"b":1}');
    for (const bad of [NaN, Infinity, [undefined], () => 1, 1n, new Date(0), { x: { y: Symbol("s") } }]) {
      expect(catchError(() => canonicalize(bad), isSlashiError).code).toBe("INVALID_STEP");
    }
  });

  it("names the JSON path of a value it rejects", () => {
    const error = catchError(() => canonicalize({ steps: [{ ms: NaN }] }), isSlashiError);
    expect(error.data.jsonPath).toBe("/steps/0/ms");
  });

  it("refuses nesting deeper than 64 levels", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 70; i++) deep = [deep];
    expect(() => canonicalize(deep)).toThrow();
  });
});

describe("canonicalCommand", () => {
  it("wraps the whole definition with the format version", () => {
    expect(canonicalCommand({ name: "x", steps: [{ type: "wait", ms: 1 }] })).toBe(
      '{"command":{"name":"x","steps":[{"ms":1,"type":"wait"}]},"format":"slashi-fp-1"}',
    );
  });
});
