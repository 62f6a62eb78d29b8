// The public API of @slashi/conformance: load the cases of an area. Every export here is public.
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

/**
 * One entry of a "not applicable to this host" list: a case the host's surface cannot express, and why. An entry
 * never stands for a behaviour difference: a case the host's surface can run must pass there.
 */
export interface NotApplicableEntry {
  /** The case id. */
  id: string;
  /** Why the case cannot run on this host's surface: what the case needs that the surface has no input for. */
  reason: string;
}

/** Shortest reason accepted: a few words, so an entry cannot get by with a placeholder. */
const MIN_REASON_LENGTH = 20;

/**
 * Reads a list of case ids with a reason each (`[{ "id": …, "reason": … }]`), such as an adapter's
 * `contract.not-applicable.json` or the core's known failures. It checks only the shape: use
 * {@link notApplicableProblems} to hold the entries to a suite.
 * @param file - the list's URL (`new URL("./x.json", import.meta.url)`) or path
 * @throws Error when the file is not a JSON array of objects with a string `id`
 */
export function readNotApplicable(file: URL | string): NotApplicableEntry[] {
  return parseNotApplicable(JSON.parse(readFileSync(file, "utf8")) as unknown, String(file));
}

/**
 * The entries of a parsed "not applicable" list; see {@link readNotApplicable}. An entry without a string
 * `reason` gets an empty one, which {@link notApplicableProblems} reports.
 * @param value - the parsed JSON
 * @param label - names the list in errors
 * @throws Error when the value is not an array of objects with a string `id`
 */
export function parseNotApplicable(value: unknown, label: string): NotApplicableEntry[] {
  if (!Array.isArray(value)) throw new Error(`${label}: a list of { id, reason } entries is an array`);
  return value.map((entry: unknown, i) => {
    const e = entry as Partial<NotApplicableEntry> | null;
    if (typeof e !== "object" || e === null || typeof e.id !== "string")
      throw new Error(`${label} (at /${i}): an entry is an object with a string "id"`);
    return { id: e.id, reason: typeof e.reason === "string" ? e.reason : "" };
  });
}

/**
 * Holds a "not applicable" list to a suite: every entry names a case of the suite, once, with a reason of at least
 * a few words. Whether the listed cases still fail is {@link compareWithBaseline}'s check.
 * @param entries - the list, as {@link readNotApplicable} returns it
 * @param suiteIds - ids of every case the harness runs
 * @returns problems to report; empty when the list is sound
 */
export function notApplicableProblems(
  entries: readonly NotApplicableEntry[],
  suiteIds: Iterable<string>,
): string[] {
  const ids = new Set(suiteIds);
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const { id, reason } of entries) {
    if (!ids.has(id)) problems.push(`names no case of this suite: ${id}`);
    if (seen.has(id)) problems.push(`is listed twice: ${id}`);
    seen.add(id);
    if (reason.trim().length < MIN_REASON_LENGTH)
      problems.push(`gives no reason (at least ${MIN_REASON_LENGTH} characters): ${id}`);
  }
  return problems.sort();
}
