import { mkdir, open, rename, stat } from "node:fs/promises";
import path from "node:path";
import { setImmediate } from "node:timers/promises";
import { isSlashiError } from "@slashi/core";
import { DEFAULT_READ_LIMIT, readBoundedFile } from "../fs/bounded-read.js";
import type { SlashiHost } from "../store/approvals.js";
import { heldAuditWrites } from "./held.js";
import { withFileLock, type LockOptions } from "../store/lock.js";
import { redactSecrets, redactValue, textDigest } from "./redact.js";

/** What an audit record is about. */
export type AuditEvent =
  "decision" | "run" | "approve" | "revoke" | "reset" | "trust" | "untrust" | "policy-change";

/** One reason as the core reports it (code, severity, message). */
export interface AuditReason {
  /** Stable finding or rule code. */
  code: string;
  /** `deny`, `ask`, `allow`, `info`… as the core says. */
  severity?: string;
  /** Plain words. */
  message: string;
}

/** What a caller hands to {@link AuditLog.append}; time, pid and cwd are filled in when missing. */
export interface AuditEntry {
  /** What happened. */
  event: AuditEvent;
  /** Which host wrote it. */
  host: SlashiHost;
  /** Where the command came from (`user`, `workspace`, `pack`, `agent`, `terminal`…). */
  source?: string;
  /** Slashi command name (`/deploy`), when it was one. */
  command?: string;
  /** The command text or steps, UNEXPANDED (never secrets). */
  text?: string;
  /** The argv that ran, when it ran without a shell (secret values replaced by a marker). */
  argv?: string[];
  /** `sha256:` digest of the expanded text, to prove what ran without storing it. */
  expandedDigest?: string;
  /**
   * Values that must not reach the log: the values of `${env:…}`, `${config:…}` and `${clipboard}` the command
   * was expanded with. The record is passed through `redactAuditEntry` before it is written (a reason or warning
   * that may quote one is withheld; other strings lose values long enough to search for), the list itself is never
   * written. It does not make an expanded `text` or `argv` safe: those must come without the values (the template,
   * placeholders), since a short value cannot be found in them.
   */
  secrets?: readonly string[];
  /** The verdict. */
  decision?: "allow" | "ask" | "deny";
  /** Why. */
  reasons?: AuditReason[];
  /** The approval fingerprint that let it run, if one did. */
  fingerprint?: string;
  /** How the person answered a prompt (`once`, `always`, `cancel`). */
  answer?: string;
  /** Whether the command ran inside the cordon. */
  cordon?: boolean;
  /** A warning the host showed about this decision or run (a confirmation skipped inside the cordon). */
  warning?: string;
  /** Exit code of a run (`null` when killed by a signal). */
  exitCode?: number | null;
  /** Signal that ended a run. */
  signal?: string;
  /** Wall time of the run. */
  durationMs?: number;
  /** Workspace key, for approval and trust changes. */
  workspaceKey?: string;
  /** Time (ISO 8601); default now. */
  time?: string;
  /** Process id; default this process. */
  pid?: number;
  /** Working directory; default `process.cwd()`. */
  cwd?: string;
}

/**
 * An audit entry without a secret value, keeping what is known by position: its free text (each reason's
 * message, the warning) goes through `redactSecrets`, so a message that may quote a short value is withheld; every
 * other string (the unexpanded text, the argv whose secret words are already placeholders, the directory) goes
 * through `redactLongSecrets` only. Reason codes and severities are Slashi's own words.
 * @param entry - the entry as the host built it
 * @param secrets - the values to hide
 */
export function redactAuditEntry<E extends Omit<AuditEntry, "secrets">>(
  entry: E,
  secrets: readonly string[],
): E {
  const { reasons, warning, ...rest } = entry;
  return {
    // every key of the rest is placed text: only the second net applies
    ...redactValue(rest, secrets, new Set(Object.keys(rest))),
    ...(reasons === undefined
      ? {}
      : { reasons: reasons.map((r) => ({ ...r, message: redactSecrets(r.message, secrets) })) }),
    ...(warning === undefined ? {} : { warning: redactSecrets(warning, secrets) }),
  } as E;
}

/** A record as stored: every line of the log is one of these. */
export interface AuditRecord extends AuditEntry {
  /** When (ISO 8601). */
  time: string;
  /** Process id of the writer. */
  pid: number;
  /** Working directory. */
  cwd: string;
  /** True when `text` was cut to the size limit. */
  textTruncated?: boolean;
  /** `sha256:` digest of the whole `text` before it was cut (set only when it was cut). */
  textDigest?: string;
}

/** Outcome of an append: the caller decides how to show a failure; a decision is never blocked by it. */
export type AuditWriteResult =
  { written: true; rotated: boolean } | { written: false; warning: string; errorCode: string };

