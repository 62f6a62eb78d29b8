/**
 * `slashi run /name [args…]` and `slashi approvals add-command /name`: a command of the runtime's catalogue
 * (the person's own first, then the team file of a trusted workspace, then the installed packs by pack name;
 * `--source`/`--pack` pick one), approved by the runtime's approval sequence and run step by step by its loop.
 * What stays here is the CLI's part: the arguments, the terminal's answers and the output.
 */
import { dialectForShell, type QuoteDialect } from "@slashi/core";
import {
  approveSlashRun,
  defaultShell,
  groupOf,
  stepPerformerOf,
  type CatalogueEntry,
  type SlashRunApproval,
} from "@slashi/runtime";
import { ensureParser, loadSetup } from "../context.js";
import { ExitCode } from "../errors.js";
import { println, shown, type Io } from "../io.js";
import type { ParsedArgs } from "../options.js";
import { progressAllowed, withProgress } from "../progress.js";
import { cliSlashAudit, refuseUnasked, terminalApprover } from "./slash/approver.js";
import { findNamed, type LoadedCommands } from "./slash/catalogue.js";
import { cliStepHost, refusedRun, runSteps, type RunCommands, type RunState } from "./slash/step-host.js";

/** The found command and the commands of its file, setting or pack. */
function runCommandsOf(found: CatalogueEntry, loaded: LoadedCommands): RunCommands {
  return { root: found, group: groupOf(loaded, found) };
}

/** `slashi run /name [args…]`. */
export async function runCommand(args: ParsedArgs, io: Io): Promise<number> {
  const { found, loaded, cwd, rest } = await findNamed(args, io, "run");
  const dryRun = args.flags["dry-run"] === true;

  const parser = ensureParser();
  const setup = await loadSetup(io, {
    cwd,
    ...(typeof args.flags.policy === "string" ? { policyFile: args.flags.policy } : {}),
  });
  await parser;
  const shell = defaultShell(io.env);
  let dialect: QuoteDialect | undefined;
  try {
    dialect = dialectForShell(shell);
  } catch {
    // Only a step that uses ${q:…} needs it; expansion then reports the missing dialect.
  }
  const state: RunState = {
    ...(found.pack ? { pack: found.pack } : {}),
    ...(dialect !== undefined ? { dialect } : {}),
    io,
    setup,
    source: found.source,
    commands: runCommandsOf(found, loaded),
    shell,
    dryRun,
  };
  // The runtime's approval sequence, as every host runs it: call problems, steps this host cannot perform and
  // the source rules refused before any prompt; the one rule for whether the person must approve and what
  // "Always allow" records.
  let approval: SlashRunApproval<CatalogueEntry>;
  try {
    approval = await approveSlashRun(
      state.commands.root,
      state.commands.group,
      terminalApprover(io, found, dryRun ? "dry-run" : "run"),
      { performer: stepPerformerOf(cliStepHost(state)), audit: cliSlashAudit(io) },
    );
  } catch (error) {
    throw refusedRun(error, found.definition.name);
  }
  if (approval.status === "cancelled") {
    println(io.stderr, "cancelled; nothing ran");
    return ExitCode.RUN_CANCELLED;
  }
  if (approval.status === "unavailable") {
    refuseUnasked(
      io,
      found,
      loaded,
      approval.request,
      "needs approval, and there is no terminal to ask on; nothing ran",
    );
    return ExitCode.RUN_NEEDS_APPROVAL;
  }
  // A shared command runs pre-approved when the person approved it now or before; one whose reachable steps
  // run nothing needs no approval and gets none.
  const covered = approval.answer ?? (approval.plan.coverage.covered ? "fingerprint" : undefined);
  const run: RunState = {
    ...state,
    refuseCall: approval.refuseCall,
    ...(approval.preApproved && covered !== undefined ? { approval: covered } : {}),
  };
  if (!progressAllowed(io.env, io.stderr)) return runSteps(rest.join(" "), run);
  return withProgress(io, `/${found.definition.name}`, (progress) =>
    runSteps(rest.join(" "), { ...run, progress }),
  );
}

/**
 * `slashi approvals add-command /name`: shows a team or pack command and every command it can call, and stores
 * "Always allow" of each on the person's answer (the runtime's approval sequence, as `run` asks it), without
 * running anything. It is the line a host that cannot ask shows the person.
 */
export async function approveCommand(args: ParsedArgs, io: Io): Promise<number> {
  const { found, loaded } = await findNamed(args, io, "approvals add-command");
  if (found.source === "user") {
    println(io.stdout, shown`/${found.definition.name} is your own command: it needs no approval`);
    return ExitCode.OK;
  }
  const commands = runCommandsOf(found, loaded);
  let approval: SlashRunApproval<CatalogueEntry>;
  try {
    // Approving runs nothing, so every step kind counts as one this host performs.
    approval = await approveSlashRun(commands.root, commands.group, terminalApprover(io, found, "approve"), {
      performer: { name: "slashi approvals", performs: () => true },
      audit: cliSlashAudit(io),
    });
  } catch (error) {
    throw refusedRun(error, found.definition.name);
  }
  switch (approval.status) {
    case "cancelled":
      println(io.stderr, "cancelled; nothing was approved");
      return ExitCode.RUN_CANCELLED;
    case "unavailable":
      if (!approval.request.canRemember) {
        refuseUnasked(
          io,
          found,
          loaded,
          approval.request,
          "cannot be approved for later; nothing was approved",
        );
        return ExitCode.INVALID_INPUT;
      }
      println(
        io.stderr,
        shown`slashi: approving /${found.definition.name} needs a person at a terminal; nothing was approved`,
      );
      return ExitCode.RUN_NEEDS_APPROVAL;
    case "approved":
      println(
        io.stdout,
        approval.answer === undefined
          ? shown`/${found.definition.name} is already approved, with every command it calls`
          : shown`approved /${found.definition.name}: ${approval.reachable.map((c) => shown`/${c.definition.name}`).join(", ")}`,
      );
      return ExitCode.OK;
  }
}
