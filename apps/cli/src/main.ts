/**
 * Dispatch: finds the command named on the command line, parses its flags and runs it. Returns the exit
 * status; throws what a command throws (bin.ts turns it into a message and a status).
 */
import { closestName } from "@slashi/core/internal";
import { PACK_HANDLERS } from "./commands/pack-spec.js";
import { CliError, ExitCode, formatError, toExitCode, UsageError } from "./errors.js";
import { println, visibleIo, type Io } from "./io.js";
import { commandHelp, findCommand, mainHelp, parseArgs, topLevelNames, type ParsedArgs } from "./options.js";
import { VERSION } from "./version.js";

export { VERSION } from "./version.js";

type Handler = (args: ParsedArgs, io: Io) => Promise<number>;

/** Handlers by command path, loaded on first use so a hook call does not load the policy tooling. */
const HANDLERS: Record<string, () => Promise<Handler>> = {
  check: async () => (await import("./commands/check.js")).checkCommand,
  explain: async () => (await import("./commands/explain.js")).explainCommand,
  exec: async () => (await import("./commands/exec.js")).execCommand,
  run: async () => (await import("./commands/run.js")).runCommand,
  list: async () => (await import("./commands/list.js")).listCommand,
  trust: async () => (await import("./commands/trust.js")).trustCommand,
  untrust: async () => (await import("./commands/trust.js")).untrustCommand,
  "trust status": async () => (await import("./commands/trust.js")).trustStatusCommand,
  "approvals add": async () => (await import("./commands/approvals.js")).approvalsAdd,
  "approvals add-command": async () => (await import("./commands/run.js")).approveCommand,
  "approvals list": async () => (await import("./commands/approvals.js")).approvalsList,
  "approvals revoke": async () => (await import("./commands/approvals.js")).approvalsRevoke,
  "approvals reset": async () => (await import("./commands/approvals.js")).approvalsReset,
  "policy init": async () => (await import("./commands/policy.js")).policyInit,
  "policy validate": async () => (await import("./commands/policy.js")).policyValidate,
  "policy show": async () => (await import("./commands/policy.js")).policyShow,
  "policy test": async () => (await import("./commands/policy.js")).policyTest,
  "policy import": async () => (await import("./commands/policy-import.js")).policyImport,
  quote: async () => (await import("./commands/quote.js")).quoteCommand,
  "audit tail": async () => (await import("./commands/audit.js")).auditTail,
  "audit show": async () => (await import("./commands/audit.js")).auditShow,
  "hook claude": async () => (await import("./commands/hook.js")).hookClaude,
  "hook gemini": async () => (await import("./commands/hook.js")).hookGemini,
  "hook cursor": async () => (await import("./commands/hook.js")).hookCursor,
  "hook install": async () => (await import("./commands/hook-install.js")).hookInstall,
  "hook uninstall": async () => (await import("./commands/hook-install.js")).hookUninstall,
  "hook status": async () => (await import("./commands/hook-install.js")).hookStatus,
  doctor: async () => (await import("./commands/doctor.js")).doctorCommand,
  completion: async () => (await import("./commands/completion.js")).completionCommand,
  "service status": async () => (await import("./commands/service.js")).serviceStatus,
  "service stop": async () => (await import("./commands/service.js")).serviceStop,
  ...PACK_HANDLERS,
};

/**
 * Runs `slashi` with the words after the program name.
 * @param argv - `process.argv.slice(2)`
 * @param io - streams and environment
 * @returns the exit status
 */
export async function main(argv: readonly string[], given: Io): Promise<number> {
  // Every print of every command goes through streams that show control characters (see io.ts).
  const io = visibleIo(given);
  const first = argv[0];
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    const topic = first === "help" ? argv.slice(1) : [];
    const found = topic.length > 0 ? findCommand(topic) : undefined;
    println(first === undefined ? io.stderr : io.stdout, found ? commandHelp(found.spec) : mainHelp(VERSION));
    return first === undefined ? ExitCode.USAGE : ExitCode.OK;
  }
  if (first === "--version" || first === "-V") {
    println(io.stdout, VERSION);
    return ExitCode.OK;
  }
  const found = findCommand(argv);
  if (!found) {
    const names = topLevelNames();
    if (names.includes(first)) {
      const subs = [
        ...new Set(
          Object.keys(HANDLERS)
            .filter((k) => k.startsWith(`${first} `))
            .map((k) => k.split(" ")[1]),
        ),
      ];
      const given = argv[1];
      const suggestion = given === undefined ? undefined : closestName(given, subs as string[]);
      throw new UsageError(
        given === undefined
          ? `"slashi ${first}" needs a subcommand: ${subs.join(", ")}`
          : `unknown subcommand "${first} ${given}"`,
        suggestion ? `did you mean "slashi ${first} ${suggestion}"?` : `subcommands: ${subs.join(", ")}`,
      );
    }
    const suggestion = closestName(first, names);
    throw new UsageError(
      `unknown command "${first}"`,
      suggestion
        ? `did you mean "slashi ${suggestion}"? (slashi --help lists every command)`
        : "slashi --help lists every command",
    );
  }
  const args = parseArgs(found.spec, found.rest);
  if (args.flags.help === true) {
    println(io.stdout, commandHelp(found.spec));
    return ExitCode.OK;
  }
  const load = HANDLERS[found.spec.path.join(" ")];
  if (!load)
    throw new CliError(
      `"slashi ${found.spec.path.join(" ")}" is not available in this build`,
      ExitCode.FAILURE,
    );
  return (await load())(args, io);
}

/**
 * {@link main} with its errors turned into a message on `io.stderr` and an exit status, as the binary reports
 * them. Used in-process by `bin.ts` and by the decision service, so both answer alike.
 * @returns the exit status
 */
export async function runMain(argv: readonly string[], given: Io): Promise<number> {
  // Every print of every command goes through streams that show control characters (see io.ts).
  const io = visibleIo(given);
  try {
    return await main(argv, io);
  } catch (error) {
    io.stderr.write(`${formatError(error)}\n`);
    return toExitCode(error);
  }
}
