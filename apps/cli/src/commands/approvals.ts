/**
 * `slashi approvals add|list|revoke|reset`: the remembered approvals of slash commands (by fingerprint) and of
 * shell commands (bound to argv, cwd and content digest). `add` is how a person approves, on their own terminal,
 * a command an agent could not get confirmed (an MCP client without forms shows them this command line).
 */
import {
  ApprovalFileStore,
  AuditLog,
  CommandApprovalFileStore,
  countedReasons,
  decideLine,
  defaultShell,
  packPolicyApprovalKey,
  rememberApproval,
  rememberedApproval,
  type CommandApprovalRecord,
} from "@slashi/runtime";
import { ensureParser, loadSetup, resolveWorkspace, slashiPaths } from "../context.js";
import { CliError, ExitCode, UsageError } from "../errors.js";
import { jsonText, paint, println, shown, type Io } from "../io.js";
import type { ParsedArgs } from "../options.js";
import { choose } from "../prompt.js";
import { commandText, setupOptions } from "./check.js";
import path from "node:path";

function stores(io: Io): { commands: ApprovalFileStore; shell: CommandApprovalFileStore; audit: AuditLog } {
  const paths = slashiPaths(io);
  return {
    commands: new ApprovalFileStore({ file: paths.approvals }),
    shell: new CommandApprovalFileStore({ file: paths.commandApprovals }),
    audit: new AuditLog({ file: paths.audit }),
  };
}

/** What a command-approval record without an argv approves: a pack's policy or a workspace policy file. */
function approvedPolicy(record: CommandApprovalRecord): string {
  if (record.key.startsWith(packPolicyApprovalKey(""))) {
    const pack =
      typeof record.pack === "string" ? record.pack : record.key.slice(packPolicyApprovalKey("").length);
    const version = typeof record.version === "string" ? `@${record.version}` : "";
    return `(policy of the pack ${pack}${version})`;
  }
  return "(workspace policy file)";
}

/** `slashi approvals list`. */
export async function approvalsList(args: ParsedArgs, io: Io): Promise<number> {
  const s = stores(io);
  const [commands, shell] = await Promise.all([s.commands.list(), s.shell.list()]);
  if (args.flags.json === true) {
    println(io.stdout, jsonText({ commands, shell }, 2));
    return ExitCode.OK;
  }
  if (commands.length === 0 && shell.length === 0) {
    println(io.stdout, "no approvals");
    return ExitCode.OK;
  }
  for (const a of commands)
    println(
      io.stdout,
      shown`${a.key}\n  slash command ${a.identity}  ${a.fingerprint}  approved ${a.approvedAt}`,
    );
  for (const a of shell) {
    const what = a.argv ? JSON.stringify(a.argv) : approvedPolicy(a);
    println(
      io.stdout,
      shown`${a.key}\n  ${what}${a.cwd ? " in " : ""}${a.cwd ?? ""}  ${a.digest}  approved ${a.approvedAt}`,
    );
  }
  return ExitCode.OK;
}

/** `slashi approvals revoke KEY`. */
export async function approvalsRevoke(args: ParsedArgs, io: Io): Promise<number> {
  const [key, ...extra] = args.operands;
  if (key === undefined)
    throw new UsageError("slashi approvals revoke needs a key", "slashi approvals list shows the keys");
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  const s = stores(io);
  const removed = (await s.commands.delete(key)) || (await s.shell.delete(key));
  if (!removed)
    throw new CliError(
      `no approval with key ${key}`,
      ExitCode.INVALID_INPUT,
      "slashi approvals list shows the keys",
    );
  await s.audit.append({ event: "revoke", host: "cli", fingerprint: key });
  println(io.stdout, `revoked ${key}`);
  return ExitCode.OK;
}

