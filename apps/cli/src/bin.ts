#!/usr/bin/env node
// The slashi binary. Agents spawn it on every tool call, so start-up matters. This file is bundled on its own
// as CommonJS (faster to start than an ES module on Node 20) with nothing but the decision-service client, and
// loads as little of Node as it can (no node:v8, no node:stream, no stdout stream object on the fast path):
// `slashi hook …` and `slashi check` first ask this user's decision service (src/service/), which has the
// parser and the engine loaded already. Without one, or for any other command, the ES-module bundle (cli.ts)
// runs the command in this process, and a service is started for the next call. The answer is the same either
// way: the service runs the same code on the same input. This file is the only place that calls process.exit.
import { writeSync } from "node:fs";
import nodeModule from "node:module";
import { armHookWatchdog } from "./hooks/watchdog.js";
import { askService, startService, type ServiceOutcome } from "./service/client.js";
import { SERVICE_ARG } from "./service/protocol.js";

// Node 22.1 and later can keep compiled code of the bundle between runs; Node 20 has no such cache.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

/**
 * Writes all of `bytes` to stdout or stderr without building the stream object when the descriptor takes them
 * at once (the usual case for an answer of a few hundred bytes); otherwise the rest goes through the stream.
 */
async function writeAll(fd: 1 | 2, bytes: Buffer): Promise<void> {
  let at = 0;
  try {
    while (at < bytes.length) at += writeSync(fd, bytes, at);
    return;
  } catch (error) {
    // A reader that went away: nothing more to say.
    if ((error as NodeJS.ErrnoException).code !== "EAGAIN") return;
  }
  // A descriptor that another program set to non-blocking is full: let the stream wait for the reader.
  const stream = fd === 1 ? process.stdout : process.stderr;
  stream.on("error", () => undefined);
  await new Promise((resolve) => stream.write(bytes.subarray(at), resolve));
}

async function start(argv: readonly string[]): Promise<void> {
  if (argv[0] === SERVICE_ARG) {
    const { serve } = await import("./cli.js");
    await serve(argv[1] ?? "");
    return;
  }
  let outcome: ServiceOutcome;
  try {
    outcome = await askService(argv);
  } catch {
    outcome = { answered: false, start: undefined, stdin: undefined };
  }
  if (outcome.answered) {
    await writeAll(1, outcome.stdout);
    await writeAll(2, outcome.stderr);
    process.exit(outcome.status);
  }
  // A hook answered here answers within its deadline even when the decision keeps this thread busy
  // (hooks/watchdog.ts). Not on the path above: a client waiting for the service has nothing to keep it busy.
  if (argv[0] === "hook" && ["claude", "gemini", "cursor"].includes(argv[1] ?? "")) {
    armHookWatchdog(argv[1] as string, process.env);
  }
  const status = await (await import("./cli.js")).runInProcess(argv, outcome.stdin);
  if (outcome.start !== undefined) await startService(process.argv[1] as string, outcome.start);
  // Leave without waiting for handles a command may have left open.
  process.exit(status);
}

// What nothing else caught goes through the CLI's one error table, visible and without secret values (see
// last-resort.ts, in the in-process bundle). Should that bundle not load, a fixed line: the error's own text may
// hold anything.
start(process.argv.slice(2)).catch(async (error: unknown) => {
  let report = {
    text: "slashi: internal error\nThis is a bug; please report it with the command you ran.\n",
    status: 1,
  };
  try {
    report = (await import("./cli.js")).lastResortReport(error, process.env);
  } catch {
    // keep the fixed line
  }
  await writeAll(2, Buffer.from(report.text));
  process.exit(report.status);
});
