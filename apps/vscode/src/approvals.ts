/**
 * Approvals ("Always Allow") kept in the editor's own state, never in the repository: team commands in the
 * workspace state, pack commands in the global state. Each record is core's fingerprint record; a record that is
 * not valid for the current format is ignored (it can never approve anything).
 */
import {
  approvalStateOf,
  isApprovalRecordValid,
  type ApprovalRecord,
  type ApprovalState,
  type ApprovalStore,
  type CommandDefinition,
  type CommandIdentity,
} from "@slashi/core";

/** The part of VS Code's `Memento` the store needs. */
export interface KeyValueState {
  /** Reads a value. */
  get<T>(key: string): T | undefined;
  /** Writes a value (`undefined` removes it). */
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
}

/** The key under which records are kept in a memento. */
export const APPROVALS_STATE_KEY = "slashi.approvals.v1";

/** An {@link ApprovalStore} over a memento: a map from approval key to record. */
export class MementoApprovalStore implements ApprovalStore {
  readonly #state: KeyValueState;

  /** @param state - `context.workspaceState` or `context.globalState` */
  constructor(state: KeyValueState) {
    this.#state = state;
  }

  #all(): Record<string, ApprovalRecord> {
    const value = this.#state.get<unknown>(APPROVALS_STATE_KEY);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? { ...(value as Record<string, ApprovalRecord>) }
      : {};
  }

  /** A record by key, when present and valid. */
  async get(key: string): Promise<ApprovalRecord | undefined> {
    const record = this.#all()[key];
    return isApprovalRecordValid(record) ? record : undefined;
  }

  /** Stores a record under its key. Refuses a record that is not valid. */
  async put(record: ApprovalRecord): Promise<void> {
    if (!isApprovalRecordValid(record)) throw new Error("refusing to store an invalid approval record");
    const all = this.#all();
    all[record.key] = record;
    await this.#state.update(APPROVALS_STATE_KEY, all);
  }

  /** Removes a record; false when there was none. */
  async delete(key: string): Promise<boolean> {
    const all = this.#all();
    if (!Object.hasOwn(all, key)) return false;
    delete all[key];
    await this.#state.update(APPROVALS_STATE_KEY, all);
    return true;
  }

  /** Every valid record, oldest first. */
  async list(): Promise<ApprovalRecord[]> {
    return Object.values(this.#all())
      .filter((r) => isApprovalRecordValid(r))
      .sort((a, b) => (a.approvedAt < b.approvedAt ? -1 : a.approvedAt > b.approvedAt ? 1 : 0));
  }

  /** Removes every record. Returns how many there were. */
  async clear(): Promise<number> {
    const count = Object.keys(this.#all()).length;
    await this.#state.update(APPROVALS_STATE_KEY, undefined);
    return count;
  }
}

/** The two stores: team commands per workspace, pack commands globally. */
export interface ApprovalStores {
  /** Team and workspace-settings commands (`context.workspaceState`). */
  workspace: MementoApprovalStore;
  /** Pack commands (`context.globalState`). */
  global: MementoApprovalStore;
}

/** The store a command's approvals belong in. */
export function storeFor(stores: ApprovalStores, identity: CommandIdentity): MementoApprovalStore {
  return identity.source === "pack" ? stores.global : stores.workspace;
}

/** The approval state of a definition under an identity, from the right store. */
export async function approvalStateIn(
  stores: ApprovalStores,
  definition: CommandDefinition,
  identity: CommandIdentity,
): Promise<ApprovalState> {
  return approvalStateOf(definition, identity, await storeFor(stores, identity).list());
}
