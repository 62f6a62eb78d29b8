import { catchError } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";
import { isSlashiError } from "../errors.js";
import { commandFromArgv } from "../safety/argv.js";
import type { ShellAnalysis } from "../shell/types.js";
import type { AnalyzeFn } from "./deps.js";
import { MAX_POLICY_LAYERS, POLICY_LIMITS } from "./limits.js";
import { parsePolicy, validatePolicyDocument } from "./parse.js";
import { resolvePolicy } from "./resolve.js";
import type { PolicyDocument, PolicyLayer } from "./types.js";

/** A stand-in analyser (one command, split on spaces) that counts its calls. */
function countingAnalyzer(): { analyze: AnalyzeFn; calls: () => number } {
  let calls = 0;
  const analyze: AnalyzeFn = (script) => {
    calls++;
    const commands = [commandFromArgv(script.split(" "))];
    return { language: "bash", commands, findings: [], incomplete: false } satisfies ShellAnalysis;
  };
  return { analyze, calls: () => calls };
}

const L = POLICY_LIMITS;
const words = (n: number, stem = "w"): string[] => Array.from({ length: n }, (_, i) => `${stem}${i}`);

/** Each limit at its value: the document holding just that list, full. */
const AT: [string, PolicyDocument][] = [
  [
    "rules",
    { version: 1, rules: Array.from({ length: L.rules }, (_, i) => ({ match: [`p${i}`], decision: "ask" })) },
  ],
  [
    "pattern tokens",
    { version: 1, rules: [{ match: ["p", ...words(L.patternTokens - 1)], decision: "ask" }] },
  ],
  [
    "alternatives and word length",
    {
      version: 1,
      rules: [{ match: ["p", [...words(L.alternatives - 1), "w".repeat(L.wordLength)]], decision: "ask" }],
    },
  ],
  [
    "examples and their characters",
    {
      version: 1,
      rules: Array.from({ length: L.examples }, (_, i) => ({
        match: [`p${i}`, "*"],
        decision: "ask",
        examples: { match: [`p${i} `.padEnd(Math.floor(L.exampleCharacters / L.examples), "x")] },
      })),
    },
  ],
  ["extends", { version: 1, extends: ["recommended", ...words(L.extends - 1, "pack-")] }],
  [
    "prefix lists",
    {
      version: 1,
      allowedCommands: words(L.prefixes),
      approvedCommands: words(L.prefixes),
      restrictedTerms: words(L.prefixes),
      networkAllowedCommands: words(L.prefixes),
    },
  ],
];

/** Each limit, one over: the change to the accepted document and the JSON path the error names. */
const OVER: [string, (doc: PolicyDocument) => PolicyDocument, string][] = [
  [
    "rules",
    (d) => ({
      ...d,
      rules: Array.from({ length: L.rules + 1 }, (_, i) => ({ match: [`q${i}`], decision: "ask" })),
    }),
    "/rules",
  ],
  [
    "pattern tokens",
    (d) => ({ ...d, rules: [{ match: ["q", ...words(L.patternTokens)], decision: "ask" }] }),
    "/rules/0/match",
  ],
  [
    "alternatives",
    (d) => ({ ...d, rules: [{ match: ["q", words(L.alternatives + 1)], decision: "ask" }] }),
    "/rules/0/match/1",
  ],
  [
    "word length",
    (d) => ({ ...d, rules: [{ match: ["q", ["a", "b".repeat(L.wordLength + 1)]], decision: "ask" }] }),
    "/rules/0/match/1/1",
  ],
  [
    "examples",
    (d) => ({
      ...d,
      rules: [{ match: ["q"], decision: "ask", examples: { notMatch: words(L.examples + 1) } }],
    }),
    `/rules/0/examples/notMatch/${L.examples}`,
  ],
  [
    "example characters",
    (d) => ({
      ...d,
      rules: [
        {
          match: ["q"],
          decision: "ask",
          examples: { match: ["q"], notMatch: ["x".repeat(L.exampleCharacters)] },
        },
      ],
    }),
    "/rules/0/examples/notMatch/0",
  ],
  ["extends", (d) => ({ ...d, extends: words(L.extends + 1) }), "/extends"],
  ...(["allowedCommands", "approvedCommands", "restrictedTerms", "networkAllowedCommands"] as const).map(
    (key): [string, (doc: PolicyDocument) => PolicyDocument, string] => [
      key,
      (d) => ({ ...d, [key]: words(L.prefixes + 1) }),
      `/${key}`,
    ],
  ),
];

