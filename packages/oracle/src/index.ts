// The oracle's parts, for its own tests and for anyone replaying a finding.
export { commandWords, violations, type Violation, type ViolationKind } from "./check.js";
export { decideLine, ORACLE_CONTEXT, prepareDecisions } from "./decide.js";
export { generateLines, oracleLine, type GeneratedLine, type OracleShell } from "./generate.js";
export {
  oracleAvailability,
  runLines,
  shellProgram,
  type Availability,
  type LineRun,
  type RunOptions,
  type ShellLine,
} from "./sandbox.js";
export {
  canaryFiles,
  HOME,
  makeCanaries,
  PAYLOAD,
  SECRET_ENV,
  SINK_URL,
  WORKSPACE,
  type Canaries,
} from "./world.js";
