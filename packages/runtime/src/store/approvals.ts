import type { ApprovalRecord, ApprovalStore } from "@slashi/core";
import { check, RecordStore, type RecordStoreOptions } from "./record-store.js";

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
        check.optionalString(record, "workspaceKey")
      );
    });
  }
}
