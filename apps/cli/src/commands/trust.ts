/**
 * `slashi trust`, `untrust`, `trust status`: the person's decision about the workspace. Trusting loads the team
 * file for `run`/`list`, lets `trustedWorkspaceOnly` rules count, and approves the current content of the
 * workspace policy file (its allow rules count until the file changes).
 */
import path from "node:path";
import { isSlashiError, parsePolicy } from "@slashi/core";
import {
  AuditLog,
  CommandApprovalFileStore,
  readBoundedText,
  TrustFileStore,
  workspaceIdentity,
  workspacePolicyApprovalKey,
} from "@slashi/runtime";
import { digestOf, ensureParser, resolveWorkspace, slashiPaths } from "../context.js";
import { ExitCode } from "../errors.js";
import { println, type Io } from "../io.js";
import type { ParsedArgs } from "../options.js";

function cwdOf(args: ParsedArgs, io: Io): string {
  return path.resolve(io.cwd, typeof args.flags.cwd === "string" ? args.flags.cwd : ".");
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readBoundedText(file);
  } catch (error) {
    if (isSlashiError(error)) throw error;
    return undefined;
  }
}

/** `slashi trust`. */
export async function trustCommand(args: ParsedArgs, io: Io): Promise<number> {
  const workspace = await resolveWorkspace(cwdOf(args, io));
  const paths = slashiPaths(io);
  const policyText = await readOptional(workspace.policyFile);
  // A policy file that does not load is not approved: say so before anything is recorded.
  if (policyText !== undefined) {
    await ensureParser();
    parsePolicy(policyText, workspace.policyFile);
  }
  await new TrustFileStore({ file: paths.trust }).setTrusted(
    workspace.key,
    true,
    new Date(),
    await workspaceIdentity(workspace.root),
  );
  const approvals = new CommandApprovalFileStore({ file: paths.commandApprovals });
  if (policyText !== undefined) {
    await approvals.put({
      key: workspacePolicyApprovalKey(workspace.key),
      digest: await digestOf(policyText),
      approvedAt: new Date().toISOString(),
      workspaceKey: workspace.key,
      file: workspace.policyFile,
    });
  } else {
    await approvals.delete(workspacePolicyApprovalKey(workspace.key));
  }
  await new AuditLog({ file: paths.audit }).append({
    event: "trust",
    host: "cli",
    workspaceKey: workspace.key,
  });
  println(io.stdout, `trusted ${workspace.root}`);
  if (policyText !== undefined)
    println(io.stdout, `approved its policy file ${workspace.policyFile} as it is now (a change asks again)`);
  return ExitCode.OK;
}

/** `slashi untrust`. */
export async function untrustCommand(args: ParsedArgs, io: Io): Promise<number> {
  const workspace = await resolveWorkspace(cwdOf(args, io));
  const paths = slashiPaths(io);
  await new TrustFileStore({ file: paths.trust }).setTrusted(workspace.key, false);
  await new CommandApprovalFileStore({ file: paths.commandApprovals }).delete(
    workspacePolicyApprovalKey(workspace.key),
  );
  await new AuditLog({ file: paths.audit }).append({
    event: "untrust",
    host: "cli",
    workspaceKey: workspace.key,
  });
  println(io.stdout, `no longer trusting ${workspace.root}`);
  return ExitCode.OK;
}

/** `slashi trust status`: exit 0 when trusted, 10 when not. */
export async function trustStatusCommand(args: ParsedArgs, io: Io): Promise<number> {
  const workspace = await resolveWorkspace(cwdOf(args, io));
  const paths = slashiPaths(io);
  const store = new TrustFileStore({ file: paths.trust });
  const record = await store.get(workspace.key);
  // Trusted at this path, and still the same directory and repository (another one cloned here is not).
  const trusted = await store.isTrusted(workspace.key, await workspaceIdentity(workspace.root));
  const policyText = await readOptional(workspace.policyFile);
  let policyApproved: boolean | undefined;
  if (policyText !== undefined) {
    policyApproved =
      trusted &&
      (await new CommandApprovalFileStore({ file: paths.commandApprovals }).isApproved(
        workspacePolicyApprovalKey(workspace.key),
        await digestOf(policyText),
      ));
  }
  if (args.flags.json === true) {
    println(
      io.stdout,
      JSON.stringify({
        workspace: workspace.root,
        key: workspace.key,
        trusted,
        ...(record ? { at: record.at } : {}),
        ...(policyApproved === undefined ? {} : { policyApproved }),
      }),
    );
  } else {
    println(
      io.stdout,
      `${workspace.root}: ${trusted ? "trusted" : record?.trusted === true ? "not trusted (another directory or repository than the one trusted is here now)" : record ? "not trusted (untrusted explicitly)" : "not trusted"}${record ? ` since ${record.at}` : ""}`,
    );
    if (policyApproved === false)
      println(
        io.stdout,
        `its policy file changed since it was approved, or was never approved: run slashi trust to approve it`,
      );
  }
  return trusted ? ExitCode.OK : ExitCode.ASK;
}
