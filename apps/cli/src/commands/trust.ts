/**
 * `slashi trust`, `untrust`, `trust status`: the person's decision about the workspace. Trusting loads the team
 * file for `run`/`list`, lets `trustedWorkspaceOnly` rules count, and approves the current content of the
 * workspace policy file (its allow rules count until the file changes), and says what each of these adds.
 */
import path from "node:path";
import {
  isSlashiError,
  makeVisible,
  parsePolicy,
  trustGains,
  type GainedRule,
  type TrustGains,
  type WaitingRule,
} from "@slashi/core";
import {
  AuditLog,
  CommandApprovalFileStore,
  readBoundedText,
  textDigest,
  TrustFileStore,
  trustGainsView,
  trustStateText,
  workspaceIdentity,
  workspacePolicyApprovalKey,
  type TrustGainGroup,
  type Workspace,
} from "@slashi/runtime";
import { ensureParser, openSession, resolveWorkspace, slashiPaths } from "../context.js";
import { ExitCode, formatError, invalidPolicyLine, toExitCode } from "../errors.js";
import { jsonText, println, type Io } from "../io.js";
import type { ParsedArgs } from "../options.js";
import { loadCommands, type LoadedCommands } from "./slash/catalogue.js";

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

/**
 * `slashi trust [--verbose] [--json]`: records trust, approves the workspace policy file as it is now, and prints what that
 * makes count (the file's allow rules and those of what it extends, `trustedWorkspaceOnly` rules, loosening
 * settings) and what now loads (the team file's commands, installed packs). The policy is resolved before anything
 * is recorded, so a policy that does not load is not approved.
 */
export async function trustCommand(args: ParsedArgs, io: Io): Promise<number> {
  const cwd = cwdOf(args, io);
  const workspace = await resolveWorkspace(cwd);
  const paths = slashiPaths(io);
  const policyText = await readOptional(workspace.policyFile);
  // A policy that does not load is not approved: say where and how to fix it, as `policy validate` does, before
  // anything is recorded.
  let snapshot;
  try {
    if (policyText !== undefined) {
      await ensureParser();
      parsePolicy(policyText, workspace.policyFile);
    }
    snapshot = await (await openSession(io, { cwd })).current();
  } catch (error) {
    if (!isSlashiError(error) || args.flags.json === true) throw error;
    println(io.stderr, invalidPolicyLine(error));
    println(
      io.stderr,
      `slashi: ${workspace.root} is not trusted; nothing was recorded. Fix the entry above (slashi policy validate checks it), then run slashi trust again.`,
    );
    return toExitCode(error);
  }
  const gains = trustGains(snapshot.layers);
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
      digest: textDigest(policyText),
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
  // The trust is recorded: a team file that does not load is reported, as `slashi list` would report it.
  let loaded: LoadedCommands | undefined;
  let teamError: string | undefined;
  try {
    loaded = await loadCommands(io, cwd);
    const problem = loaded.problems.find((p) => p.origin === "team-file");
    if (problem !== undefined) throw problem.error;
  } catch (error) {
    teamError = formatError(error);
    println(io.stderr, `slashi: the commands of this workspace do not load: ${teamError}`);
  }
  const entries = loaded?.entries ?? [];
  const packs = [...new Set(entries.flatMap((e) => (e.pack ? [e.pack] : [])))].map((p) => ({
    name: p.id,
    version: p.version,
    commands: entries.filter((e) => e.pack === p).map((e) => e.name),
  }));
  const teamCommands = entries.filter((e) => e.origin === "team-file");
  if (args.flags.json === true) {
    printJson(io, workspace, {
      trusted: true,
      ...(policyText === undefined ? {} : { policyFile: workspace.policyFile }),
      ...gains,
      teamFile: {
        file: workspace.teamFile,
        commands: teamCommands.map((c) => c.name),
        ...(teamError === undefined ? {} : { error: teamError }),
      },
      packs,
    });
    return ExitCode.OK;
  }
  println(io.stdout, `trusted ${workspace.root}`);
  if (policyText !== undefined)
    println(io.stdout, `approved its policy file ${workspace.policyFile} as it is now (a change asks again)`);
  printGains(io, gains, args.flags.verbose === true);
  const team = teamCommands.map((c) => `/${c.name}`);
  if (team.length > 0)
    println(
      io.stdout,
      `the team file ${workspace.teamFile} adds ${team.length} command(s) to slashi run and list: ${makeVisible(team.join(", "))} (each asks before its first run, and again when it changes)`,
    );
  for (const pack of packs)
    println(
      io.stdout,
      `the installed pack ${makeVisible(pack.name)}@${makeVisible(pack.version)} adds ${pack.commands.length} command(s) here`,
    );
  return ExitCode.OK;
}

