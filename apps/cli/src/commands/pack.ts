/** `slashi pack init|publish|search|info|install|update|remove|list`: action packs over the npm registry protocol. */
import path from "node:path";
import {
  PackManager,
  describeUpdateChanges,
  loadRegistries,
  preparePublish,
  publishPack,
  scaffoldPack,
  type PackDescription,
  type UpdatePlan,
} from "@slashi/registry-client";
import { formatLocation, type SourceLocation } from "@slashi/core";
import { formatPattern } from "@slashi/core/internal";
import { CommandApprovalFileStore, extendsLocations, packPolicyApprovalKey } from "@slashi/runtime";
import { CliError, ExitCode, UsageError } from "../errors.js";
import { jsonText, paint, println, shown, type Io } from "../io.js";
import type { ParsedArgs } from "../command-spec.js";
import { choose } from "../prompt.js";
import { startProgress, withProgress } from "../progress.js";
import { openSession, slashiPaths } from "../context.js";

/** The pack manager for this process: registries from the config dir, packs in `<state dir>/packs`. */
export async function packManager(io: Io): Promise<PackManager> {
  const paths = slashiPaths(io);
  return new PackManager({
    packsDir: paths.packs,
    registries: await loadRegistries(paths.configDir),
    tokenEnvironment: { env: io.env, ...(io.env.HOME ? { home: io.env.HOME } : {}) },
  });
}

/** Splits `name@version` (`@scope/name@1.2.0`, `name@latest`); the version is optional. */
export function splitSpec(word: string): { name: string; spec?: string } {
  const at = word.lastIndexOf("@");
  if (at <= 0) return { name: word };
  return { name: word.slice(0, at), spec: word.slice(at + 1) };
}

function json(io: Io, value: unknown): void {
  println(io.stdout, jsonText(value, 2));
}

/** Prints a pack's commands: fingerprint, and each step that needs approval in plain words. */
function printDescription(io: Io, description: PackDescription): void {
  const width = Math.max(0, ...description.commands.map((c) => shown`${c.name}`.length + 1));
  for (const command of description.commands) {
    const tag = command.needsApproval ? "" : paint(io, "dim", "  (no approval needed)");
    println(io.stdout, shown`  /${command.name}`.padEnd(width + 2) + `  ${command.fingerprint}${tag}`);
    if (command.description) println(io.stdout, `    ${paint(io, "dim", shown`${command.description}`)}`);
    for (const step of command.steps.filter((s) => s.needsApproval))
      println(io.stdout, `    needs approval: ${step.text}`);
  }
  if (description.policy) {
    const rules = description.policy.rules?.length ?? 0;
    const extended = description.policy.extends?.length
      ? ` (extends ${description.policy.extends.join(", ")})`
      : "";
    println(
      io.stdout,
      `  policy: ${rules} rule${rules === 1 ? "" : "s"}${extended}, ${description.policyFingerprint}`,
    );
  }
}

function needOperands(args: ParsedArgs, what: string): string[] {
  if (args.operands.length === 0)
    throw new UsageError(`give ${what}`, `see slashi ${args.spec.path.join(" ")} --help`);
  return args.operands;
}

/** `slashi pack init [DIR] --name NAME`. */
export async function packInit(args: ParsedArgs, io: Io): Promise<number> {
  const name = args.flags.name;
  if (typeof name !== "string")
    throw new UsageError("give the pack's npm name with --name", "slashi pack init --name @acme/slashi-pack");
  if (args.operands.length > 1) throw new UsageError("give at most one folder");
  const dir = path.resolve(io.cwd, args.operands[0] ?? ".");
  const written = await scaffoldPack(dir, {
    name,
    ...(typeof args.flags.description === "string" ? { description: args.flags.description } : {}),
    ...(typeof args.flags.version === "string" ? { version: args.flags.version } : {}),
  });
  for (const file of written) println(io.stdout, `wrote ${file}`);
  println(
    io.stdout,
    `next: edit slashi-pack.json, then run: slashi pack publish${args.operands[0] ? ` ${args.operands[0]}` : ""} --dry-run`,
  );
  return ExitCode.OK;
}

