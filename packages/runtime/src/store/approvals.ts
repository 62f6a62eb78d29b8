import {
  approvalKey,
  approvalStateOf,
  makeApprovalRecord,
  type ApprovalRecord,
  type ApprovalState,
  type ApprovalStore,
  type Clock,
  type CommandDefinition,
  type CommandIdentity,
} from "@slashi/core";
import { commandIdentityKey, isApprovalRecordValid, parseApprovalKey } from "@slashi/core/internal";
import { workspaceIdentity } from "../config/workspace-identity.js";
import { check, RecordStore, setRecord, type RecordStoreOptions } from "./record-store.js";

/** The host that recorded an approval or a log entry. */
export type SlashiHost = "cli" | "mcp" | "vscode";

const HOSTS: readonly string[] = ["cli", "mcp", "vscode"];

/**
 * An "Always allow" of a Slashi command as stored: the core's {@link ApprovalRecord} (key, identity, fingerprint,
 * canonical steps, time; build it with the core's `makeApprovalRecord`) plus what the host adds.
 */
export interface StoredApproval extends ApprovalRecord {
  /** Which host recorded it. */
  host?: SlashiHost;
  /** Fingerprints of commands reached through `slash` steps that were approved with it, if the host records them. */
  steps?: string[];
  /** Canonical workspace key, for "reset approvals of this workspace". */
  workspaceKey?: string;
  /**
   * For a team command: the identity of the repository it was approved in (runtime's `workspaceIdentity` of the
   * workspace root, as trust keeps it). A team approval is used only in that same repository: another one cloned
   * or initialised at the same path asks again. Absent in records written before it was kept: those are never
   * used (the person is asked once more).
   */
  repository?: string;
}

/**
 * Why a team command's earlier approval at this path is not used: it was given in another repository that sat
 * at the same path (`other-repository`), or before Slashi kept repository identities (`unconfirmed`).
 */
export type RepositoryMismatch = "other-repository" | "unconfirmed";

/** What a prompt says about a team command whose approval at this path is not used ({@link RepositoryMismatch}). */
export function repositoryMismatchNote(mismatch: RepositoryMismatch): string {
  return mismatch === "other-repository"
    ? "approved in another repository that was at this path before (a new clone or a new repository): asks again"
    : "approved before Slashi kept which repository an approval belongs to: asks once more";
}

/**
 * How a shared command stands against the approvals store: the core's {@link ApprovalState}; for a team command
 * whose approval at this path belongs to another repository, `new` with the reason in `repository`.
 */
export type StoredApprovalState = ApprovalState & {
  /** Set when an approval at this path exists but is not used, and why (say it in the prompt). */
  repository?: RepositoryMismatch;
};

/** What {@link ApprovalFileStore.importRecords} did. */
export interface ApprovalImport {
  /** Records now in the file (added, or newer than the one the file held under the same key). */
  imported: number;
  /** Records the file already held, approved at the same time or later. */
  kept: number;
  /** Entries the core cannot verify (edited, of an old format, not records at all): never stored. */
  ignored: number;
}

/** Options of {@link ApprovalFileStore.importRecords}. */
export interface ApprovalImportOptions {
  /** The host the records came from. */
  host: SlashiHost;
  /**
   * Maps the workspace key a team command was approved under to the key every host uses now (a host that keyed
   * workspaces its own way); the record is re-keyed, its fingerprint and steps unchanged.
   */
  workspaceKey?: (stored: string) => string;
}

/** The workspace a stored approval belongs to: its `workspaceKey`, or the one in its key; none for a pack. */
export function approvalWorkspaceKey(record: StoredApproval): string | undefined {
  if (record.workspaceKey !== undefined) return record.workspaceKey;
  try {
    const parsed = parseApprovalKey(record.key);
    return parsed.source === "workspace" ? parsed.workspaceKey : undefined;
  } catch {
    return undefined;
  }
}

function stored(
  record: ApprovalRecord,
  identity: CommandIdentity,
  host: SlashiHost,
  repository?: string,
): StoredApproval {
  return {
    ...record,
    host,
    // Pack approvals hold in every workspace, so they carry no workspace key and survive a workspace reset.
    ...(identity.source === "workspace" ? { workspaceKey: identity.workspaceKey } : {}),
    ...(repository === undefined ? {} : { repository }),
  };
}

/**
 * The identity of the repository a team command lives in: runtime's `workspaceIdentity` of the folder its
 * workspace key names (a workspace key is the canonical path of the workspace root).
 */
function repositoryOf(identity: CommandIdentity & { source: "workspace" }): Promise<string> {
  return workspaceIdentity(identity.workspaceKey);
}

/**
 * How a shared command stands against stored approvals, for every host: the core's `approvalStateOf`, except
 * that a team command's approvals recorded in this workspace count only when they were given in the repository
 * that sits at its path now (see {@link StoredApproval.repository}). When only such an unused approval exists,
 * the state is `new` and `repository` says why.
 * @param definition - the definition as loaded now
 * @param identity - who the command is; none for the person's own command, which is never stored (`new`)
 * @param records - the approvals store's records (`await store.list()`)
 */
export async function storedApprovalState(
  definition: CommandDefinition,
  identity: CommandIdentity | undefined,
  records: readonly StoredApproval[],
): Promise<StoredApprovalState> {
  return approvalStates(records)(definition, identity);
}

/** How one command stands against a set of stored approvals ({@link approvalStates}). */
export type ApprovalStates = (
  definition: CommandDefinition,
  identity: CommandIdentity | undefined,
) => Promise<StoredApprovalState>;

