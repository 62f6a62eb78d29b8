import { check, RecordStore, type RecordStoreOptions } from "./record-store.js";

/** The host that recorded an approval or a log entry. */
export type SlashiHost = "cli" | "mcp" | "vscode";

const HOSTS: readonly string[] = ["cli", "mcp", "vscode"];

/** An "Always allow" of a Slashi command, bound to the fingerprint of its unexpanded steps. */
export interface ApprovalRecord {
  /** The approval key (from the core's fingerprint module: command identity, workspace, source). */
  key: string;
  /** The `sha256:` fingerprint that was approved; any other fingerprint asks again. */
  fingerprint: string;
  /** Fingerprints of the commands this one reaches through `slash` steps, approved with it. */
  steps?: string[];
  /** When (ISO 8601). */
  approvedAt: string;
  /** Which host recorded it. */
  host: SlashiHost;
  /** Canonical workspace key, for "reset approvals of this workspace". */
  workspaceKey?: string;
}

/** Format version of `approvals.json`. */
export const APPROVALS_VERSION = 1;

/** The approvals store (`<state>/approvals.json`). Changes should be logged to the audit log by the caller. */
export class ApprovalStore extends RecordStore<ApprovalRecord> {
  /** @param options - file and lock tuning */
  constructor(options: RecordStoreOptions) {
    super(options, "slashi.approvals", APPROVALS_VERSION, "key", (record) => {
      return (
        check.string(record, "fingerprint") ??
        check.optionalStrings(record, "steps") ??
        check.string(record, "approvedAt") ??
        (HOSTS.includes(record.host as string)
          ? undefined
          : { jsonPath: "/host", message: `host must be one of ${HOSTS.join(", ")}` }) ??
        check.optionalString(record, "workspaceKey")
      );
    });
  }

  /** Records an approval (replacing an older one with the same key). */
  approve(record: ApprovalRecord): Promise<void> {
    return this.put(record);
  }

  /** Removes an approval; true when it existed. */
  revoke(key: string): Promise<boolean> {
    return this.remove(key);
  }

  /** True when `key` is approved for exactly this fingerprint. */
  async isApproved(key: string, fingerprint: string): Promise<boolean> {
    return (await this.get(key))?.fingerprint === fingerprint;
  }
}