/** `slashi pack publish [DIR] [--tag TAG] [--dry-run] [--yes]`. */
export async function packPublish(args: ParsedArgs, io: Io): Promise<number> {
  if (args.operands.length > 1) throw new UsageError("give at most one folder");
  const dir = path.resolve(io.cwd, args.operands[0] ?? ".");
  const tag = typeof args.flags.tag === "string" ? args.flags.tag : "latest";
  const pack = await preparePublish(dir);
  const { name, version } = pack.content.packageJson;
  const manager = await packManager(io);
  const dryRun = args.flags["dry-run"] === true;
  // The client is made first so a missing token stops before the question.
  const client = dryRun ? undefined : await manager.client(name, true);
  const registry = client?.registry.url ?? (await manager.client(name)).registry.url;
  if (args.flags.json === true && dryRun) {
    json(io, {
      name,
      version,
      registry,
      tag,
      files: pack.files,
      integrity: pack.integrity,
      description: pack.description,
      published: false,
    });
    return ExitCode.OK;
  }
  if (args.flags.json !== true) {
    println(io.stdout, `${name}@${version} → ${registry} (tag ${tag})`);
    printDescription(io, pack.description);
    println(io.stdout, `  files: ${pack.files.join(", ")} (${pack.tarball.length} bytes, ${pack.integrity})`);
  }
  if (dryRun || !client) {
    println(io.stdout, "dry run: nothing was published");
    return ExitCode.OK;
  }
  if (args.flags.yes !== true) {
    if (!io.interactive)
      throw new CliError(
        "publishing asks for confirmation; there is no terminal",
        ExitCode.RUN_NEEDS_APPROVAL,
        "add --yes",
      );
    const answer = await choose(io, `Publish ${name}@${version} to ${registry}?`, [
      { key: "y", label: "publish", value: "yes" },
      { key: "n", label: "cancel", value: "no" },
    ]);
    if (answer !== "yes") {
      println(io.stderr, "cancelled: nothing was published");
      return ExitCode.RUN_CANCELLED;
    }
  }
  await withProgress(io, `publishing ${name}@${version} to ${registry}`, () =>
    publishPack(client, pack, tag),
  );
  if (args.flags.json === true)
    json(io, { name, version, registry, tag, integrity: pack.integrity, published: true });
  else println(io.stdout, `published ${name}@${version}`);
  return ExitCode.OK;
}

/** `slashi pack search [WORDS...]`. */
export async function packSearch(args: ParsedArgs, io: Io): Promise<number> {
  const manager = await packManager(io);
  const hits = await withProgress(
    io,
    `searching ${manager.registries.length} registr${manager.registries.length === 1 ? "y" : "ies"}`,
    () => manager.search(args.operands.join(" ")),
  );
  if (args.flags.json === true) {
    json(io, hits);
    return ExitCode.OK;
  }
  if (hits.length === 0) println(io.stderr, "no packs found");
  for (const hit of hits)
    println(
      io.stdout,
      `${hit.name}@${hit.version}${hit.description ? `  ${hit.description}` : ""}  ${paint(io, "dim", hit.registry)}`,
    );
  return ExitCode.OK;
}

/** `slashi pack info NAME[@VERSION] [--remote]`. */
export async function packInfo(args: ParsedArgs, io: Io): Promise<number> {
  const [word] = needOperands(args, "a pack name");
  const { name, spec } = splitSpec(word as string);
  const manager = await packManager(io);
  const info = await withProgress(io, `looking up ${name}`, () =>
    manager.info(name, { ...(spec === undefined ? {} : { spec }), remote: args.flags.remote === true }),
  );
  if (args.flags.json === true) {
    json(io, {
      ...(info.installed
        ? { installed: { entry: info.installed.entry, description: info.installed.description } }
        : {}),
      ...(info.remote
        ? {
            remote: {
              version: info.remote.version,
              integrity: info.remote.integrity,
              registry: info.remote.registry,
              signature: info.remote.signature,
              available: info.remote.available,
              description: info.remote.description,
            },
          }
        : {}),
    });
    return ExitCode.OK;
  }
  if (info.installed) {
    const e = info.installed.entry;
    println(io.stdout, `${name}@${e.version} installed from ${e.registry} on ${e.installedAt}`);
    println(io.stdout, `  integrity ${e.integrity}; signature ${e.signature}`);
    printDescription(io, info.installed.description);
  }
  if (info.remote) {
    const r = info.remote;
    const signature =
      r.signature.status === "verified"
        ? `verified (key ${r.signature.keyid})`
        : `unsigned (${r.signature.reason})`;
    println(io.stdout, `${name}@${r.version} in ${r.registry}${info.installed ? "" : " (not installed)"}`);
    println(io.stdout, `  integrity ${r.integrity} (matches the download); signature ${signature}`);
    println(
      io.stdout,
      `  tags: ${Object.entries(r.available.tags)
        .map(([t, v]) => `${t} ${v}`)
        .join(", ")}`,
    );
    printDescription(io, r.description);
  }
  return ExitCode.OK;
}

