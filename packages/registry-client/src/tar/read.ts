/**
 * A minimal, strict reader of npm package tarballs (gzip-compressed ustar, with pax and GNU long names). It reads
 * the whole archive in memory and refuses, before anything touches the disk: absolute paths, `..`, drive letters,
 * backslashes and control characters in names, every kind of link, device files, FIFOs, unknown entry types,
 * duplicate paths (also when they differ only in case), bad header checksums, and archives over the size or
 * file-count caps.
 */
import { gunzipSync } from "node:zlib";
import { SlashiError, SlashiErrorCode } from "@slashi/core";

/** Caps applied while reading an archive. */
export interface TarLimits {
  /** Most bytes of file content in total (default {@link DEFAULT_MAX_UNPACKED_BYTES}). */
  maxUnpackedBytes?: number;
  /** Most files (default {@link DEFAULT_MAX_FILES}). */
  maxFiles?: number;
}

/** Default cap on the unpacked size of a pack: 5 MiB. */
export const DEFAULT_MAX_UNPACKED_BYTES = 5 * 1024 * 1024;

/** Default cap on the number of files in a pack. */
export const DEFAULT_MAX_FILES = 1000;

/** One regular file read from an archive. */
export interface TarFile {
  /** Relative path inside the package, `/`-separated, with the archive's top folder (`package/`) removed. */
  path: string;
  /** The file's bytes. */
  data: Buffer;
  /** True when any execute bit was set. */
  executable: boolean;
}

const BLOCK = 512;

function unsafe(message: string, data: Record<string, unknown> = {}): SlashiError {
  return new SlashiError(SlashiErrorCode.PACK_UNSAFE, message, data);
}

function text(header: Buffer, start: number, length: number): string {
  const field = header.subarray(start, start + length);
  const nul = field.indexOf(0);
  return field.subarray(0, nul === -1 ? length : nul).toString("utf8");
}

function octal(header: Buffer, start: number, length: number, field: string): number {
  const first = header[start] ?? 0;
  if (first & 0x80) {
    // GNU base-256: only small positive values make sense in a pack.
    let value = 0;
    for (let i = start + 1; i < start + length; i++) value = value * 256 + (header[i] ?? 0);
    if ((first & 0x7f) !== 0 || !Number.isSafeInteger(value))
      throw unsafe(`tar header: ${field} is too large`);
    return value;
  }
  const raw = text(header, start, length).trim();
  if (raw === "") return 0;
  if (!/^[0-7]+$/.test(raw)) throw unsafe(`tar header: ${field} is not an octal number`);
  return parseInt(raw, 8);
}

function checksumOk(header: Buffer): boolean {
  const stored = octal(header, 148, 8, "checksum");
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (header[i] ?? 0);
  return sum === stored;
}

/** Parses pax extended header records (`"<len> <key>=<value>\n"`). */
function parsePax(data: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space === -1) throw unsafe("tar pax header is malformed");
    const length = Number(data.subarray(at, space).toString("ascii"));
    if (!Number.isInteger(length) || length <= space - at || at + length > data.length)
      throw unsafe("tar pax header is malformed");
    const record = data.subarray(space + 1, at + length - 1).toString("utf8");
    const eq = record.indexOf("=");
    if (eq === -1) throw unsafe("tar pax header is malformed");
    out.set(record.slice(0, eq), record.slice(eq + 1));
    at += length;
  }
  return out;
}

const TYPE_NAMES: Record<string, string> = {
  "1": "a hard link",
  "2": "a symbolic link",
  "3": "a character device",
  "4": "a block device",
  "6": "a FIFO",
};

/**
 * Checks an archive path and returns it relative to the package root (the first folder removed), or
 * `undefined` for the top folder itself.
 */
export function packagePath(raw: string): string | undefined {
  const shown = JSON.stringify(raw);
  if (raw === "") throw unsafe("tar entry has an empty path");
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(raw))
    throw unsafe(`tar entry ${shown} has a control character in its path`, { entry: raw });
  if (raw.includes("\\")) throw unsafe(`tar entry ${shown} has a backslash in its path`, { entry: raw });
  if (raw.startsWith("/") || /^[A-Za-z]:/.test(raw))
    throw unsafe(`tar entry ${shown} has an absolute path`, { entry: raw });
  const segments = raw.split("/").filter((s) => s !== "" && s !== ".");
  if (segments.some((s) => s === ".."))
    throw unsafe(`tar entry ${shown} leaves the pack with ".."`, { entry: raw });
  if (segments.some((s) => s.includes(":")))
    throw unsafe(`tar entry ${shown} has a ":" in its path`, { entry: raw });
  // Names Windows cannot hold or silently changes: devices (CON, NUL, COM1 …) and a trailing dot or space.
  const reserved = segments.find(
    (s) => /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i.test(s) || /[. ]$/.test(s),
  );
  if (reserved !== undefined)
    throw unsafe(`tar entry ${shown} has a name Windows reserves or alters ("${reserved}")`, { entry: raw });
  const inside = segments.slice(1);
  return inside.length === 0 ? undefined : inside.join("/");
}

