// The core's known failures: cases `decide()` itself still gets wrong, each with the reason it is not closed yet.
import { readFileSync } from "node:fs";

/** One known failure of the core: a case id and why it still fails. */
export interface KnownFailure {
  /** The case id. */
  id: string;
  /** Why the case still fails, and what would close it. */
  reason: string;
}

/** Shortest reason accepted: a few words, so an entry cannot get by with a placeholder. */
export const MIN_REASON_LENGTH = 20;

/**
 * Reads a list of case ids with a reason each (`[{ "id": …, "reason": … }]`), such as the core's
 * `decide.expected-failures.json`. It checks only the shape: use {@link knownFailureProblems} to hold the entries
 * to a suite.
 * @param file - the list's URL (`new URL("./x.json", import.meta.url)`) or path
 * @throws Error when the file is not a JSON array of objects with a string `id`
 */
export function readKnownFailures(file: URL | string): KnownFailure[] {
  return parseKnownFailures(JSON.parse(readFileSync(file, "utf8")) as unknown, String(file));
}

/**
 * The entries of a parsed known-failure list; see {@link readKnownFailures}. An entry without a string `reason`
 * gets an empty one, which {@link knownFailureProblems} reports.
 * @param value - the parsed JSON
 * @param label - names the list in errors
 * @throws Error when the value is not an array of objects with a string `id`
 */
export function parseKnownFailures(value: unknown, label: string): KnownFailure[] {
  if (!Array.isArray(value)) throw new Error(`${label}: a list of { id, reason } entries is an array`);
  return value.map((entry: unknown, i) => {
    const e = entry as Partial<KnownFailure> | null;
    if (typeof e !== "object" || e === null || typeof e.id !== "string")
      throw new Error(`${label} (at /${i}): an entry is an object with a string "id"`);
    return { id: e.id, reason: typeof e.reason === "string" ? e.reason : "" };
  });
}

/**
 * Holds a known-failure list to a suite: every entry names a case of the suite, once, with a reason of at least a
 * few words. Whether the listed cases still fail is `compareWithBaseline`'s check.
 * @param entries - the list, as {@link readKnownFailures} returns it
 * @param suiteIds - ids of every case the harness runs
 * @returns problems to report; empty when the list is sound
 */
export function knownFailureProblems(entries: readonly KnownFailure[], suiteIds: Iterable<string>): string[] {
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
