// The helpers Slashi's own tests share. Private: no published package depends on it, and no source file (only
// tests, test setup and benchmarks) imports it. Every export here is public.
export { catchError, catchErrorAsync, rejectionCode, thrownCode } from "./errors.js";
export type { ErrorGuard } from "./errors.js";
export { hostEnv, scratchDir, tempDir, tempHome } from "./temp.js";
export type { TempDir, TempHome } from "./temp.js";
export type { DecisionBaseline } from "./conformance.js";
export {
  coreDecisionFailures,
  decisionBaseline,
  decisionCases,
  isExtractionCase,
  platformMatches,
} from "./conformance.js";
export { freePort, startRegistry, stopRegistry, verdaccioBin, verdaccioUnavailable } from "./verdaccio.mjs";
export type { RunningRegistry } from "./verdaccio.mjs";
export { writeStubBwrap } from "./stub-bwrap.js";
export { hostileText, rawControls } from "./hostile-text.js";
export { CANARY } from "./secret-canary.js";
export type { CanaryKind } from "./secret-canary.js";
export { git, gitRepository, recloneAt } from "./git.js";
export { diskPort } from "./disk-port.js";
export type { DiskEntry, DiskPort } from "./disk-port.js";
export { CI_TOOLS, findTool, isCiTool, requireTool, skipUnlessCi, underCi } from "./tools.js";
export type { CiTool } from "./tools.js";
