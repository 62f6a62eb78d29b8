// Shell analysis: parse a command line, extract every simple command, unwrap runners, report findings.
export { analyzeShell, MAX_PAYLOAD_DEPTH, ShellFindingCode, wordExpandsTilde } from "./analyze.js";
export { decodeAnsiC } from "./ansi-c.js";
export { isDangerousVariable } from "./env-vars.js";
export { isDownloader, isShell, readsProgramFromStdin } from "./interpreters.js";
export { isShellParserLoaded, loadShellParser } from "./parser.js";
export type { ShellParserOptions } from "./parser.js";
