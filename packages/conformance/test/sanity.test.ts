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
  knownFailureProblems,
  loadCases,
  NOT_APPLICABLE_HOSTS,
  notApplicable,
  notApplicablePath,
  notApplicableProblems,
  parseKnownFailures,
  parseNotApplicableList,
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

describe("known-failure lists", () => {
  const reason = "the core has no rule for this yet";

  it("accepts entries that name a case of the suite once, with a reason", () => {
    expect(knownFailureProblems(parseKnownFailures([{ id: "a", reason }], "list"), ["a", "b"])).toEqual([]);
  });

  it("reports a missing or too short reason, an unknown id and a repeated id", () => {
    const entries = parseKnownFailures(
      [
        { id: "a" },
        { id: "b", reason: "n/a" },
        { id: "x", reason },
        { id: "c", reason },
        { id: "c", reason },
      ],
      "list",
    );
    expect(knownFailureProblems(entries, ["a", "b", "c"])).toEqual([
      "gives no reason (at least 20 characters): a",
      "gives no reason (at least 20 characters): b",
      "is listed twice: c",
      "names no case of this suite: x",
    ]);
  });

  it("refuses a list that is not an array of objects with an id", () => {
    expect(() => parseKnownFailures(["a"], "list")).toThrow(/at \/0/);
    expect(() => parseKnownFailures({ a: reason }, "list")).toThrow(/array/);
  });
});

describe("the not-applicable list", () => {
  const ids = new Set(["a", "b", "c"]);
  const detail = "the host has no input for this";
  const empty = Object.fromEntries(Object.keys(NOT_APPLICABLE_HOSTS).map((h) => [h, []]));
  /** The problems the loader throws with, one per line (none when it accepts the list). */
  const problemsOf = (value: unknown): string[] => {
    try {
      parseNotApplicableList(value, "na.json", ids);
      return [];
    } catch (error) {
      return (error as Error).message.split("\n");
    }
  };

  it("the shipped list is sound: every host, known cases once each, reasons of the set", () => {
    expect(() => notApplicable("vscode")).not.toThrow();
    const shipped = JSON.parse(readFileSync(notApplicablePath, "utf8")) as Record<string, unknown>;
    expect(Object.keys(shipped).sort()).toEqual(Object.keys(NOT_APPLICABLE_HOSTS).sort());
  });

  it("accepts entries with a case of the suite, a reason of the set and a detail", () => {
    const list = { ...empty, vscode: [{ case: "a", reason: "fixed-limit", detail }] };
    expect(parseNotApplicableList(list, "na.json", ids).vscode).toEqual([
      { case: "a", reason: "fixed-limit", detail },
    ]);
    expect(problemsOf(list)).toEqual([]);
  });

  it("rejects an unknown case, a repeat, a missing or unknown reason, a short detail, naming file and path", () => {
    expect(
      problemsOf({
        ...empty,
        cli: [
          { case: "x", reason: "fixed-limit", detail },
          { case: "a", reason: "fixed-limit", detail },
          { case: "a", reason: "never-shown", detail },
          { case: "b", detail },
          { case: "c", reason: "behaves differently", detail },
          { case: "c", reason: "never-shown", detail: "n/a" },
        ],
      }),
    ).toEqual([
      "na.json at /cli/0/case: names no case of the suite: x",
      "na.json at /cli/2/case: lists a a second time for cli",
      "na.json at /cli/3/reason: gives no reason",
      expect.stringMatching(
        /^na\.json at \/cli\/4\/reason: "behaves differently" is not one of other-platform, /,
      ),
      "na.json at /cli/5/case: lists c a second time for cli",
      "na.json at /cli/5/detail: says in a few words (at least 20 characters) why, on this host",
    ]);
  });

  it("rejects an unknown host, a missing host, a stray field and a list of the wrong shape", () => {
    const { mcp: _mcp, ...withoutMcp } = empty;
    expect(
      problemsOf({ ...withoutMcp, ide: [], vscode: [{ case: "a", reason: "fixed-limit", detail, id: "a" }] }),
    ).toEqual([
      "na.json at /ide: names no host (runtime-slash, cli, mcp, mcp-enkaidu, vscode)",
      "na.json at /mcp: each host has an array of entries (empty when every case applies)",
      "na.json at /vscode/0/id: is no field of an entry",
    ]);
    expect(problemsOf([])).toEqual(["na.json at /: the list is an object with one array per host"]);
    expect(problemsOf({ ...empty, cli: ["a"] })).toEqual([
      "na.json at /cli/0: an entry is an object { case, reason, detail }",
    ]);
  });

  it("reports entries that name no case of a harness's suite", () => {
    const entries = parseNotApplicableList(
      { ...empty, mcp: [{ case: "c", reason: "fixed-limit", detail }] },
      "na.json",
      ids,
    ).mcp;
    expect(notApplicableProblems(entries, ["a", "b"])).toEqual(["names no case this harness runs: c"]);
    expect(notApplicableProblems(entries, ["c"])).toEqual([]);
  });
});
