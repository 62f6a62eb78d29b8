/**
 * Reading a file that a repository or another program may control, without letting it make the reader hang or
 * run out of memory: only a regular file (a symlink is resolved and its target checked), opened without
 * blocking, re-checked on the open descriptor (same file, still regular), and read up to a size limit. Every
 * reader on a decision path (policy layers, team file, stores, pack manifests) goes through here; the hook
 * payload on stdin goes through {@link readStreamBounded}.
 */
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readSync,
  realpathSync,
  statSync,
  type Stats,
} from "node:fs";
import { open, realpath, stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import { SlashiError, SlashiErrorCode } from "@slashi/core";

/** The size limit when the caller gives none: 8 MiB, far above any policy, store or manifest Slashi writes. */
export const DEFAULT_READ_LIMIT: number = 8 * 1024 * 1024;

/** Options of {@link readBoundedFile}. */
export interface BoundedReadOptions {
  /** Largest accepted size in bytes (default {@link DEFAULT_READ_LIMIT}). */
  maxBytes?: number;
}

/** Why a file was refused, in `SlashiError.data.reason`. */
export type UnsafeFileReason = "not-regular" | "too-large" | "changed";

function refuse(file: string, reason: UnsafeFileReason, detail: string): SlashiError {
  return new SlashiError(SlashiErrorCode.FILE_UNSAFE, `${file} was not read: ${detail}`, { file, reason });
}

function kindOf(info: {
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
  isDirectory(): boolean;
}): string {
  if (info.isFIFO()) return "a FIFO";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "a device";
  if (info.isSocket()) return "a socket";
  if (info.isDirectory()) return "a directory";
  return "not a regular file";
}

/** The checks before opening: a regular file (after resolving links) within the limit. */
function checkBefore(file: string, real: string, info: Stats, limit: number): void {
  if (!info.isFile()) {
    const target = real === file ? "" : ` (it resolves to ${real})`;
    throw refuse(file, "not-regular", `it is ${kindOf(info)}${target}`);
  }
  if (info.size > limit) throw refuse(file, "too-large", `it has ${info.size} bytes, the limit is ${limit}`);
}

/**
 * The check on the open descriptor: still a regular file within the limit. What was opened is judged, not
 * whether it is the same inode as the one checked before: stores are replaced by an atomic rename while other
 * processes read them, and a regular file that replaced another is as safe to read as the first.
 */
function checkOpened(file: string, limit: number, info: Stats): void {
  if (!info.isFile()) throw refuse(file, "changed", `it was replaced by ${kindOf(info)} while being opened`);
  if (info.size > limit) throw refuse(file, "too-large", `it has ${info.size} bytes, the limit is ${limit}`);
}

/** The bytes read so far, refusing past the limit. */
class Chunks {
  readonly #chunks: Buffer[] = [];
  #total = 0;
  #buffer: Buffer = Buffer.alloc(0);
  constructor(
    private readonly file: string,
    private readonly limit: number,
  ) {}

  /** A buffer for the next read: at most one byte past the limit, so growing beyond it shows. */
  next(): Buffer {
    this.#buffer = Buffer.allocUnsafe(Math.min(64 * 1024, this.limit + 1 - this.#total));
    return this.#buffer;
  }

  /** Keeps what one read returned; false at the end of the file. */
  add(read: { bytesRead: number }): boolean {
    if (read.bytesRead === 0) return false;
    this.#chunks.push(this.#buffer.subarray(0, read.bytesRead));
    this.#total += read.bytesRead;
    if (this.#total > this.limit)
      throw refuse(this.file, "too-large", `it grew beyond the limit of ${this.limit} bytes`);
    return true;
  }

  all(): Buffer {
    return Buffer.concat(this.#chunks, this.#total);
  }
}

// Opening a FIFO without O_NONBLOCK waits for a writer; O_NOCTTY keeps a terminal from becoming ours. Both are
// absent on Windows, where neither problem exists in this form.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/**
 * Reads a whole file as bytes, refusing anything but a regular file within the size limit.
 * Errors of the file system itself (`ENOENT`, `EACCES`) are passed on unchanged, so callers keep their
 * "missing file" handling.
 * @throws SlashiError `FILE_UNSAFE` (`data.reason`: `not-regular`, `too-large`, `changed`)
 */
export async function readBoundedFile(file: string, options: BoundedReadOptions = {}): Promise<Buffer> {
  const limit = options.maxBytes ?? DEFAULT_READ_LIMIT;
  const real = await realpath(file);
  checkBefore(file, real, await stat(real), limit);
  const handle = await open(real, OPEN_FLAGS);
  try {
    checkOpened(file, limit, await handle.stat());
    const chunks = new Chunks(file, limit);
    while (chunks.add(await handle.read(chunks.next(), 0, undefined, null))) {
      // until the end of the file
    }
    return chunks.all();
  } finally {
    await handle.close();
  }
}

/**
 * {@link readBoundedFile} for callers that cannot wait (a binding computed inside a synchronous decision): the
 * same checks, the same errors, on the calling thread.
 * @throws SlashiError `FILE_UNSAFE` (`data.reason`: `not-regular`, `too-large`, `changed`)
 */
export function readBoundedFileSync(file: string, options: BoundedReadOptions = {}): Buffer {
  const limit = options.maxBytes ?? DEFAULT_READ_LIMIT;
  const real = realpathSync(file);
  checkBefore(file, real, statSync(real), limit);
  const fd = openSync(real, OPEN_FLAGS);
  try {
    checkOpened(file, limit, fstatSync(fd));
    const chunks = new Chunks(file, limit);
    for (;;) {
      const buffer = chunks.next();
      if (!chunks.add({ bytesRead: readSync(fd, buffer, 0, buffer.length, null) })) break;
    }
    return chunks.all();
  } finally {
    closeSync(fd);
  }
}

/** {@link readBoundedFile} decoded as UTF-8. */
export async function readBoundedText(file: string, options: BoundedReadOptions = {}): Promise<string> {
  return (await readBoundedFile(file, options)).toString("utf8");
}

/**
 * Reads a stream to its end, up to a size limit; past the limit the stream is destroyed and nothing is returned.
 * @param label - what the stream is, for the error (`hook input on stdin`)
 * @throws SlashiError `FILE_UNSAFE` (`data.reason`: `too-large`)
 */
export async function readStreamBounded(
  stream: Readable,
  label: string,
  options: BoundedReadOptions = {},
): Promise<string> {
  const limit = options.maxBytes ?? DEFAULT_READ_LIMIT;
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    total += bytes.length;
    if (total > limit) {
      stream.destroy();
      throw refuse(label, "too-large", `it is larger than the limit of ${limit} bytes`);
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, total).toString("utf8");
}