/** Options for {@link AuditLog}. */
export interface AuditLogOptions {
  /** The live log (`<state>/audit.jsonl`). */
  file: string;
  /** Rotate when the live file would grow past this many bytes (default 5 MiB). */
  maxBytes?: number;
  /** Rotated files to keep: `audit.1.jsonl` … `audit.<keep>.jsonl` (default 5). */
  keep?: number;
  /** Lock tuning for rotation. */
  lock?: LockOptions;
}

/** A line that did not parse while reading. */
export interface AuditReadProblem {
  /** File. */
  file: string;
  /** 1-based line; 0 when the file as a whole was refused (not a regular file, or too large). */
  line: number;
}

/** What to read. */
export interface AuditReadOptions {
  /** Only the last `tail` matching records. */
  tail?: number;
  /** Keep only records this accepts. */
  filter?: (record: AuditRecord) => boolean;
  /** Also read rotated files (default true). */
  includeRotated?: boolean;
}

/** Records read, oldest first, and lines that did not parse. */
export interface AuditReadResult {
  /** Matching records, oldest first. */
  records: AuditRecord[];
  /** Lines that are not valid records (reported, skipped). */
  problems: AuditReadProblem[];
}

/** Longest `text` kept in a record, in UTF-16 code units. */
export const AUDIT_TEXT_LIMIT = 16_384;

/**
 * The append-only audit log: one JSON object per line. Each record is appended with a single write on a file
 * opened with O_APPEND, so several processes can write at once without interleaving; when the live file would
 * exceed `maxBytes` it is rotated (`audit.jsonl` → `audit.1.jsonl` → …, `keep` files) under the lock. Write
 * failures (full disk, permissions) come back as a warning result, never as a thrown error.
 */
export class AuditLog {
  /** The live log file. */
  readonly file: string;
  readonly #maxBytes: number;
  readonly #keep: number;
  readonly #lock: LockOptions | undefined;

  /** @param options - file, size limit, files to keep */
  constructor(options: AuditLogOptions) {
    this.file = options.file;
    this.#maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
    this.#keep = Math.max(1, options.keep ?? 5);
    this.#lock = options.lock;
  }

  /** Path of rotated file number `n` (1 = newest). */
  rotatedFile(n: number): string {
    const ext = path.extname(this.file);
    return `${this.file.slice(0, this.file.length - ext.length)}.${n}${ext}`;
  }

  /**
   * Builds the stored record for an entry: time, pid and cwd filled in; every secret value of
   * {@link AuditEntry.secrets} replaced in every string; a `text` longer than {@link AUDIT_TEXT_LIMIT} cut, with
   * the digest of the whole text in `textDigest`.
   */
  static toRecord(entry: AuditEntry): AuditRecord {
    const { secrets, ...rest } = entry;
    const record: AuditRecord = {
      ...(secrets === undefined || secrets.length === 0 ? rest : redactAuditEntry(rest, secrets)),
      time: entry.time ?? new Date().toISOString(),
      pid: entry.pid ?? process.pid,
      cwd: entry.cwd ?? process.cwd(),
    };
    if (record.text !== undefined && record.text.length > AUDIT_TEXT_LIMIT) {
      record.textDigest = textDigest(record.text);
      // never end on half a surrogate pair
      const cut = /[\uD800-\uDBFF]/.test(record.text.charAt(AUDIT_TEXT_LIMIT - 1))
        ? AUDIT_TEXT_LIMIT - 1
        : AUDIT_TEXT_LIMIT;
      record.text = record.text.slice(0, cut);
      record.textTruncated = true;
    }
    return record;
  }

  /**
   * Appends one record. Never throws: a failure is returned with a warning to show. Inside
   * {@link holdAuditWrites} the record is kept (with its time taken now) and written on commit.
   */
  async append(entry: AuditEntry): Promise<AuditWriteResult> {
    const held = heldAuditWrites();
    if (held === undefined) return this.#write(entry);
    const record = AuditLog.toRecord(entry);
    held.push(() => this.#write(record));
    return { written: true, rotated: false };
  }

  async #write(entry: AuditEntry): Promise<AuditWriteResult> {
    const line = Buffer.from(`${JSON.stringify(AuditLog.toRecord(entry))}\n`, "utf8");
    let rotated = false;
    try {
      await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
      const size = await stat(this.file).then(
        (info) => info.size,
        () => 0,
      );
      if (size > 0 && size + line.length > this.#maxBytes) rotated = await this.#rotate(line.length);
      const handle = await open(this.file, "a", 0o600);
      try {
        const { bytesWritten } = await handle.write(line, 0, line.length);
        if (bytesWritten !== line.length) {
          return this.#failure("EIO", `only ${bytesWritten} of ${line.length} bytes were written`);
        }
      } finally {
        await handle.close();
      }
      return { written: true, rotated };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as { code?: string }).code ?? "EIO";
      return this.#failure(code, (error as Error).message);
    }
  }

