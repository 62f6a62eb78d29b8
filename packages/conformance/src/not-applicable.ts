// The one "not applicable to this host" list (`not-applicable.json`, beside `cases/`): for each host's contract
// harness, the cases its surface cannot express, each with a reason from a closed set and the host's own detail.
// A case the host's surface can run and gets wrong is a bug in the host, never an entry.
import { readFileSync } from "node:fs";
import { listAreas, loadCases } from "./cases.js";
import { MIN_REASON_LENGTH } from "./known-failures.js";

/**
 * Why a case cannot run on a host: the closed set of reasons an entry may give, each with what it means. A case
 * that fits none of them is not "not applicable": the host must pass it.
 */
export const NOT_APPLICABLE_REASONS = {
  "other-platform": "the case is for a platform this host's harness does not run on",
  "no-such-operation":
    "the case calls an operation this host's surface does not have (a display or loading function it never calls); the core's harness, or another host, runs it",
  "never-shown":
    "this host never shows the step or block to a person: the step needs no approval there, or the command is refused before any prompt",
  "fixed-limit":
    "the case sets a limit (a render length, a call depth) that this host fixes at the core's default, which no setting changes",
  "refused-on-load":
    "this host loads every command through the team-file schema, which refuses the case's input before a run can reach it",
  "input-always-present":
    "this host's environment always supplies what the case leaves out (a clipboard text, a workspace folder)",
} as const;

/** One reason of {@link NOT_APPLICABLE_REASONS}. */
export type NotApplicableReason = keyof typeof NOT_APPLICABLE_REASONS;

/** The contract harnesses that keep a list, each with the harness file that reads it. */
export const NOT_APPLICABLE_HOSTS = {
  "runtime-slash":
    "packages/runtime/test/slash-conformance.test.ts (steps and expansion through the step loop)",
  cli: "apps/cli/test/contract.test.ts (decision cases through `slashi check`)",
  mcp: "apps/mcp-server/test/contract.test.ts (decision cases through MCP `check_command`)",
  "mcp-enkaidu":
    "apps/mcp-server/test/enkaidu.test.ts (the enkaidu area through `slashi-mcp --enkaidu-config`)",
  vscode:
    "apps/vscode/test/contract.test.ts (steps, expansion and fingerprint cases through the extension's runner)",
} as const;

/** One host of {@link NOT_APPLICABLE_HOSTS}. */
export type NotApplicableHost = keyof typeof NOT_APPLICABLE_HOSTS;

/** One entry of a host's list: a case its surface cannot express, and why. */
export interface NotApplicableEntry {
  /** The case id. */
  case: string;
  /** The kind of reason, from the closed set. */
  reason: NotApplicableReason;
  /** What, on this host, the case needs that the surface has no input for (at least a few words). */
  detail: string;
}

/** Absolute path of the list. */
export const notApplicablePath: string = new URL("../not-applicable.json", import.meta.url).pathname;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Reads a parsed list and holds it to the suite: an object with one array per host of
 * {@link NOT_APPLICABLE_HOSTS} (no other key), each entry `{ case, reason, detail }` naming an existing case at most
 * once per host, with a reason of {@link NOT_APPLICABLE_REASONS} and a detail of a few words.
 * @param value - the parsed JSON
 * @param file - names the list in errors
 * @param caseIds - every case id of the suite
 * @returns each host's entries
 * @throws Error naming the file and the JSON path of every problem found
 */
export function parseNotApplicableList(
  value: unknown,
  file: string,
  caseIds: ReadonlySet<string>,
): Record<NotApplicableHost, NotApplicableEntry[]> {
  const problems: string[] = [];
  const at = (path: string, problem: string): void => {
    problems.push(`${file} at ${path === "" ? "/" : path}: ${problem}`);
  };
  const out = {} as Record<NotApplicableHost, NotApplicableEntry[]>;
  if (!isObject(value)) {
    at("", "the list is an object with one array per host");
    throw new Error(problems.join("\n"));
  }
  for (const key of Object.keys(value))
    if (!Object.hasOwn(NOT_APPLICABLE_HOSTS, key))
      at(`/${key}`, `names no host (${Object.keys(NOT_APPLICABLE_HOSTS).join(", ")})`);
  for (const host of Object.keys(NOT_APPLICABLE_HOSTS) as NotApplicableHost[]) {
    const list = value[host];
    out[host] = [];
    if (!Array.isArray(list)) {
      at(`/${host}`, "each host has an array of entries (empty when every case applies)");
      continue;
    }
    const seen = new Set<string>();
    list.forEach((entry: unknown, i) => {
      const path = `/${host}/${i}`;
      if (!isObject(entry)) return at(path, "an entry is an object { case, reason, detail }");
      for (const key of Object.keys(entry))
        if (!["case", "reason", "detail"].includes(key)) at(`${path}/${key}`, "is no field of an entry");
      const { case: id, reason, detail } = entry;
      if (typeof id !== "string") at(`${path}/case`, "names no case (a string id)");
      else if (!caseIds.has(id)) at(`${path}/case`, `names no case of the suite: ${id}`);
      else if (seen.has(id)) at(`${path}/case`, `lists ${id} a second time for ${host}`);
      if (typeof id === "string") seen.add(id);
      if (reason === undefined) at(`${path}/reason`, "gives no reason");
      else if (typeof reason !== "string" || !Object.hasOwn(NOT_APPLICABLE_REASONS, reason))
        at(
          `${path}/reason`,
          `${JSON.stringify(reason)} is not one of ${Object.keys(NOT_APPLICABLE_REASONS).join(", ")}`,
        );
      if (typeof detail !== "string" || detail.trim().length < MIN_REASON_LENGTH)
        at(
          `${path}/detail`,
          `says in a few words (at least ${MIN_REASON_LENGTH} characters) why, on this host`,
        );
      if (typeof id === "string" && typeof reason === "string" && typeof detail === "string")
        out[host].push({ case: id, reason: reason as NotApplicableReason, detail });
    });
  }
  if (problems.length > 0) throw new Error(problems.join("\n"));
  return out;
}

let loaded: Record<NotApplicableHost, NotApplicableEntry[]> | undefined;

/**
 * The cases a host's surface cannot express, from the one list, read and checked once (see
 * {@link parseNotApplicableList}).
 * @param host - the harness asking
 * @throws Error naming the file and the JSON path of every problem of the list
 */
export function notApplicable(host: NotApplicableHost): NotApplicableEntry[] {
  if (loaded === undefined) {
    const ids = new Set(listAreas().flatMap((area) => loadCases(area).map((c) => c.id)));
    loaded = parseNotApplicableList(
      JSON.parse(readFileSync(notApplicablePath, "utf8")) as unknown,
      "packages/conformance/not-applicable.json",
      ids,
    );
  }
  return loaded[host];
}

/**
 * The entries of a host's list that name no case of the suite its harness runs (a case of another area, or one
 * its harness leaves out).
 * @param entries - the host's list, as {@link notApplicable} returns it
 * @param suiteIds - ids of every case the harness runs
 * @returns problems to report; empty when the list fits the harness
 */
export function notApplicableProblems(
  entries: readonly NotApplicableEntry[],
  suiteIds: Iterable<string>,
): string[] {
  const ids = new Set(suiteIds);
  return entries
    .filter((e) => !ids.has(e.case))
    .map((e) => `names no case this harness runs: ${e.case}`)
    .sort();
}
