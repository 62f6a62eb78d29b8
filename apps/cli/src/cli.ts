/**
 * The in-process side of the binary, loaded by `bin.ts` only when the decision service did not answer: runs a
 * command in this process, or runs this process as the service.
 */
import type { Readable } from "node:stream";
import { setFlagsFromString } from "node:v8";
import { processIo } from "./io.js";
import { runMain } from "./main.js";

export { lastResortReport } from "./last-resort.js";
export { serve } from "./service/server.js";

// Liftoff-only wasm compilation must be switched on before the tree-sitter wasm loads (otherwise the process
// waits ~400 ms for TurboFan to finish compiling the grammar before it can exit). node:v8 is costly to load,
// so this happens here, on the paths that parse, not in bin.ts.
setFlagsFromString("--liftoff-only");

/** Pipes are asynchronous on some systems (macOS): wait until everything written has been flushed. */
const flushed = (): Promise<unknown> =>
  Promise.all(
    [process.stdout, process.stderr].map(
      (stream) => new Promise((resolve) => stream.write("", () => resolve(undefined))),
    ),
  );

/**
 * Runs `slashi` in this process with the real streams, and waits until what it wrote has been flushed.
 * @param argv - the words after the program name
 * @param stdin - stdin as the command must see it, when the client already read part of it
 * @returns the exit status
 */
export async function runInProcess(argv: readonly string[], stdin: Readable | undefined): Promise<number> {
  // A reader that goes away (`slashi policy show | head`) is not an error worth a trace: stop quietly.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") process.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
      throw error;
    });
  }
  const io = processIo(argv.includes("--no-color"));
  if (stdin !== undefined) Object.defineProperty(io, "stdin", { value: stdin });
  const status = await runMain(argv, io);
  process.exitCode = status;
  await flushed();
  return status;
}