/**
 * {@link storedApprovalState} over one set of records for many commands (a catalogue's, a run's): the identity
 * of each workspace's repository is read once, however many of its team commands are asked about.
 * @param records - the approvals store's records (`await store.list()`)
 * @param readRepository - the identity of the repository at a workspace root (default: the runtime's
 *   `workspaceIdentity`, which a workspace key names as the canonical path of the root)
 */
export function approvalStates(
  records: readonly StoredApproval[],
  readRepository: (workspaceKey: string) => Promise<string> = workspaceIdentity,
): ApprovalStates {
  const repositories = new Map<string, Promise<string>>();
  return async (definition, identity) => {
    if (identity === undefined) return { state: "new" };
    if (identity.source !== "workspace") return approvalStateOf(definition, identity, records);
    const key = identity.workspaceKey;
    let read = repositories.get(key);
    if (read === undefined) repositories.set(key, (read = readRepository(key)));
    const repository = await read;
    const here = (record: StoredApproval): boolean => approvalWorkspaceKey(record) === key;
    const usable = records.filter((record) => !here(record) || record.repository === repository);
    const state = approvalStateOf(definition, identity, usable);
    if (state.state !== "new") return state;
    const unused = records.filter((record) => here(record) && record.repository !== repository);
    if (approvalStateOf(definition, identity, unused).state === "new") return state;
    return {
      state: "new",
      repository: unused.some((record) => record.repository !== undefined)
        ? "other-repository"
        : "unconfirmed",
    };
  };
}

/** Format version of `approvals.json`. */
export const APPROVALS_VERSION = 1;

/**
 * The approvals file (`<state>/approvals.json`), implementing the core's `ApprovalStore` port. The core ignores
 * records it cannot verify (`isApprovalRecordValid`); this store refuses a file whose shape is wrong. Log
 * changes to the audit log (`approve`, `revoke`, `reset` events).
 */
export class ApprovalFileStore extends RecordStore<StoredApproval> implements ApprovalStore {
  /** @param options - file and lock tuning */
  constructor(options: RecordStoreOptions) {
    super(options, "slashi.approvals", APPROVALS_VERSION, "key", (record) => {
      return (
        check.string(record, "identity") ??
        check.string(record, "fingerprint") ??
        check.string(record, "canonical") ??
        check.string(record, "approvedAt") ??
        (record.host === undefined || HOSTS.includes(record.host as string)
          ? undefined
          : { jsonPath: "/host", message: `host must be one of ${HOSTS.join(", ")}` }) ??
        check.optionalStrings(record, "steps") ??
        check.optionalString(record, "workspaceKey") ??
        check.optionalString(record, "repository")
      );
    });
  }

  /** The approval state of a shared command against every record in the file ({@link storedApprovalState}). */
  async stateOf(definition: CommandDefinition, identity: CommandIdentity): Promise<StoredApprovalState> {
    return storedApprovalState(definition, identity, await this.list());
  }

  /**
   * Records the person's "Always allow" of one shared command exactly as it is now: the core's record, the host,
   * and for a team command its workspace key and the identity of the repository at that path now. Every host
   * reads it from this file. Audit logging is the caller's.
   * @throws SlashiError `STEP_NOT_ALLOWED` (from the core) for a command its source may never run
   */
  async remember(
    definition: CommandDefinition,
    identity: CommandIdentity,
    options: { host: SlashiHost; clock: Clock },
  ): Promise<StoredApproval> {
    const record = stored(
      makeApprovalRecord(definition, identity, options.clock),
      identity,
      options.host,
      identity.source === "workspace" ? await repositoryOf(identity) : undefined,
    );
    await this.put(record);
    return record;
  }

  /**
   * Moves approvals a host kept elsewhere into this file, in one locked update. Only records the core can verify
   * are stored (an edited or unknown record never becomes an approval); a record the file already holds under
   * the same key, approved at the same time or later, stays as it is. Nothing is removed from the file. Team
   * records come without a repository identity (nothing tells which repository they were given in), so they are
   * not used until the person approves the command again.
   */
  async importRecords(records: readonly unknown[], options: ApprovalImportOptions): Promise<ApprovalImport> {
    const result: ApprovalImport = { imported: 0, kept: 0, ignored: 0 };
    const incoming: StoredApproval[] = [];
    for (const entry of records) {
      if (!isApprovalRecordValid(entry)) {
        result.ignored++;
        continue;
      }
      const { fingerprint, ...identity } = parseApprovalKey(entry.key);
      const moved: CommandIdentity =
        identity.source === "workspace" && options.workspaceKey
          ? { ...identity, workspaceKey: options.workspaceKey(identity.workspaceKey) }
          : identity;
      const record: ApprovalRecord = {
        key: approvalKey({ ...moved, fingerprint }),
        identity: commandIdentityKey(moved),
        fingerprint,
        canonical: entry.canonical,
        approvedAt: entry.approvedAt,
      };
      incoming.push(stored(record, moved, options.host));
    }
    if (incoming.length === 0) return result;
    await this.store.update((document) => {
      for (const record of incoming) {
        const present = Object.hasOwn(document.records, record.key)
          ? document.records[record.key]
          : undefined;
        if (present !== undefined && present.approvedAt >= record.approvedAt) {
          result.kept++;
          continue;
        }
        setRecord(document.records, record.key, record);
        result.imported++;
      }
    });
    return result;
  }
}