/** `slashi pack install NAME[@VERSION|@TAG]...`. */
export async function packInstall(args: ParsedArgs, io: Io): Promise<number> {
  const manager = await packManager(io);
  const results = [];
  for (const word of needOperands(args, "a pack name")) {
    const { name, spec } = splitSpec(word);
    const result = await withProgress(io, `downloading and verifying ${name}`, () =>
      manager.install(name, spec),
    );
    results.push(result);
    if (args.flags.json === true) continue;
    const signature =
      result.signature.status === "verified" ? "signature verified" : `unsigned: ${result.signature.reason}`;
    const what = result.unchanged
      ? "already installed"
      : result.previousVersion
        ? `installed (was ${result.previousVersion})`
        : "installed";
    println(
      io.stdout,
      `${name}@${result.version} ${what}; integrity ${result.integrity} matches the registry; ${signature}`,
    );
    printDescription(io, result.description);
  }
  if (args.flags.json === true)
    json(
      io,
      results.map(({ description: _d, ...r }) => r),
    );
  return ExitCode.OK;
}

function printPlan(io: Io, plan: UpdatePlan): void {
  println(io.stdout, `${plan.name}: ${plan.from} → ${plan.to}`);
  for (const line of describeUpdateChanges(plan.changes, plan.policyChanged)) println(io.stdout, `  ${line}`);
}

/** `slashi pack update [NAME...] [--yes]`. */
export async function packUpdate(args: ParsedArgs, io: Io): Promise<number> {
  const manager = await packManager(io);
  const yes = args.flags.yes === true;
  // The progress line is erased while a plan is shown and asked about, and comes back for the download.
  const progress = startProgress(io, "checking installed packs for updates");
  const accept = async (plan: UpdatePlan): Promise<boolean> => {
    if (args.flags.json !== true) printPlan(io, plan);
    if (!plan.needsConfirmation || yes) return true;
    if (!io.interactive) return false;
    const answer = await choose(io, `Update ${plan.name} to ${plan.to}?`, [
      { key: "y", label: "update", value: "yes" },
      { key: "n", label: "skip", value: "no" },
    ]);
    return answer === "yes";
  };
  let results;
  try {
    results = await manager.update(args.operands, {
      confirm: async (plan) => {
        progress.pause();
        const accepted = await accept(plan);
        progress.step(
          accepted ? `installing ${plan.name}@${plan.to}` : "checking installed packs for updates",
        );
        return accepted;
      },
    });
  } finally {
    progress.stop();
  }
  if (args.flags.json === true) {
    json(
      io,
      results.map((r) => (r.status === "updated" ? { name: r.name, status: r.status, plan: r.plan } : r)),
    );
  } else {
    for (const r of results) {
      if (r.status === "current") println(io.stdout, `${r.name}@${r.version} is up to date`);
      else if (r.status === "declined")
        println(
          io.stdout,
          `${r.name}: not updated${io.interactive || yes ? "" : " (add --yes to accept without a terminal)"}`,
        );
      else println(io.stdout, `${r.name}: updated to ${r.result.version}`);
    }
  }
  return results.some((r) => r.status === "declined") ? ExitCode.RUN_CANCELLED : ExitCode.OK;
}

/**
 * Where the policy in force here extends each pack: the user, managed and workspace files and the other
 * installed packs' policies. `undefined` when the policy cannot be loaded (then nothing can be said).
 */
async function extendedAt(
  io: Io,
  names: readonly string[],
): Promise<Map<string, SourceLocation[]> | undefined> {
  let snapshot;
  try {
    snapshot = await (await openSession(io)).current();
  } catch {
    return undefined;
  }
  const sources = snapshot.layers.map((layer) => ({ layer, text: snapshot.texts.get(layer.source) }));
  return new Map(
    names.map((name) => [name, extendsLocations(name, sources).filter((at) => at.file !== name)]),
  );
}

/**
 * `slashi pack remove NAME... [--force]`: refuses to remove a pack that the policy in force extends (every
 * later decision would fail on the missing pack) and names the file and line to change; `--force` removes it
 * anyway and says the same.
 */
