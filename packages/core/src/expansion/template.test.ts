import fc from "fast-check";
import { catchError } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";
import { SlashiErrorCode, isSlashiError } from "../errors.js";
import type { SlashiError } from "../errors.js";
import { escapeTemplate, findVariables, isSecretVariable, parseTemplate } from "./template.js";

const failure = (fn: () => unknown): SlashiError => catchError(fn, isSlashiError);

describe("parseTemplate", () => {
  it("splits literal text and references", () => {
    expect(parseTemplate("git commit -m ${q:args} # ${file}")).toEqual([
      "git commit -m ",
      { text: "${q:args}", offset: 14, kind: "args", name: "args", quoted: true },
      " # ",
      { text: "${file}", offset: 26, kind: "file", name: "file", quoted: false },
    ]);
  });

  it("reads the argument of env, config and input references", () => {
    expect(findVariables("${env:HOME}${config:editor.tabSize}${q:input:branch-name}")).toEqual([
      { text: "${env:HOME}", offset: 0, kind: "env", argument: "HOME", name: "env:HOME", quoted: false },
      {
        text: "${config:editor.tabSize}",
        offset: 11,
        kind: "config",
        argument: "editor.tabSize",
        name: "config:editor.tabSize",
        quoted: false,
      },
      {
        text: "${q:input:branch-name}",
        offset: 35,
        kind: "input",
        argument: "branch-name",
        name: "input:branch-name",
        quoted: true,
      },
    ]);
  });

  it("turns $${ into a literal ${ and leaves other dollars alone", () => {
    expect(parseTemplate("echo $${HOME} $HOME $$ $1 cost: 5$")).toEqual([
      "echo ${HOME} $HOME $$ $1 cost: 5$",
    ]);
    expect(parseTemplate("$$${file}")).toEqual(["$${file}"]);
    expect(parseTemplate("$${x}${file}")).toEqual([
      "${x}",
      { text: "${file}", offset: 5, kind: "file", name: "file", quoted: false },
    ]);
  });

  it("returns no parts for an empty text", () => {
    expect(parseTemplate("")).toEqual([]);
  });

  const malformed: [string, number][] = [
    ["echo ${file", 5],
    ["${}", 0],
    ["a ${ selection}", 2],
    ["${q:}", 0],
    ["${q:q:args}", 0],
    ["${env:}", 0],
    ["${env:1X}", 0],
    ["${env:A B}", 0],
    ["${config:a..b}", 0],
    ["${input:-x}", 0],
    ["${env}", 0],
    ["${a${file}}", 0],
    ["${sel\u200Bection}", 0],
  ];
  for (const [text, offset] of malformed) {
    it(`rejects the malformed reference in ${JSON.stringify(text)} as INVALID_VARIABLE`, () => {
      const err = failure(() => parseTemplate(text));
      expect(err.code).toBe(SlashiErrorCode.INVALID_VARIABLE);
      expect(err.data.offset).toBe(offset);
    });
  }

  for (const text of [
    "${foo}",
    "${command:workbench.action.terminal.new}",
    "${workspaceFolder:api}",
    "${q:pathSeparator}",
    "${Selection}",
  ]) {
    it(`rejects the unknown variable in ${JSON.stringify(text)} as UNDEFINED_VARIABLE`, () => {
      expect(failure(() => parseTemplate(text)).code).toBe(SlashiErrorCode.UNDEFINED_VARIABLE);
    });
  }

  it("points at the unterminated reference and explains the escape", () => {
    const err = failure(() => parseTemplate("ok ${file} then ${broken"));
    expect(err.message).toBe(
      'unterminated variable reference "${broken": add "}" or write "$${" for a literal "${"',
    );
    expect(err.data).toMatchObject({ offset: 16 });
  });
});

describe("isSecretVariable", () => {
  it("marks env, config and clipboard, quoted or not", () => {
    const refs = findVariables(
      "${env:A}${q:config:b}${clipboard}${q:clipboard}${selection}${input:x}${args}",
    );
    expect(refs.map(isSecretVariable)).toEqual([true, true, true, true, false, false, false]);
  });
});

describe("escapeTemplate", () => {
  it("escapes every ${ so that any text parses back to itself", () => {
    expect(escapeTemplate("a ${b} $${c} $")).toBe("a $${b} $$${c} $");
    const dollarsAndBraces = fc.string({ unit: fc.constantFrom("$", "{", "}", "a", ":", "q") });
    fc.assert(
      fc.property(fc.oneof(fc.string(), dollarsAndBraces), (text) => {
        expect(parseTemplate(escapeTemplate(text)).join("")).toBe(text);
        expect(findVariables(escapeTemplate(text))).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});

describe("parseTemplate on any text", () => {
  it("either parses or throws INVALID_VARIABLE or UNDEFINED_VARIABLE, and literals keep every other character", () => {
    const templateish = fc.string({
      unit: fc.constantFrom("$", "{", "}", "q:", "env:", "file", "x", " ", ":"),
    });
    fc.assert(
      fc.property(fc.oneof(fc.string(), templateish), (text) => {
        try {
          const parts = parseTemplate(text);
          const rebuilt = parts.map((p) => (typeof p === "string" ? p : p.text)).join("");
          // only the escapes shrink: each $${ becomes ${
          expect(rebuilt.length).toBe(text.length - (text.length - text.replaceAll("$${", "").length) / 3);
        } catch (error) {
          expect(isSlashiError(error)).toBe(true);
          expect([SlashiErrorCode.INVALID_VARIABLE, SlashiErrorCode.UNDEFINED_VARIABLE]).toContain(
            (error as SlashiError).code,
          );
        }
      }),
      { numRuns: 1000 },
    );
  });
});