/** `slashi approvals reset [--workspace]`. */
export async function approvalsReset(args: ParsedArgs, io: Io): Promise<number> {
  const s = stores(io);
  let workspaceKey: string | undefined;
  if (args.flags.workspace === true) {
    const cwd = path.resolve(io.cwd, typeof args.flags.cwd === "string" ? args.flags.cwd : ".");
    workspaceKey = (await resolveWorkspace(cwd)).key;
  }
  const filter = (r: { workspaceKey?: string }): boolean =>
    workspaceKey === undefined || r.workspaceKey === workspaceKey;
  const n = (await s.commands.reset(filter)) + (await s.shell.reset(filter));
  await s.audit.append({ event: "reset", host: "cli", ...(workspaceKey ? { workspaceKey } : {}) });
  println(io.stdout, `removed ${n} approval${n === 1 ? "" : "s"}${workspaceKey ? " of this workspace" : ""}`);
  return ExitCode.OK;
}

/**
 * `slashi approvals add [--cwd DIR] -- COMMAND`: decides the line as every host would and, when it asks and can
 * be remembered, shows it on the terminal and stores "Always allow" bound to its exact argv, directory and the
 * content it runs once the person confirms there. Never without a terminal: an agent cannot approve itself.
 */
export async function approvalsAdd(args: ParsedArgs, io: Io): Promise<number> {
  const command = commandText(args);
  const options = setupOptions(args);
  const parser = ensureParser();
  const setup = await loadSetup(io, options);
  await parser;
  for (const w of setup.warnings) println(io.stderr, shown`slashi: warning: ${w}`);
  const decision = decideLine(command, setup.policy, {
    ...setup.context,
    shell: options.shell ?? defaultShell(io.env),
  });
  const reasons = countedReasons(decision);
  const show = (verdict: string): void => {
    for (const r of reasons.filter((x) => x.severity === verdict))
      println(io.stderr, shown`  ${r.code}: ${r.message}`);
  };
  if (decision.decision === "deny") {
    println(io.stderr, paint(io, "red", "denied") + shown` by policy, so it cannot be approved: ${command}`);
    show("deny");
    return ExitCode.RUN_DENIED;
  }
  if (decision.decision === "allow") {
    println(io.stdout, "the policy already allows it here; nothing to approve");
    return ExitCode.OK;
  }
  const cwd = setup.context.cwd as string;
  const store = new CommandApprovalFileStore({ file: setup.paths.commandApprovals });
  const remembered = await rememberedApproval(decision, { cwd, env: io.env }, store);
  const { binding } = remembered;
  if (!binding.ok) {
    println(io.stderr, shown`slashi: "${command}" cannot be approved for later: ${binding.reason}`);
    println(
      io.stderr,
      "Run it yourself with slashi exec (it asks on this terminal), or allow it in your policy.",
    );
    return ExitCode.INVALID_INPUT;
  }
  if (remembered.approved) {
    println(io.stdout, `already approved: ${binding.key}`);
    return ExitCode.OK;
  }
  if (!io.interactive) {
    println(
      io.stderr,
      shown`slashi: approving "${command}" needs a person at a terminal; nothing was approved`,
    );
    return ExitCode.RUN_NEEDS_APPROVAL;
  }
  println(io.stderr, paint(io, "yellow", "approve for later") + shown`: ${command}`);
  println(io.stderr, shown`  argv ${JSON.stringify(binding.argv)} in ${binding.cwd}`);
  if (binding.content.file) println(io.stderr, shown`  bound to the content of ${binding.content.file}`);
  if (remembered.changed) println(io.stderr, "  approved before, but what it runs has changed since");
  for (const changed of remembered.changedFiles) println(io.stderr, shown`  changed since: ${changed}`);
  show("ask");
  const answer = await choose(io, "Always allow this exact command here?", [
    { key: "a", label: "Always allow", value: "always" },
    { key: "c", label: "Cancel", value: "cancel" },
  ] as const);
  if (answer !== "always") {
    println(io.stderr, "cancelled; nothing was approved");
    return ExitCode.RUN_CANCELLED;
  }
  await rememberApproval(store, binding, setup.workspace.key);
  await new AuditLog({ file: setup.paths.audit }).append({
    event: "approve",
    host: "cli",
    source: "terminal",
    text: command,
    fingerprint: binding.key,
    workspaceKey: setup.workspace.key,
  });
  println(io.stdout, `approved ${binding.key}`);
  return ExitCode.OK;
}
