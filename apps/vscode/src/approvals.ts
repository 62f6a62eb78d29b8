/**
 * Approvals ("Always Allow") of shared slash commands, kept where every host keeps them: the runtime's approvals
 * store (`<state dir>/approvals.json`), so a team or pack command approved here runs without a prompt in
 * `slashi run` and MCP `run_command`, and the other way round. Never in the repository. Approvals that earlier
 * versions kept in VS Code's `workspaceState`/`globalState` are moved there once ({@link moveEditorApprovals}).
 */
import { canonicalWorkspaceKey } from "@slashi/core";
import {
  approvalWorkspaceKey,
  type ApprovalFileStore,
  type ApprovalImport,
  type StoredApproval,
} from "@slashi/runtime";

/** The part of VS Code's `Memento` the move needs. */
export interface KeyValueState {
  /** Reads a value. */
  get<T>(key: string): T | undefined;
  /** Writes a value (`undefined` removes it). */
  update(key: string, value: unknown): PromiseLike<void>;
}

/** The key under which earlier versions kept approval records in a memento (a map from key to record). */
export const APPROVALS_STATE_KEY = "slashi.approvals.v1";

/** One approval as the extension lists it. */
export interface ListedApproval {
  /** The stored record. */
  record: StoredApproval;
  /** A team command of a folder of this window, or a pack command (held in every workspace). */
  scope: "workspace" | "pack";
}

/**
 * The shared approvals store as this window sees it: the store itself (the runtime's slash-command approver reads
 * and records every shared command's approval there), and list and reset limited to this window's workspaces and
 * the packs. Approvals of other workspaces (recorded by any host) are left alone.
 */
export class SharedApprovals {
  readonly #store: ApprovalFileStore;
  readonly #workspaceKeys: () => readonly string[];

  /**
   * @param store - the runtime's approvals store
   * @param workspaceKeys - the keys of this window's workspace folders (and workspace file)
   */
  constructor(store: ApprovalFileStore, workspaceKeys: () => readonly string[]) {
    this.#store = store;
    this.#workspaceKeys = workspaceKeys;
  }

  /** The runtime's approvals store itself, for the runtime's slash-command approver. */
  get store(): ApprovalFileStore {
    return this.#store;
  }

  #scope(record: StoredApproval): ListedApproval["scope"] | undefined {
    const key = approvalWorkspaceKey(record);
    if (key === undefined) return "pack";
    return this.#workspaceKeys().includes(key) ? "workspace" : undefined;
  }

  /** The approvals of this window's workspaces and of packs, oldest first. */
  async list(): Promise<ListedApproval[]> {
    const listed: ListedApproval[] = [];
    for (const record of await this.#store.list()) {
      const scope = this.#scope(record);
      if (scope !== undefined) listed.push({ record, scope });
    }
    return listed.sort((a, b) => (a.record.approvedAt < b.record.approvedAt ? -1 : 1));
  }

  /** Removes one approval; false when there was none. */
  revoke(key: string): Promise<boolean> {
    return this.#store.delete(key);
  }

  /** Removes the approvals of this window's workspaces (packs too with `packs`); returns how many. */
  reset(options: { packs: boolean }): Promise<number> {
    return this.#store.reset((record) => {
      const scope = this.#scope(record);
      return scope === "workspace" || (options.packs && scope === "pack");
    });
  }
}

/**
 * The workspace key earlier versions of the extension used for a folder's approvals: the core's key of the
 * resolved path, case-folded on macOS. Every host now uses the runtime's `workspaceKeyOf`, which is not.
 * @param realPath - the folder's symlink-resolved path
 */
export function editorWorkspaceKey(realPath: string, platform: NodeJS.Platform): string {
  return canonicalWorkspaceKey(realPath, platform === "darwin" ? { caseInsensitive: true } : {});
}

/**
 * Moves the approvals earlier versions kept in VS Code's mementos into the shared store, once: the records the
 * core can verify are imported (a later approval in the store wins), then the memento entry is removed. When the
 * store cannot be written, the memento keeps its records and the move is tried again on the next start. Records
 * that cannot be verified could never approve anything and are dropped.
 * @param workspaceKey - maps an old workspace key to the one every host uses
 */
export async function moveEditorApprovals(
  states: readonly KeyValueState[],
  store: ApprovalFileStore,
  workspaceKey?: (stored: string) => string,
): Promise<ApprovalImport> {
  const total: ApprovalImport = { imported: 0, kept: 0, ignored: 0 };
  for (const state of states) {
    const value = state.get<unknown>(APPROVALS_STATE_KEY);
    if (value === undefined) continue;
    const records = typeof value === "object" && value !== null ? Object.values(value) : [value];
    const moved = await store.importRecords(records, {
      host: "vscode",
      ...(workspaceKey === undefined ? {} : { workspaceKey }),
    });
    await state.update(APPROVALS_STATE_KEY, undefined);
    total.imported += moved.imported;
    total.kept += moved.kept;
    total.ignored += moved.ignored;
  }
  return total;
}