  #failure(errorCode: string, detail: string): AuditWriteResult {
    const reason = errorCode === "ENOSPC" ? "the disk is full" : `${errorCode}: ${detail}`;
    return {
      written: false,
      errorCode,
      warning: `audit log ${this.file} could not be written (${reason}); this decision was not recorded`,
    };
  }

  async #rotate(incoming: number): Promise<boolean> {
    return withFileLock(
      this.file,
      async () => {
        const size = await stat(this.file).then(
          (info) => info.size,
          () => 0,
        );
        // Another writer may have rotated while this one waited for the lock.
        if (size === 0 || size + incoming <= this.#maxBytes) return false;
        // Shift audit.1 … audit.<k> up by one, where k is the last file before the first gap; the file that
        // would become number keep + 1 is overwritten (dropped).
        const count = await this.#rotatedCount();
        for (let n = Math.min(count, this.#keep - 1); n >= 1; n--) {
          await rename(this.rotatedFile(n), this.rotatedFile(n + 1));
        }
        await rename(this.file, this.rotatedFile(1));
        return true;
      },
      this.#lock,
    );
  }

  /** How many rotated files exist in an unbroken run from `audit.1` (at most `keep`). */
  async #rotatedCount(): Promise<number> {
    let count = 0;
    while (count < this.#keep && (await fileExists(this.rotatedFile(count + 1)))) count++;
    return count;
  }

  /** Every log file that exists, oldest first. */
  async files(includeRotated = true): Promise<string[]> {
    const rotated = includeRotated ? await this.#rotatedCount() : 0;
    const present = Array.from({ length: rotated }, (_, i) => this.rotatedFile(rotated - i));
    if (await fileExists(this.file)) present.push(this.file);
    return present;
  }

  /** Reads records oldest first (rotated files included), for `slashi audit tail|show`. */
  async read(options: AuditReadOptions = {}): Promise<AuditReadResult> {
    const records: AuditRecord[] = [];
    const problems: AuditReadProblem[] = [];
    for (const file of await this.files(options.includeRotated ?? true)) {
      let bytes: Buffer;
      try {
        // A log rotates past maxBytes; one record may overshoot it, so twice that is still a log.
        bytes = await readBoundedFile(file, { maxBytes: Math.max(DEFAULT_READ_LIMIT, 2 * this.#maxBytes) });
      } catch (error) {
        // Not a regular file, or far too large: reported, never waited on.
        if (isSlashiError(error)) problems.push({ file, line: 0 });
        continue; // rotated away between listing and reading
      }
      await parseAuditLines(bytes, file, options.filter, records, problems);
    }
    const tail = options.tail;
    return {
      records: tail !== undefined ? records.slice(Math.max(0, records.length - tail)) : records,
      problems,
    };
  }
}

/** How many lines {@link parseAuditLines} parses before it lets other work of the process run. */
export const AUDIT_PARSE_SLICE = 2000;

/**
 * Parses the lines of one audit log file into `records` (those `filter` keeps) and `problems`, line by line: no copy
 * of the whole file as one string and no split of it, and every {@link AUDIT_PARSE_SLICE} lines the event loop is
 * handed back, so a progress line (or any other timer of the host) keeps moving while a long log is read instead
 * of freezing until it is done. A newline byte never occurs inside a UTF-8 character.
 */
export async function parseAuditLines(
  bytes: Buffer,
  file: string,
  filter: ((record: AuditRecord) => boolean) | undefined,
  records: AuditRecord[],
  problems: AuditReadProblem[],
): Promise<void> {
  for (let start = 0, index = 0; start < bytes.length; index++) {
    if (index > 0 && index % AUDIT_PARSE_SLICE === 0) await setImmediate();
    const newline = bytes.indexOf(0x0a, start);
    const end = newline < 0 ? bytes.length : newline;
    const line = bytes.toString("utf8", start, end);
    start = end + 1;
    if (line === "") continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      problems.push({ file, line: index + 1 });
      continue;
    }
    if (!isAuditRecord(record)) {
      problems.push({ file, line: index + 1 });
      continue;
    }
    if (!filter || filter(record)) records.push(record);
  }
}

function fileExists(target: string): Promise<boolean> {
  return stat(target).then(
    () => true,
    () => false,
  );
}

function isAuditRecord(value: unknown): value is AuditRecord {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.time === "string" &&
    typeof record.event === "string" &&
    typeof record.host === "string" &&
    typeof record.pid === "number" &&
    typeof record.cwd === "string"
  );
}

/** Reads the audit log at `file` (see {@link AuditLog.read}). */
export function readAudit(
  file: string,
  options: AuditReadOptions & { keep?: number } = {},
): Promise<AuditReadResult> {
  return new AuditLog({ file, keep: options.keep }).read(options);
}
