/** `slashi explain`: the readable tree of a decision (core's `explain`), or its structured form with `--json`. */
import { explainDecision, explanationOf } from "@slashi/core";
import { decideLine } from "@slashi/runtime";
import { ensureParser, loadSetup } from "../context.js";
import { jsonText, println, shown, type Io } from "../io.js";
import type { ParsedArgs } from "../options.js";
import { commandText, setupOptions, verdictExitCode } from "./check.js";

/** Runs `slashi explain`. Exit status as for `check`. */
export async function explainCommand(args: ParsedArgs, io: Io): Promise<number> {
  const command = commandText(args);
  const parser = ensureParser();
  const setup = await loadSetup(io, setupOptions(args));
  await parser;
  for (const w of setup.warnings) println(io.stderr, shown`slashi: warning: ${w}`);
  const decision = decideLine(command, setup.policy, setup.context);
  if (args.flags.json === true) {
    println(
      io.stdout,
      jsonText({ ...explanationOf(decision), layers: setup.policy.layers, notes: setup.policy.notes }, 2),
    );
  } else {
    println(io.stdout, explainDecision(decision));
    for (const note of setup.policy.notes) println(io.stdout, `note: ${note}`);
    if (!setup.trusted) {
      println(
        io.stdout,
        `note: workspace ${setup.workspace.root} is not trusted (slashi trust), so rules marked trustedWorkspaceOnly do not count`,
      );
    }
  }
  return verdictExitCode(decision.decision);
}
