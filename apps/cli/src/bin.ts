#!/usr/bin/env node
// The slashi binary. Agents spawn it on every tool call, so start-up matters: Liftoff-only wasm compilation must
// be switched on before the tree-sitter wasm loads (otherwise the process waits ~400 ms for TurboFan to finish
// compiling the grammar before it can exit), so this is the first statement, and everything else is imported
// after it. This file is the only place that calls process.exit and turns errors into messages and exit codes.
import nodeModule from "node:module";
import { setFlagsFromString } from "node:v8";

setFlagsFromString("--liftoff-only");
// Node 22.1 and later can keep compiled code of the bundle between runs; Node 20 has no such cache.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// Loaded side by side: one round of module loading instead of three.
const [{ main }, { formatError, toExitCode }, { processIo }] = await Promise.all([
  import("./main.js"),
  import("./errors.js"),
  import("./io.js"),
]);

// A reader that goes away (`slashi policy show | head`) is not an error worth a trace: stop quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
    throw error;
  });
}

const argv = process.argv.slice(2);
const io = processIo(argv.includes("--no-color"));
let status: number;
try {
  status = await main(argv, io);
} catch (error) {
  process.stderr.write(`${formatError(error)}\n`);
  status = toExitCode(error);
}
// Pipes are asynchronous on some systems (macOS): wait until everything written has been flushed, then leave
// without waiting for handles a command may have left open.
process.exitCode = status;
await Promise.all(
  [process.stdout, process.stderr].map(
    (stream) => new Promise((resolve) => stream.write("", () => resolve(undefined))),
  ),
);
process.exit(status);
