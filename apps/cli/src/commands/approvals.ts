/**
 * `slashi approvals list|revoke|reset`: the remembered approvals of slash commands (by fingerprint) and of shell
 * commands (bound to argv, cwd and content digest).
 */
import {
  ApprovalFileStore,
  AuditLog,
  CommandApprovalFileStore,
  packPolicyApprovalKey,
  type CommandApprovalRecord,
} from "@slashi/runtime";
import { resolveWorkspace, slashiPaths } from "../context.js";
import { CliError, ExitCode, UsageError } from "../errors.js";
import { println, type Io } from "../io.js";
import type { ParsedArgs } from "../options.js";
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
    println(io.stdout, JSON.stringify({ commands, shell }, null, 2));
    return ExitCode.OK;
  }
  if (commands.length === 0 && shell.length === 0) {
    println(io.stdout, "no approvals");
    return ExitCode.OK;
  }
  for (const a of commands)
    println(io.stdout, `${a.key}\n  slash command ${a.identity}  ${a.fingerprint}  approved ${a.approvedAt}`);
  for (const a of shell) {
    const what = a.argv ? JSON.stringify(a.argv) : approvedPolicy(a);
    println(
      io.stdout,
      `${a.key}\n  ${what}${a.cwd ? ` in ${a.cwd}` : ""}  ${a.digest}  approved ${a.approvedAt}`,
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
