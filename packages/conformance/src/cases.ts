// Loading the cases: the areas under `cases/`, their files, and the cases of an area.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** One conformance case: an input and the expected result. The harness of its area gives both meaning. */
export interface ConformanceCase<I = unknown, E = unknown> {
  /** Unique across the suite. */
  id: string;
  /** What the case shows, present tense. */
  description: string;
  /** The input for the area's harness. */
  input: I;
  /** The expected result. */
  expected: E;
  /** Restricts the case to one platform family. */
  platform?: "posix" | "windows" | "linux" | "darwin";
  /** Free-form tags (`benign`, `bypass`, `incident`). */
  tags?: string[];
  /** The public incident or reference the case reproduces. */
  source?: string;
  /** Area folder the case came from (added by the loader). */
  area: string;
  /** File the case came from, relative to `cases/` (added by the loader). */
  file: string;
}

/** Absolute path of the `cases/` folder. */
export const casesDir: string = new URL("../cases/", import.meta.url).pathname;

/** Absolute path of the case file schema. */
export const caseSchemaPath: string = new URL("../case.schema.json", import.meta.url).pathname;

/** The areas (folders under `cases/`), sorted. */
export function listAreas(): string[] {
  return readdirSync(casesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** The case files of an area, relative to `cases/`, sorted. */
export function listCaseFiles(area: string): string[] {
  return readdirSync(join(casesDir, area))
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => `${area}/${name}`);
}

/**
 * Loads every case of an area, in file order.
 * @param area - folder under `cases/`, such as `quoting`
 * @returns the cases, each tagged with its area and file
 */
export function loadCases<I = unknown, E = unknown>(area: string): ConformanceCase<I, E>[] {
  return listCaseFiles(area).flatMap((file) => {
    const parsed = JSON.parse(readFileSync(join(casesDir, file), "utf8")) as Omit<
      ConformanceCase<I, E>,
      "area" | "file"
    >[];
    return parsed.map((c) => ({ ...c, area, file }));
  });
}

/**
 * Checks an adapter's results against its expected-failures baseline, which may only shrink: a failing case
 * not in the list is a failure, and a listed case that now passes is a failure too (remove it from the list).
 * @param failedIds - ids of the cases that failed in this run
 * @param expectedFailures - ids listed in the adapter's baseline
 * @returns problems to report; empty when the run matches the baseline
 */
export function compareWithBaseline(
  failedIds: Iterable<string>,
  expectedFailures: Iterable<string>,
): string[] {
  const failed = new Set(failedIds);
  const expected = new Set(expectedFailures);
  const problems: string[] = [];
  for (const id of failed)
    if (!expected.has(id)) problems.push(`fails but is not an expected failure: ${id}`);
  for (const id of expected)
    if (!failed.has(id)) problems.push(`passes now, remove it from the expected failures: ${id}`);
  return problems.sort();
}