/** `--json` output of the trust commands: the workspace and its key, then the command's own fields. */
function printJson(io: Io, workspace: Workspace, fields: Record<string, unknown>): void {
  println(io.stdout, jsonText({ workspace: workspace.root, key: workspace.key, ...fields }));
}

/** A summary line's patterns: the first few, made visible, and "…" when the group holds more. */
function examplesOf(group: TrustGainGroup<GainedRule | WaitingRule>): string {
  return `${group.examples.map((m) => makeVisible(m)).join(", ")}${group.more ? ", …" : ""}`;
}

/**
 * The gains as lines, grouped by the runtime's `trustGainsView`; text from the repository goes through makeVisible
 * (control characters shown, never sent). The workspace file's own rules are listed one by one; what a preset or
 * pack brings is one line per source unless `verbose`.
 */
function printGains(io: Io, gains: TrustGains, verbose: boolean): void {
  const more = verbose ? "" : "; --verbose lists them";
  const view = trustGainsView(gains, { verbose });
  if (view.empty) {
    println(io.stdout, "no allow rule or loosening setting counts because of this trust");
  } else {
    println(io.stdout, "now counting in this workspace:");
    for (const rule of view.listed)
      println(
        io.stdout,
        `  allow ${makeVisible(rule.match)}${rule.reason === undefined ? "" : `  (${makeVisible(rule.reason)})`}  [${rule.layer} ${makeVisible(rule.source)} ${rule.jsonPath}]`,
      );
    for (const group of view.extended)
      println(
        io.stdout,
        `  ${group.rules.length} allow rule(s) of ${makeVisible(group.source)}, which the policy file extends: ${examplesOf(group)}${more}`,
      );
    // trustedWorkspaceOnly rules count in every trusted workspace: one line per file (--json lists each)
    for (const group of view.trustedOnly)
      println(
        io.stdout,
        `  ${group.rules.length} allow rule(s) of ${group.layer} ${makeVisible(group.source)} marked trustedWorkspaceOnly (--json lists them)`,
      );
    for (const setting of view.settings)
      println(
        io.stdout,
        `  ${setting.key}: ${makeVisible(Array.isArray(setting.value) ? setting.value.join(", ") : String(setting.value))}  [${makeVisible(setting.sources.join(", "))}]`,
      );
  }
  if (view.waitingListed.length + view.waiting.length > 0) {
    println(io.stdout, "still not counting:");
    for (const rule of view.waitingListed)
      println(
        io.stdout,
        `  allow ${makeVisible(rule.match)}  [${rule.layer} ${makeVisible(rule.source)} ${rule.jsonPath}] until ${makeVisible(rule.needs)}`,
      );
    for (const group of view.waiting) {
      const needs = [...new Set(group.rules.map((r) => makeVisible(r.needs)))].join("; or ");
      println(
        io.stdout,
        `  ${group.rules.length} allow rule(s) of ${makeVisible(group.source)}: ${examplesOf(group)}, until ${needs}${more}`,
      );
    }
  }
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
  const state = await store.trustState(workspace.key, await workspaceIdentity(workspace.root));
  const trusted = state === "trusted";
  const policyText = await readOptional(workspace.policyFile);
  let policyApproved: boolean | undefined;
  if (policyText !== undefined) {
    policyApproved =
      trusted &&
      (await new CommandApprovalFileStore({ file: paths.commandApprovals }).isApproved(
        workspacePolicyApprovalKey(workspace.key),
        textDigest(policyText),
      ));
  }
  if (args.flags.json === true) {
    printJson(io, workspace, {
      trusted,
      // The state the text shows: `unconfirmed` is a record from before Slashi kept the repository's identity.
      state,
      status: trustStateText(state, record !== undefined),
      ...(record ? { at: record.at } : {}),
      ...(policyApproved === undefined ? {} : { policyApproved }),
    });
  } else {
    println(
      io.stdout,
      `${workspace.root}: ${trustStateText(state, record !== undefined)}${record ? ` since ${record.at}` : ""}`,
    );
    if (policyApproved === false)
      println(
        io.stdout,
        `its policy file changed since it was approved, or was never approved: run slashi trust to approve it`,
      );
  }
  return trusted ? ExitCode.OK : ExitCode.ASK;
}
