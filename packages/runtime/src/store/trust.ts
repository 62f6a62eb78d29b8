import { workspaceIdentity } from "../config/workspace-identity.js";
import { check, RecordStore, type RecordStoreOptions } from "./record-store.js";

/** A decision about one workspace. */
export interface TrustRecord {
  /** Canonical workspace key. */
  workspaceKey: string;
  /** Trusted or explicitly untrusted. */
  trusted: boolean;
  /** When (ISO 8601). */
  at: string;
  /**
   * The workspace's identity when it was trusted (runtime's `workspaceIdentity`: which directory and `.git`
   * sit at the path). Absent in records written before it was kept: such a record trusts no repository until
   * the person confirms it once more (`slashi trust`), since nothing tells which repository they trusted.
   */
  identity?: string;
}

/**
 * How a workspace stands in the trust store, for the repository at its path now:
 * - `trusted`: recorded as trusted with this identity;
 * - `untrusted`: no record, or recorded as untrusted;
 * - `other-repository`: trusted for another directory or repository at the same path (a re-clone, a fresh
 *   `git init`, a replaced folder): not trusted;
 * - `unconfirmed`: trusted before identities were kept: not trusted until the person trusts it again.
 */
export type TrustState = "trusted" | "untrusted" | "other-repository" | "unconfirmed";

/**
 * How a workspace's {@link TrustState} reads for a person, in one wording for every host (`slashi trust status`,
 * `slashi run`'s refusal of a team command in a workspace that is not trusted): `other-repository` and
 * `unconfirmed` say that a trust record exists at this path and why it does not count.
 * @param state - the workspace's state ({@link TrustFileStore.trustState})
 * @param recorded - whether the store holds a record for the path (an explicit "untrusted" reads as such)
 * @returns `trusted`, or a phrase starting with "not trusted"
 */
export function trustStateText(state: TrustState, recorded: boolean): string {
  switch (state) {
    case "trusted":
      return "trusted";
    case "untrusted":
      return recorded ? "not trusted (untrusted explicitly)" : "not trusted";
    case "other-repository":
      return "not trusted (another directory or repository than the one trusted is here now)";
    case "unconfirmed":
      return "not trusted until you confirm it (trusted before Slashi kept which repository was trusted: run slashi trust again)";
  }
}

/** Format version of `trust.json`. */
export const TRUST_VERSION = 1;

/** The workspace trust store (`<state>/trust.json`). A workspace without a record is untrusted. */
export class TrustFileStore extends RecordStore<TrustRecord> {
  /** @param options - file and lock tuning */
  constructor(options: RecordStoreOptions) {
    super(
      options,
      "slashi.trust",
      TRUST_VERSION,
      "workspaceKey",
      (record) =>
        check.boolean(record, "trusted") ??
        check.string(record, "at") ??
        check.optionalString(record, "identity"),
    );
  }

  /**
   * How the workspace at `workspaceKey` stands, with the identity of what sits there now ({@link TrustState}).
   * @param identity - runtime's `workspaceIdentity` of the workspace root; by default that of the folder the key
   *   names (a workspace key is the canonical path of its root)
   */
  async trustState(workspaceKey: string, identity?: string): Promise<TrustState> {
    const record = await this.get(workspaceKey);
    if (record?.trusted !== true) return "untrusted";
    if (record.identity === undefined) return "unconfirmed";
    const now = identity ?? (await workspaceIdentity(workspaceKey));
    return record.identity === now ? "trusted" : "other-repository";
  }

  /**
   * True only for a workspace recorded as trusted with the same identity: another repository at the trusted path
   * is not trusted, nor is a record that kept no identity ({@link TrustState} `unconfirmed`).
   * @param identity - runtime's `workspaceIdentity` of the workspace root; by default that of the folder the key
   *   names
   */
  async isTrusted(workspaceKey: string, identity?: string): Promise<boolean> {
    return (await this.trustState(workspaceKey, identity)) === "trusted";
  }

  /**
   * Records trust or distrust of a workspace, now. Trust is recorded with the workspace's identity: the one given,
   * or that of the folder the key names.
   */
  async setTrusted(
    workspaceKey: string,
    trusted: boolean,
    at: Date = new Date(),
    identity?: string,
  ): Promise<void> {
    const kept = identity ?? (trusted ? await workspaceIdentity(workspaceKey) : undefined);
    await this.put({
      workspaceKey,
      trusted,
      at: at.toISOString(),
      ...(kept === undefined ? {} : { identity: kept }),
    });
  }
}
