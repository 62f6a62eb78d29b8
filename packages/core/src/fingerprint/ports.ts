/**
 * Ports the hosts implement: where approvals are kept and what time it is. Pure interfaces; the core never
 * stores anything itself. Approvals live only in the host's own state (user data dir, editor global state),
 * never in the repository.
 */

/** One remembered "Always Allow" for one exact command. */
export interface ApprovalRecord {
  /** {@link approvalKey}: identity + fingerprint. */
  key: string;
  /** {@link commandIdentityKey}: identity only, shared by every approval of the same command. */
  identity: string;
  /** {@link fingerprintCommand} of the approved definition. */
  fingerprint: string;
  /** {@link canonicalCommand} of the approved definition, so a later prompt can show which steps changed. */
  canonical: string;
  /** When the person approved, ISO 8601 (UTC) from the {@link Clock}. */
  approvedAt: string;
}

/** Where a host keeps approvals: a JSON file written atomically, the editor's global state … */
export interface ApprovalStore {
  /** The record stored under an approval key, if any. */
  get(key: string): Promise<ApprovalRecord | undefined>;
  /** Stores (or replaces) a record under its `key`. */
  put(record: ApprovalRecord): Promise<void>;
  /** Removes the record under a key; true when there was one. */
  delete(key: string): Promise<boolean>;
  /** Every stored record (for "reset approvals", listing, and finding a previous approval by `identity`). */
  list(): Promise<ApprovalRecord[]>;
}

/** The current time; a port so tests and audits get deterministic timestamps. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}
