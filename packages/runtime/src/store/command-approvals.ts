import { check, RecordStore, type RecordStoreOptions } from "./record-store.js";

/**
 * An "Always allow" of one shell command, bound to what will run. The caller computes `key` (from the exact
 * argv and cwd) and `digest` (of the content the command executes: a package.json script body, a script
 * file, a Makefile); other fields are kept as given for display.
 */
export interface CommandApprovalRecord {
  /** Binding key: exact argv and cwd, as the caller encodes them. */
  key: string;
  /** Digest of the executed content; a different digest asks again. */
  digest: string;
  /** The argv, for display. */
  argv?: string[];
  /** The working directory, for display. */
  cwd?: string;
  /** When (ISO 8601). */
  approvedAt: string;
  /** Canonical workspace key, for per-workspace reset. */
  workspaceKey?: string;
  /** Anything else the caller wants kept (JSON values). */
  [field: string]: unknown;
}

/** Format version of `command-approvals.json`. */
export const COMMAND_APPROVALS_VERSION = 1;

/** The command-approval store (`<state>/command-approvals.json`). */
export class CommandApprovalFileStore extends RecordStore<CommandApprovalRecord> {
  /** @param options - file and lock tuning */
  constructor(options: RecordStoreOptions) {
    super(
      options,
      "slashi.command-approvals",
      COMMAND_APPROVALS_VERSION,
      "key",
      (record) =>
        check.string(record, "digest") ??
        check.string(record, "approvedAt") ??
        check.optionalStrings(record, "argv") ??
        check.optionalString(record, "cwd") ??
        check.optionalString(record, "workspaceKey"),
    );
  }

  /** True when `key` is approved with exactly this content digest. */
  async isApproved(key: string, digest: string): Promise<boolean> {
    return (await this.get(key))?.digest === digest;
  }
}
