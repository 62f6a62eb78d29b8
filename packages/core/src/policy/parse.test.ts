import { catchError } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";
import { isSlashiError } from "../errors.js";
import type { SlashiError } from "../errors.js";
import type { ShellAnalysis } from "../shell/types.js";
import type { AnalyzeFn } from "./deps.js";
import { parsePolicy, validatePolicyDocument } from "./parse.js";

/** A stand-in analyser: splits on `|`, `&&` and `;`, then on white space. */
const analyze: AnalyzeFn = (script) => {
  const commands = script
    .split(/\||&&|;/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((text) => {
      const argv = text.split(/\s+/);
      return {
        text,
        argv,
        effective: argv,
        dynamic: [],
        assignments: [],
        redirects: [],
        wrappers: [],
        staticProgram: true,
        context: [],
        lookupOnly: false,
      };
    });
  return { language: "bash", commands, findings: [], incomplete: false } satisfies ShellAnalysis;
};

const failure = (text: string): SlashiError =>
  catchError(() => parsePolicy(text, "policy.json", { analyze }), isSlashiError);

describe("parsePolicy", () => {
  it("parses a valid file with comments", () => {
    const doc = parsePolicy(
      `{
        // team defaults
        "version": 1,
        "extends": ["recommended"],
        "rules": [
          { "match": ["git", ["push", "fetch"]], "decision": "ask", "reason": "talks to a remote",
            "examples": { "match": ["git push origin"], "notMatch": ["git pull"] } },
        ],
        "approvedCommands": ["make test"],
      }`,
      "policy.json",
      { analyze },
    );
    expect(doc.rules?.[0]?.decision).toBe("ask");
    expect(doc.approvedCommands).toEqual(["make test"]);
  });

  it("reports schema problems with line, column and JSON path", () => {
    const error = failure(
      '{\n  "version": 1,\n  "rules": [\n    { "match": ["ls"], "decision": "maybe" }\n  ]\n}',
    );
    expect(error.code).toBe("SCHEMA_INVALID");
    expect(error.data).toMatchObject({ file: "policy.json", line: 4, jsonPath: "/rules/0/decision" });
  });

  it("rejects a zero-token rule", () => {
    const error = failure('{ "version": 1, "rules": [{ "match": [], "decision": "allow" }] }');
    expect(error.code).toBe("SCHEMA_INVALID");
    expect(error.data.jsonPath).toBe("/rules/0/match");
  });

  it("rejects a rule that starts with the end marker", () => {
    const error = failure('{ "version": 1, "rules": [{ "match": ["$"], "decision": "allow" }] }');
    expect(error.code).toBe("INVALID_POLICY");
    expect(error.data).toMatchObject({ jsonPath: "/rules/0/match/0", line: 1 });
    expect(error.message).toMatch(/no tokens to match/);
  });

  it("rejects an end marker that is not last", () => {
    const error = failure('{ "version": 1, "rules": [{ "match": ["git", "$", "x"], "decision": "allow" }] }');
    expect(error.data.jsonPath).toBe("/rules/0/match/1");
  });

  it("rejects two rules with the same pattern and different decisions, naming both", () => {
    const error = failure(`{ "version": 1, "rules": [
      { "match": ["git", ["push", "fetch"]], "decision": "allow" },
      { "match": ["ls"], "decision": "allow" },
      { "match": ["git", ["fetch", "push"]], "decision": "deny" }
    ] }`);
    expect(error.code).toBe("INVALID_POLICY");
    expect(error.data).toMatchObject({ jsonPath: "/rules/2", line: 4, rule: "/rules/2", other: "/rules/0" });
    expect(error.message).toMatch(/contradicts rule \/rules\/0/);
  });

  it("rejects an approvedCommands entry that contradicts a rule of the same file", () => {
    const error = failure(
      '{ "version": 1, "rules": [{ "match": ["git", "push"], "decision": "deny" }], "approvedCommands": ["git  push"] }',
    );
    expect(error.code).toBe("INVALID_POLICY");
    expect(error.data).toMatchObject({ jsonPath: "/approvedCommands/0", other: "/rules/0" });
  });

  it("accepts a repeated rule with the same decision", () => {
    expect(() =>
      parsePolicy(
        '{ "version": 1, "rules": [{ "match": ["ls"], "decision": "allow" }, { "match": ["ls"], "decision": "allow" }] }',
        "p",
        { analyze },
      ),
    ).not.toThrow();
  });

  it("rejects a match example the rule does not match, naming the rule and the example", () => {
    const error = failure(`{ "version": 1, "rules": [
      { "match": ["ls"], "decision": "allow" },
      { "match": ["git", "status"], "decision": "allow", "examples": { "match": ["git status", "git -C x status"] } }
    ] }`);
    expect(error.code).toBe("INVALID_POLICY");
    expect(error.data).toMatchObject({
      jsonPath: "/rules/1/examples/match/1",
      rule: "/rules/1",
      example: "git -C x status",
      line: 3,
    });
    expect(error.message).toContain('"git -C x status" does not match');
  });

  it("rejects a notMatch example the rule matches", () => {
    const error = failure(`{ "version": 1, "rules": [
      { "match": ["rm"], "decision": "deny", "examples": { "notMatch": ["ls", "ls | rm x"] } }
    ] }`);
    expect(error.data).toMatchObject({ jsonPath: "/rules/0/examples/notMatch/1", example: "ls | rm x" });
  });

  it("matches examples against every command of a line", () => {
    expect(() =>
      parsePolicy(
        '{ "version": 1, "rules": [{ "match": ["wc", "-l"], "decision": "allow", "examples": { "match": ["ls | wc -l"] } }] }',
        "p",
        { analyze },
      ),
    ).not.toThrow();
  });

  it("rejects a blank Enkaidu prefix", () => {
    const error = failure('{ "version": 1, "approvedCommands": ["   "] }');
    expect(error.data.jsonPath).toBe("/approvedCommands/0");
  });

  it("rejects unknown keys and a wrong version", () => {
    expect(failure('{ "version": 1, "allow": ["ls"] }').data.jsonPath).toBe("/allow");
    expect(failure('{ "version": 2 }').code).toBe("SCHEMA_INVALID");
    expect(failure('{ "version": 1, ').code).toBe("INVALID_JSON");
  });

  it("checks a document given as a value, locating errors by JSON path", () => {
    const error = catchError(
      () =>
        validatePolicyDocument(
          {
            version: 1,
            rules: [
              { match: ["ls"], decision: "allow" },
              { match: ["ls"], decision: "deny" },
            ],
          },
          "pack:acme",
          { analyze },
        ),
      isSlashiError,
    );
    expect(error).toMatchObject({
      code: "INVALID_POLICY",
      data: { file: "pack:acme", jsonPath: "/rules/1" },
    });
    expect(error.data.line).toBeUndefined();
    expect(() => validatePolicyDocument({ version: 1, rules: "x" }, "pack:acme")).toThrow(
      expect.objectContaining({
        code: "SCHEMA_INVALID",
        data: expect.objectContaining({ jsonPath: "/rules" }),
      }),
    );
  });
});
