import { check, RecordStore, type RecordStoreOptions } from "./record-store.js";

/** A decision about one workspace. */
export interface TrustRecord {
  /** Canonical workspace key. */
  workspaceKey: string;
  /** Trusted or explicitly untrusted. */
  trusted: boolean;
  /** When (ISO 8601). */
  at: string;
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

  /** True only for a workspace recorded as trusted. */
  async isTrusted(workspaceKey: string): Promise<boolean> {
    return (await this.get(workspaceKey))?.trusted === true;
  }

  /** Records trust or distrust of a workspace, now. */
  setTrusted(workspaceKey: string, trusted: boolean, at: Date = new Date()): Promise<void> {
    return this.put({ workspaceKey, trusted, at: at.toISOString() });
  }
}
