#!/usr/bin/env node
// The slashi-mcp binary. V8 flags are set first, before anything else is imported: Liftoff-only wasm
// compilation must be on before the tree-sitter wasm loads (otherwise start-up waits for TurboFan to compile
// the grammar), and the young generation's size before the heap grows. Stdout carries the MCP protocol only:
// every log line goes to stderr.
import { setFlagsFromString } from "node:v8";

setFlagsFromString("--liftoff-only");
// The live heap of a long session stays ~20 MB, but with V8's defaults (semi-spaces up to 16 MB each, heap
// growth tuned for speed) the resident set grew to about twice its start over 4,000 calls (`pnpm bench:mcp`).
setFlagsFromString("--max-semi-space-size=1");
setFlagsFromString("--optimize-for-size");

declare const __SLASHI_VERSION__: string | undefined;

const { main } = await import("./main.js");
const { UsageError } = await import("./options.js");

const version = typeof __SLASHI_VERSION__ === "string" ? __SLASHI_VERSION__ : "0.0.0-source";
const log = (message: string): void => {
  process.stderr.write(`slashi-mcp: ${message}\n`);
};
let status: number;
try {
  status =
    process.argv[2] === "wrap"
      ? await (async () => {
          const { parseWrapArgs, wrapServer } = await import("./wrap.js");
          const environment = { env: process.env, cwd: process.cwd(), log };
          return wrapServer(parseWrapArgs(process.argv.slice(3)), environment);
        })()
      : await main({
          argv: process.argv.slice(2),
          env: process.env,
          cwd: process.cwd(),
          version,
          stdout: (text) => process.stdout.write(text),
          log,
        });
} catch (error) {
  const { isSlashiError, showControls } = await import("@slashi/core");
  log(
    showControls(
      error instanceof UsageError
        ? error.message
        : isSlashiError(error)
          ? `error: ${error.message} [${error.code}]`
          : `error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    ),
  );
  status = error instanceof UsageError ? 2 : 1;
}
process.exitCode = status;
if (process.stdout.writableNeedDrain) await new Promise((resolve) => process.stdout.once("drain", resolve));
process.exit(status);