export async function packRemove(args: ParsedArgs, io: Io): Promise<number> {
  const names = needOperands(args, "a pack name");
  const force = args.flags.force === true;
  const extended = await extendedAt(io, names);
  const blocked = names.filter((name) => (extended?.get(name)?.length ?? 0) > 0);
  for (const name of blocked) {
    const where = (extended?.get(name) ?? []).map((at) => formatLocation(at).replace(/: $/, ""));
    println(
      io.stderr,
      `${force ? "warning: " : ""}${name} is extended by the policy at ${where.join(", ")}; ${
        force
          ? "every decision fails until that entry is removed"
          : "remove that entry first, or add --force to remove the pack anyway"
      }`,
    );
  }
  if (blocked.length > 0 && !force) return ExitCode.INVALID_INPUT;
  const manager = await packManager(io);
  let missing = false;
  for (const name of names) {
    if (await manager.remove(name)) println(io.stdout, `removed ${name}`);
    else {
      println(io.stderr, `${name} is not installed`);
      missing = true;
    }
  }
  return missing ? ExitCode.INVALID_INPUT : ExitCode.OK;
}

/** `slashi pack list`. */
export async function packList(args: ParsedArgs, io: Io): Promise<number> {
  const packs = await (await packManager(io)).list();
  if (args.flags.json === true) {
    json(
      io,
      packs.map(({ name, entry }) => ({ name, ...entry })),
    );
    return ExitCode.OK;
  }
  if (packs.length === 0) println(io.stderr, "no packs installed");
  for (const { name, entry } of packs)
    println(
      io.stdout,
      `${name}@${entry.version}  ${entry.integrity.slice(0, 22)}…  ${entry.signature}  ${paint(io, "dim", entry.registry)}`,
    );
  return ExitCode.OK;
}

/**
 * `slashi pack approve NAME [--revoke]`: approves the installed pack's policy as it is now, so its allow rules
 * count for policies that extend it. Bound to the policy's fingerprint (pack, exact version, integrity).
 */
export async function packApprove(args: ParsedArgs, io: Io): Promise<number> {
  const [name] = needOperands(args, "a pack name");
  const store = new CommandApprovalFileStore({ file: slashiPaths(io).commandApprovals });
  const key = packPolicyApprovalKey(name as string);
  if (args.flags.revoke === true) {
    const removed = await store.delete(key);
    println(
      io.stdout,
      removed ? `revoked the approval of ${name}'s policy` : `${name}'s policy was not approved`,
    );
    return ExitCode.OK;
  }
  const pack = await (await packManager(io)).loadInstalled(name as string);
  const { policy, policyFingerprint } = pack.description;
  if (!policy || !policyFingerprint)
    throw new CliError(
      `${name}@${pack.entry.version} offers no policy; there is nothing to approve`,
      ExitCode.INVALID_INPUT,
    );
  println(io.stdout, `${name}@${pack.entry.version} policy ${policyFingerprint}`);
  for (const rule of policy.rules ?? [])
    println(
      io.stdout,
      `  ${rule.decision.padEnd(5)} ${formatPattern(rule.match)}${rule.reason ? `  (${rule.reason})` : ""}`,
    );
  for (const key of ["approvedCommands", "allowedCommands", "networkAllowedCommands"] as const)
    if (policy[key]?.length) println(io.stdout, `  ${key}: ${policy[key]?.join(", ")}`);
  for (const key of ["allowNetwork", "allowWorkspaceWrites", "skipConfirmInCordon"] as const)
    if (policy[key] !== undefined) println(io.stdout, `  ${key}: ${String(policy[key])}`);
  if (args.flags.yes !== true) {
    if (!io.interactive)
      throw new CliError(
        "approving asks for confirmation; there is no terminal",
        ExitCode.RUN_NEEDS_APPROVAL,
        "add --yes",
      );
    const answer = await choose(io, `Let the allow rules and settings of ${name}'s policy count?`, [
      { key: "y", label: "approve", value: "yes" },
      { key: "n", label: "cancel", value: "no" },
    ]);
    if (answer !== "yes") return ExitCode.RUN_CANCELLED;
  }
  await store.put({
    key,
    digest: policyFingerprint,
    approvedAt: new Date().toISOString(),
    pack: name,
    version: pack.entry.version,
  });
  println(io.stdout, `approved ${name}@${pack.entry.version}'s policy as it is now (an update asks again)`);
  return ExitCode.OK;
}