describe("policy limits", () => {
  it.each(AT)("accepts a file at the limit of %s, and checks each of its examples", (_, doc) => {
    const { analyze, calls } = countingAnalyzer();
    const text = JSON.stringify(doc);
    expect(text.length).toBeLessThanOrEqual(L.text);
    expect(parsePolicy(text, "full.json", { analyze })).toEqual(doc);
    const examples = (doc.rules ?? []).filter((rule) => rule.examples).length;
    expect(calls()).toBe(examples);
    expect(validatePolicyDocument(doc, "full.json", { analyze })).toEqual(doc);
  });

  it("refuses a file longer than its limit before parsing it", () => {
    const text = `{ "version": 1 }${" ".repeat(L.text)}`;
    const error = catchError(() => parsePolicy(text, "long.json"), isSlashiError);
    expect(error.code).toBe("INVALID_POLICY");
    expect(error.data).toMatchObject({ file: "long.json", jsonPath: "", limit: L.text, count: text.length });
    expect(parsePolicy(text.slice(0, L.text), "long.json")).toEqual({ version: 1 });
  });

  it.each(OVER)(
    "refuses a file over the limit of %s, at its JSON path with the limit",
    (_, change, jsonPath) => {
      const doc = change({ version: 1 });
      const { analyze, calls } = countingAnalyzer();
      const error = catchError(
        () => parsePolicy(JSON.stringify(doc, null, 1), "big.json", { analyze }),
        isSlashiError,
      );
      expect(error.code).toBe("INVALID_POLICY");
      expect(error.data).toMatchObject({ file: "big.json", jsonPath });
      expect(error.data.line).toBeGreaterThan(0);
      expect(error.data.limit).toBeTypeOf("number");
      expect(error.message).toContain(`limit of ${String(error.data.limit)}`);
      // refused before a single example is parsed: the cost of a large file is what the limits bound
      expect(calls()).toBe(0);
      const value = catchError(() => validatePolicyDocument(doc, "pack:big", { analyze }), isSlashiError);
      expect(value.data).toMatchObject({ file: "pack:big", jsonPath });
    },
  );

  it("refuses the 7 MB policy that kept a hook busy for 32 s without parsing one example", () => {
    const rules = Array.from({ length: 40_000 }, (_, i) => ({
      match: [`c${i}`, "x"],
      decision: "ask",
      examples: { match: Array.from({ length: 4 }, () => `c${i} x $(a) $(b) $(c)`) },
    }));
    const { analyze, calls } = countingAnalyzer();
    const error = catchError(
      () => parsePolicy(JSON.stringify({ version: 1, rules }), ".vscode/slashi-policy.json", { analyze }),
      isSlashiError,
    );
    expect(error.data).toMatchObject({ jsonPath: "", limit: L.text });
    expect(calls()).toBe(0);
  });

  it("holds for layers that reach the resolver without the file parser (an Enkaidu config, a what-if)", () => {
    const layer: PolicyLayer = {
      kind: "workspace",
      source: "enkaidu.yaml",
      document: { version: 1, restrictedTerms: words(L.prefixes + 1) },
    };
    const error = catchError(() => resolvePolicy([layer]), isSlashiError);
    expect(error.data).toMatchObject({
      file: "enkaidu.yaml",
      jsonPath: "/restrictedTerms",
      limit: L.prefixes,
    });
  });

  it(`refuses more than ${MAX_POLICY_LAYERS} layers, extends expanded`, () => {
    const packs = Array.from({ length: MAX_POLICY_LAYERS }, (_, i): PolicyLayer => ({
      kind: "pack",
      source: `pack-${i}`,
      document: { version: 1 },
    }));
    const user: PolicyLayer = { kind: "user", source: "policy.json", document: { version: 1 } };
    expect(resolvePolicy([user, ...packs.slice(1)]).layers).toHaveLength(MAX_POLICY_LAYERS);
    const error = catchError(() => resolvePolicy([user, ...packs]), isSlashiError);
    expect(error.code).toBe("INVALID_POLICY");
    expect(error.data).toMatchObject({ limit: MAX_POLICY_LAYERS, count: MAX_POLICY_LAYERS + 1 });
  });
});