/** Refuses a file whose path is also a folder of another file (`a` and `a/b`): it could not be extracted. */
function checkTree(files: TarFile[]): TarFile[] {
  const paths = new Set(files.map((f) => f.path.normalize("NFC").toLowerCase()));
  for (const file of files) {
    const parts = file.path.normalize("NFC").toLowerCase().split("/");
    for (let i = 1; i < parts.length; i++) {
      const folder = parts.slice(0, i).join("/");
      if (paths.has(folder))
        throw unsafe(`tar entry ${JSON.stringify(file.path)} is inside "${folder}", which is a file`, {
          entry: file.path,
        });
    }
  }
  return files;
}

/**
 * Reads a gzip-compressed npm package tarball.
 * @param gzipped - the tarball's bytes (already checked against the registry's integrity)
 * @param limits - size and file-count caps
 * @returns the regular files, in archive order
 * @throws SlashiError `PACK_UNSAFE` for anything refused (see the module comment), with `data.entry` naming the
 *   offending path where there is one
 */
export function readTarball(gzipped: Uint8Array, limits: TarLimits = {}): TarFile[] {
  const maxBytes = limits.maxUnpackedBytes ?? DEFAULT_MAX_UNPACKED_BYTES;
  const maxFiles = limits.maxFiles ?? DEFAULT_MAX_FILES;
  // Headers and padding add at most two blocks per entry; pax and long names a few more.
  const maxTar = maxBytes + (maxFiles + 16) * BLOCK * 4;
  let tar: Buffer;
  try {
    tar = gunzipSync(gzipped, { maxOutputLength: maxTar });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (
      code === "ERR_BUFFER_TOO_LARGE" ||
      (error instanceof RangeError && /larger|length/i.test(error.message))
    )
      throw unsafe(`the pack unpacks to more than ${maxBytes} bytes`, { limit: maxBytes });
    throw unsafe(`the pack is not a gzip archive (${code ?? "error"})`);
  }
  const files: TarFile[] = [];
  const seen = new Set<string>();
  let total = 0;
  let at = 0;
  let longName: string | undefined;
  let pax: Map<string, string> | undefined;
  while (at + BLOCK <= tar.length) {
    const header = tar.subarray(at, at + BLOCK);
    if (header.every((b) => b === 0)) return checkTree(files); // end of archive
    if (!checksumOk(header)) throw unsafe(`tar header at byte ${at} has a wrong checksum`);
    const type = String.fromCharCode(header[156] ?? 0);
    // A pax `size` applies to the next real entry, never to another header entry.
    const meta = type === "x" || type === "g" || type === "L" || type === "K";
    const size = !meta && pax?.has("size") ? Number(pax.get("size")) : octal(header, 124, 12, "size");
    if (!Number.isSafeInteger(size) || size < 0) throw unsafe(`tar header at byte ${at} has an invalid size`);
    const dataStart = at + BLOCK;
    const dataEnd = dataStart + size;
    if (dataEnd > tar.length) throw unsafe("the tar archive is truncated");
    const data = tar.subarray(dataStart, dataEnd);
    at = dataStart + Math.ceil(size / BLOCK) * BLOCK;

    if (type === "x") {
      if (size > 64 * 1024) throw unsafe("tar pax header is too large");
      pax = parsePax(data);
      continue;
    }
    if (type === "g") continue; // global pax defaults: nothing in them matters for plain files
    if (type === "L") {
      if (size > 4096) throw unsafe("tar long name is too long");
      longName = text(data, 0, data.length);
      continue;
    }
    const magic = header.subarray(257, 263).toString("latin1");
    const prefix = magic.startsWith("ustar") ? text(header, 345, 155) : "";
    const headerName = prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100);
    const raw = pax?.get("path") ?? longName ?? headerName;
    pax = undefined;
    longName = undefined;

    const kind = TYPE_NAMES[type];
    if (kind !== undefined || type === "K") {
      const what = kind ?? "a link";
      throw unsafe(`tar entry ${JSON.stringify(raw)} is ${what}; packs may hold only files and folders`, {
        entry: raw,
        type,
      });
    }
    if (type === "5") {
      packagePath(raw);
      continue;
    }
    if (type !== "0" && type !== "\0" && type !== "7")
      throw unsafe(`tar entry ${JSON.stringify(raw)} has an unknown type ${JSON.stringify(type)}`, {
        entry: raw,
      });
    const path = packagePath(raw);
    if (path === undefined)
      throw unsafe(`tar entry ${JSON.stringify(raw)} is a file at the archive root`, { entry: raw });
    const folded = path.normalize("NFC").toLowerCase();
    if (seen.has(folded)) throw unsafe(`tar entry ${JSON.stringify(raw)} appears twice`, { entry: raw });
    seen.add(folded);
    if (files.length + 1 > maxFiles)
      throw unsafe(`the pack has more than ${maxFiles} files`, { limit: maxFiles });
    total += size;
    if (total > maxBytes)
      throw unsafe(`the pack unpacks to more than ${maxBytes} bytes`, { limit: maxBytes });
    const mode = octal(header, 100, 8, "mode");
    files.push({ path, data: Buffer.from(data), executable: (mode & 0o111) !== 0 });
  }
  throw unsafe("the tar archive has no end marker");
}
