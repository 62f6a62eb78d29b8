#!/usr/bin/env node
// The slashi-mcp binary. Liftoff-only wasm compilation must be switched on before the tree-sitter wasm loads
// (otherwise start-up waits for TurboFan to compile the grammar), so this is the first statement and everything
// else is imported after it. Stdout carries the MCP protocol only: every log line goes to stderr.
import { setFlagsFromString } from "node:v8";

setFlagsFromString("--liftoff-only");

declare const __SLASHI_VERSION__: string | undefined;

const { main } = await import("./main.js");
const { UsageError } = await import("./options.js");

const version = typeof __SLASHI_VERSION__ === "string" ? __SLASHI_VERSION__ : "0.0.0-source";
const log = (message: string): void => {
  process.stderr.write(`slashi-mcp: ${message}\n`);
};
let status: number;
try {
  status = await main({
    argv: process.argv.slice(2),
    env: process.env,
    cwd: process.cwd(),
    version,
    stdout: (text) => process.stdout.write(text),
    log,
  });
} catch (error) {
  log(
    error instanceof UsageError
      ? error.message
      : `error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  status = error instanceof UsageError ? 2 : 1;
}
process.exitCode = status;
if (process.stdout.writableNeedDrain) await new Promise((resolve) => process.stdout.once("drain", resolve));
process.exit(status);
