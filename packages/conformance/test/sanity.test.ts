import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import {
  caseSchemaPath,
  casesDir,
  compareWithBaseline,
  listAreas,
  listCaseFiles,
  loadCases,
  notApplicableProblems,
  parseNotApplicable,
} from "../src/index.js";

const schema = JSON.parse(readFileSync(caseSchemaPath, "utf8"));
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
const areas = listAreas();

describe("conformance suite sanity", () => {
  it("has the known areas and nothing else", () => {
    expect(areas).toEqual([
      "enkaidu",
      "expansion",
      "fingerprint",
      "oracle",
      "policy",
      "quoting",
      "shell",
      "steps",
    ]);
  });

  for (const area of areas) {
    for (const file of listCaseFiles(area)) {
      it(`${file} is a valid case file`, () => {
        const data = JSON.parse(readFileSync(join(casesDir, file), "utf8"));
        const ok = validate(data);
        expect(validate.errors ?? [], `${file}`).toEqual([]);
        expect(ok).toBe(true);
      });
    }
  }

  it("gives every case a unique id across the suite", () => {
    const seen = new Map<string, string>();
    const dupes: string[] = [];
    for (const area of areas) {
      for (const c of loadCases(area)) {
        const prev = seen.get(c.id);
        if (prev) dupes.push(`${c.id} in ${prev} and ${c.file}`);
        seen.set(c.id, c.file);
      }
    }
    expect(dupes).toEqual([]);
  });

  it("describes every case in the present tense without 'should' or 'test that'", () => {
    const bad = areas
      .flatMap((a) => loadCases(a))
      .filter((c) => /\bshould\b|^test that\b|^tests? /i.test(c.description))
      .map((c) => `${c.id}: ${c.description}`);
    expect(bad).toEqual([]);
  });

  it("rejects a case file with a missing field", () => {
    expect(validate([{ id: "x-1", description: "has no expected value", input: 1 }])).toBe(false);
  });
});

describe("compareWithBaseline", () => {
  it("reports new failures and stale expected failures", () => {
    expect(compareWithBaseline(["a", "b"], ["b", "c"])).toEqual([
      "fails but is not an expected failure: a",
      "passes now, remove it from the expected failures: c",
    ]);
  });

  it("accepts a run that matches its baseline", () => {
    expect(compareWithBaseline(["b"], ["b"])).toEqual([]);
  });
});

describe("not-applicable lists", () => {
  const reason = "the host has no input for this";

  it("accepts entries that name a case of the suite once, with a reason", () => {
    expect(notApplicableProblems(parseNotApplicable([{ id: "a", reason }], "list"), ["a", "b"])).toEqual([]);
  });

  it("reports a missing or too short reason, an unknown id and a repeated id", () => {
    const entries = parseNotApplicable(
      [
        { id: "a" },
        { id: "b", reason: "n/a" },
        { id: "x", reason },
        { id: "c", reason },
        { id: "c", reason },
      ],
      "list",
    );
    expect(notApplicableProblems(entries, ["a", "b", "c"])).toEqual([
      "gives no reason (at least 20 characters): a",
      "gives no reason (at least 20 characters): b",
      "is listed twice: c",
      "names no case of this suite: x",
    ]);
  });

  it("refuses a list that is not an array of objects with an id", () => {
    expect(() => parseNotApplicable(["a"], "list")).toThrow(/at \/0/);
    expect(() => parseNotApplicable({ a: reason }, "list")).toThrow(/array/);
  });
});
