import { SlashiError, SlashiErrorCode } from "../errors.js";
import { checkSharedCommand } from "../sources/sources.js";
import type { CommandDefinition } from "../steps/types.js";
import { approvalKey, commandIdentityKey, parseApprovalKey } from "./approval-key.js";
import type { CommandIdentity } from "./approval-key.js";
import { canonicalCommand } from "./canonical.js";
import { diffCommand } from "./diff.js";
import type { CommandChanges } from "./diff.js";
import { fingerprintOfCanonical, fingerprintsMatch } from "./fingerprint.js";
import type { ApprovalRecord, Clock } from "./ports.js";

/**
 * Builds the record a host stores when the person chooses Always Allow for one exact command. A command with a
 * step its source may never run (a protected setting, a denied editor command, a refused open target, a secret
 * variable outside insert/notify) cannot be approved at all (requirement 17).
 * @param def - the definition the person saw, unexpanded
 * @param identity - who the command is (workspace folder or pack, and name)
 * @param clock - the time source
 * @throws SlashiError `STEP_NOT_ALLOWED` naming the first offending step (`data.jsonPath`, `data.violations`)
 */
export function makeApprovalRecord(
  def: CommandDefinition,
  identity: CommandIdentity,
  clock: Clock,
): ApprovalRecord {
  const violations = checkSharedCommand(def, identity.source);
  const first = violations[0];
  if (first) {
    throw new SlashiError(SlashiErrorCode.STEP_NOT_ALLOWED, `cannot approve: ${first.message}`, {
      jsonPath: first.jsonPath,
      rule: first.rule,
      subject: first.subject,
      violations,
    });
  }
  const canonical = canonicalCommand(def);
  const fingerprint = fingerprintOfCanonical(canonical);
  return {
    key: approvalKey({ ...identity, fingerprint }),
    identity: commandIdentityKey(identity),
    fingerprint,
    canonical,
    approvedAt: new Date(clock.now()).toISOString(),
  };
}

/**
 * Whether a stored record is usable: its key is of the current format, and key, fingerprint and canonical
 * document agree. A record of an unknown format, or one edited by hand, is never valid (requirement 8).
 */
export function isApprovalRecordValid(record: unknown): record is ApprovalRecord {
  if (typeof record !== "object" || record === null) return false;
  const r = record as Partial<ApprovalRecord>;
  if (typeof r.key !== "string" || typeof r.canonical !== "string" || typeof r.identity !== "string")
    return false;
  try {
    const parsed = parseApprovalKey(r.key);
    return (
      parsed.fingerprint === r.fingerprint &&
      fingerprintsMatch(fingerprintOfCanonical(r.canonical), r.fingerprint) &&
      commandIdentityKey(parsed) === r.identity
    );
  } catch {
    return false;
  }
}

/** The state of one command against the approvals a host holds. */
export type ApprovalState =
  | { state: "approved"; record: ApprovalRecord }
  | {
      state: "changed";
      previous: ApprovalRecord;
      changes: CommandChanges;
      /**
       * For a pack command approved only in another version of its pack: that version. The pack was updated
       * since the approval; hosts say so instead of calling the command new.
       */
      updatedFrom?: string;
    }
  | { state: "new" };

/** The newest approval of the same pack command (pack id and name) in another version of the pack. */
function earlierVersion(
  identity: CommandIdentity,
  records: readonly ApprovalRecord[],
): { record: ApprovalRecord; version: string } | undefined {
  if (identity.source !== "pack") return undefined;
  const name = identity.name.replace(/^\//, "");
  let best: { record: ApprovalRecord; version: string } | undefined;
  for (const record of records) {
    const parsed = parseApprovalKey(record.key);
    if (parsed.source !== "pack" || parsed.packId !== identity.packId || parsed.name !== name) continue;
    if (parsed.packVersion === identity.packVersion) continue;
    if (!best || record.approvedAt > best.record.approvedAt) best = { record, version: parsed.packVersion };
  }
  return best;
}

/**
 * Looks a command up in a list of stored records: `approved` when a valid record has its exact key, `changed`
 * when only an earlier approval of the same identity exists (with the step-by-step changes for the prompt), or,
 * for a pack command, only an approval in another version of the pack (`updatedFrom` names that version),
 * `new` otherwise. Invalid records and records of unknown formats are ignored.
 * @param def - the definition as loaded now
 * @param identity - who the command is
 * @param records - the host's stored records (for example `await store.list()`)
 */
export function approvalStateOf(
  def: CommandDefinition,
  identity: CommandIdentity,
  records: readonly ApprovalRecord[],
): ApprovalState {
  const fingerprint = fingerprintOfCanonical(canonicalCommand(def));
  const key = approvalKey({ ...identity, fingerprint });
  const id = commandIdentityKey(identity);
  const valid = records.filter((r) => isApprovalRecordValid(r));
  const exact = valid.find((r) => r.key === key);
  if (exact) return { state: "approved", record: exact };
  const earlier = valid
    .filter((r) => r.identity === id)
    .sort((x, y) => (x.approvedAt < y.approvedAt ? 1 : -1))[0];
  if (earlier) return { state: "changed", previous: earlier, changes: diffCommand(earlier.canonical, def) };
  const update = identity.source === "pack" ? earlierVersion(identity, valid) : undefined;
  if (update)
    return {
      state: "changed",
      previous: update.record,
      changes: diffCommand(update.record.canonical, def),
      updatedFrom: update.version,
    };
  return { state: "new" };
}
