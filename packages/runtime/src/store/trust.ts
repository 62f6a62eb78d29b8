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
   * sit at the path). Absent in records written before it was kept: those match any identity.
   */
  identity?: string;
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
      (record) => check.boolean(record, "trusted") ?? check.string(record, "at"),
    );
  }

  /**
   * True only for a workspace recorded as trusted, and, when `identity` is given and the record kept one, with
   * the same identity: another repository at the trusted path is not trusted.
   */
  async isTrusted(workspaceKey: string, identity?: string): Promise<boolean> {
    const record = await this.get(workspaceKey);
    if (record?.trusted !== true) return false;
    return identity === undefined || record.identity === undefined || record.identity === identity;
  }

  /** Records trust or distrust of a workspace, now, with its identity when given. */
  setTrusted(
    workspaceKey: string,
    trusted: boolean,
    at: Date = new Date(),
    identity?: string,
  ): Promise<void> {
    return this.put({
      workspaceKey,
      trusted,
      at: at.toISOString(),
      ...(identity === undefined ? {} : { identity }),
    });
  }
}
