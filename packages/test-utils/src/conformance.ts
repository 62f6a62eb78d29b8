// Which conformance cases a decision harness runs: the same selection in the core's harness and in every
// adapter's contract test, so no host quietly runs fewer cases.
import {
  loadCases,
  notApplicable,
  notApplicableProblems,
  readKnownFailures,
  type ConformanceCase,
  type KnownFailure,
  type NotApplicableEntry,
} from "@slashi/conformance";

/**
 * Whether a case applies on this machine's platform: `posix` is every platform but Windows, `windows` is
 * Windows, and a Node platform name (`linux`, `darwin`) is that platform alone.
 */
export function platformMatches(
  c: Pick<ConformanceCase, "platform">,
  platform: string = process.platform,
): boolean {
  if (c.platform === undefined) return true;
  if (c.platform === "windows") return platform === "win32";
  if (c.platform === "posix") return platform !== "win32";
  return c.platform === platform;
}

/**
 * Whether a `shell` case belongs to the extraction harness (its file or id starts with `extraction`): such a
 * case expects the extracted commands, not a decision.
 */
export function isExtractionCase(c: Pick<ConformanceCase, "file" | "id">): boolean {
  const fileName = c.file.slice(c.file.lastIndexOf("/") + 1);
  return fileName.startsWith("extraction") || /^(shell-)?extraction/.test(c.id);
}

/**
 * Every decision case for this platform: the `shell` area without its extraction cases, then the `policy`
 * area. Each decision harness (the core's `decide`, `slashi check`, MCP `check_command`) runs exactly these.
 */
export function decisionCases<I = unknown, E = unknown>(): ConformanceCase<I, E>[] {
  return [
    ...loadCases<I, E>("shell").filter((c) => !isExtractionCase(c)),
    ...loadCases<I, E>("policy"),
  ].filter((c) => platformMatches(c));
}

/**
 * The decision cases `decide()` itself is known to fail, each with the reason it is not closed yet (the core's
 * `test/conformance/decide.expected-failures.json`). Every host decides through `decide()`, so each decision
 * harness expects these to fail too; a host's own list names only what its surface cannot express.
 */
export function coreDecisionFailures(): KnownFailure[] {
  return readKnownFailures(
    new URL("../../core/test/conformance/decide.expected-failures.json", import.meta.url),
  );
}

/** What a host's decision harness may fail: its own not-applicable cases and the core's known failures. */
export interface DecisionBaseline {
  /** The host's entries of the one not-applicable list, each with its reason. */
  notApplicable: NotApplicableEntry[];
  /** Ids of both lists: the cases allowed (and required) to fail. */
  expectedFailures: string[];
  /** Problems of the host's entries: cases its harness does not run, cases the core's list already holds. */
  problems(caseIds: Iterable<string>): string[];
}

/**
 * A decision host's entries of the one not-applicable list (`@slashi/conformance`'s `not-applicable.json`) next
 * to the core's known decision failures.
 * @param host - the host's key in the list
 * @throws Error when the list itself is malformed (naming the file and JSON path)
 */
export function decisionBaseline(host: "cli" | "mcp"): DecisionBaseline {
  const entries = notApplicable(host);
  const core = coreDecisionFailures();
  const coreIds = core.map((e) => e.id);
  return {
    notApplicable: entries,
    expectedFailures: [...new Set([...entries.map((e) => e.case), ...coreIds])],
    problems: (caseIds) => [
      ...notApplicableProblems(entries, caseIds),
      ...entries.filter((e) => coreIds.includes(e.case)).map((e) => `is in the core's list: ${e.case}`),
    ],
  };
}
