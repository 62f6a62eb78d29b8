/**
 * What a pack would ask a person to approve: each command's fingerprint and approval key, each step in plain
 * words (core's `renderStep`), which steps need approval, and anything a shared command may never do.
 */
import {
  approvalKey,
  canonicalize,
  checkSharedCommand,
  describeStepChanges,
  diffSteps,
  fingerprintCommand,
  renderStep,
  stepNeedsApproval,
} from "@slashi/core";
import { fingerprintOfCanonical } from "@slashi/core/internal";
import type { CommandDefinition, PackManifest, PolicyDocument, StepViolation } from "@slashi/core";

/** Who a pack is: what approvals bind to. */
export interface PackIdentity {
  /** Package name. */
  name: string;
  /** Exact version. */
  version: string;
  /** `dist.integrity` of the tarball, when known (not before publishing). */
  integrity?: string;
}

/** One step, described. */
export interface DescribedStep {
  /** Position in the command. */
  index: number;
  /** Step kind. */
  type: string;
  /** The step in plain words, unexpanded, invisible characters made visible. */
  text: string;
  /** True when running it needs the person's approval. */
  needsApproval: boolean;
}

/** One command, described. */
export interface DescribedCommand {
  /** Command name. */
  name: string;
  /** Description, if any. */
  description?: string;
  /** The command's fingerprint (`slashi-fp-1:sha256:…`). */
  fingerprint: string;
  /** The approval key binding pack id, exact version, integrity and fingerprint (only when the version is known). */
  approvalKey?: string;
  /** Every step. */
  steps: DescribedStep[];
  /** True when any step needs approval. */
  needsApproval: boolean;
  /** What a shared command may never do (such a command can never run). */
  violations: StepViolation[];
}

/** A pack, described. */
export interface PackDescription {
  /** Identity. */
  identity: PackIdentity;
  /** Commands, in manifest order. */
  commands: DescribedCommand[];
  /** The offered policy, if any. */
  policy?: PolicyDocument;
  /** Fingerprint of the offered policy bound to this pack version ({@link packPolicyFingerprint}). */
  policyFingerprint?: string;
}

/** Format tag of {@link packPolicyFingerprint}'s canonical document. */
export const PACK_POLICY_FORMAT = "slashi-pack-policy-1";

/**
 * The fingerprint of a pack's offered policy, bound to pack id, exact version and integrity: what a person
 * approves so that the pack layer's allow rules count. Any change of the policy or of the version changes it.
 */
export function packPolicyFingerprint(identity: PackIdentity, policy: PolicyDocument): string {
  return fingerprintOfCanonical(
    canonicalize({
      format: PACK_POLICY_FORMAT,
      pack: identity.name,
      version: identity.version,
      integrity: identity.integrity ?? "",
      policy,
    }),
  );
}

/** Describes one command of a pack. */
export function describeCommand(def: CommandDefinition, identity: PackIdentity): DescribedCommand {
  const fingerprint = fingerprintCommand(def);
  const steps = def.steps.map((step, index) => ({
    index,
    type: step.type,
    text: renderStep(step),
    needsApproval: stepNeedsApproval(step),
  }));
  return {
    name: def.name,
    ...(def.description === undefined ? {} : { description: def.description }),
    fingerprint,
    ...(identity.version
      ? {
          approvalKey: approvalKey({
            source: "pack",
            name: def.name,
            packId: identity.name,
            packVersion: identity.version,
            ...(identity.integrity === undefined ? {} : { packIntegrity: identity.integrity }),
            fingerprint,
          }),
        }
      : {}),
    steps,
    needsApproval: steps.some((s) => s.needsApproval),
    violations: checkSharedCommand(def, "pack"),
  };
}

/** Describes a whole pack. */
export function describePack(
  manifest: Pick<PackManifest, "commands" | "policy">,
  identity: PackIdentity,
): PackDescription {
  return {
    identity,
    commands: manifest.commands.map((def) => describeCommand(def, identity)),
    ...(manifest.policy === undefined
      ? {}
      : { policy: manifest.policy, policyFingerprint: packPolicyFingerprint(identity, manifest.policy) }),
  };
}

/** How a command differs between two versions of a pack. */
export type CommandChangeKind = "same" | "changed" | "added" | "removed";

/** One line of an update plan. */
export interface CommandChange {
  /** Command name. */
  name: string;
  /** What happened to it. */
  change: CommandChangeKind;
  /** True when the new version's command needs approval (it will ask again: approvals bind the exact version). */
  needsApproval: boolean;
  /** Fingerprint before. */
  before?: string;
  /** Fingerprint after. */
  after?: string;
  /**
   * For a changed command: what changed, one line each, old and new (`step 2 changed: Terminal: git status
   * (was: Terminal: git status --short)`); steps compared in plain words, as core's `describeStepChanges` says.
   */
  details?: string[];
}

/** What changed between two versions of one command, one line each. */
function changeDetails(before: DescribedCommand, after: DescribedCommand): string[] {
  const text = (c: DescribedCommand): string[] => c.steps.map((step) => step.text);
  return [
    ...(before.description === after.description ? [] : ["description changed"]),
    ...describeStepChanges(diffSteps(text(before), text(after)), String),
  ];
}

/**
 * Compares the commands of two versions by fingerprint.
 * @returns one entry per command name of either version, new version's order first
 */
export function compareCommands(
  before: PackDescription | undefined,
  after: PackDescription,
): CommandChange[] {
  const old = new Map((before?.commands ?? []).map((c) => [c.name, c]));
  const out: CommandChange[] = after.commands.map((c) => {
    const previous = old.get(c.name);
    old.delete(c.name);
    return {
      name: c.name,
      change: previous === undefined ? "added" : previous.fingerprint === c.fingerprint ? "same" : "changed",
      needsApproval: c.needsApproval,
      ...(previous === undefined ? {} : { before: previous.fingerprint }),
      after: c.fingerprint,
      ...(previous !== undefined && previous.fingerprint !== c.fingerprint
        ? { details: changeDetails(previous, c) }
        : {}),
    };
  });
  for (const c of old.values())
    out.push({ name: c.name, change: "removed", needsApproval: false, before: c.fingerprint });
  return out;
}

/**
 * An update's changes as lines for a person, the same in every host: each command that is not the same
 * (`/deploy: changed (needs approval again)`), under it (indented two spaces) what changed, each step old and new,
 * and `policy: changed` when the offered policy changed. Unchanged commands are left out; no header line (the
 * CLI prints `name: from → to` above, the extension's dialog names the versions in its message).
 */
export function describeUpdateChanges(changes: readonly CommandChange[], policyChanged: boolean): string[] {
  const lines: string[] = [];
  for (const change of changes) {
    if (change.change === "same") continue;
    const asks = change.needsApproval && change.change !== "removed" ? " (needs approval again)" : "";
    lines.push(`/${change.name}: ${change.change}${asks}`);
    for (const line of change.details ?? []) lines.push(`  ${line}`);
  }
  if (policyChanged) lines.push("policy: changed");
  return lines;
}
