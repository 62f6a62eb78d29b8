// The public API of @slashi/conformance: load the cases of an area, hold a run to its lists. Every export here is
// public.
export {
  caseSchemaPath,
  casesDir,
  compareWithBaseline,
  listAreas,
  listCaseFiles,
  loadCases,
} from "./cases.js";
export type { ConformanceCase } from "./cases.js";
export { knownFailureProblems, parseKnownFailures, readKnownFailures } from "./known-failures.js";
export type { KnownFailure } from "./known-failures.js";
export {
  NOT_APPLICABLE_HOSTS,
  NOT_APPLICABLE_REASONS,
  notApplicable,
  notApplicablePath,
  notApplicableProblems,
  parseNotApplicableList,
} from "./not-applicable.js";
export type { NotApplicableEntry, NotApplicableHost, NotApplicableReason } from "./not-applicable.js";
