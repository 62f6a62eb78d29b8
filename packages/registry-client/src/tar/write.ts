/**
 * Writes npm package tarballs (gzip-compressed ustar, long paths through pax headers), deterministic: fixed
 * owner, fixed time, modes 0644 / 0755. Used by `publish`, and by tests to build archives, including hostile
 * ones (links, devices, `..`) through {@link TarEntry.type}.
 */
import { gzipSync } from "node:zlib";

/** One entry to write. */
export interface TarEntry {
  /** Path inside the archive, written as given (callers add the `package/` folder). */
  path: string;
  /** File content (files only). */
  data?: Uint8Array;
  /** Entry type flag: `"0"` file (default), `"5"` folder, `"1"` hard link, `"2"` symlink, `"3"`/`"4"` device, `"6"` FIFO. */
  type?: string;
  /** Link target for types `"1"` and `"2"`. */
  linkname?: string;
  /** Set the execute bits (mode 0755 instead of 0644). */
  executable?: boolean;
}

const BLOCK = 512;
/** npm's fixed mtime for reproducible tarballs (1985-10-26T08:15:00Z). */
const MTIME = 499162500;

function writeText(header: Buffer, value: string, start: number, length: number): void {
  header.write(value, start, length, "utf8");
}

function writeOctal(header: Buffer, value: number, start: number, length: number): void {
  header.write(value.toString(8).padStart(length - 1, "0") + "\0", start, length, "ascii");
}

function headerBlock(name: string, type: string, size: number, mode: number, linkname = ""): Buffer {
  const header = Buffer.alloc(BLOCK);
  writeText(header, name, 0, 100);
  writeOctal(header, mode, 100, 8);
  writeOctal(header, 0, 108, 8);
  writeOctal(header, 0, 116, 8);
  writeOctal(header, size, 124, 12);
  writeOctal(header, MTIME, 136, 12);
  header.fill(0x20, 148, 156);
  header.write(type, 156, 1, "latin1");
  writeText(header, linkname, 157, 100);
  header.write("ustar\0", 257, 6, "latin1");
  header.write("00", 263, 2, "latin1");
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, 8, "ascii");
  return header;
}

function padded(data: Uint8Array): Buffer[] {
  const rest = data.length % BLOCK;
  return rest === 0 ? [Buffer.from(data)] : [Buffer.from(data), Buffer.alloc(BLOCK - rest)];
}

function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length)
    length = String(length).length + Buffer.byteLength(body);
  return `${length}${body}`;
}

/**
 * Builds a gzip-compressed tarball from entries, in the order given.
 * @param entries - the entries (paths as they should appear, such as `package/slashi-pack.json`)
 */
export function createTarball(entries: readonly TarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const type = entry.type ?? "0";
    const data = type === "0" ? (entry.data ?? new Uint8Array()) : new Uint8Array();
    let name = entry.path;
    if (Buffer.byteLength(name) > 100) {
      const pax = Buffer.from(paxRecord("path", name));
      blocks.push(headerBlock("PaxHeader", "x", pax.length, 0o644), ...padded(pax));
      name = name.slice(0, 100);
    }
    const mode = type === "5" || entry.executable === true ? 0o755 : 0o644;
    blocks.push(headerBlock(name, type, data.length, mode, entry.linkname), ...padded(data));
  }
  blocks.push(Buffer.alloc(BLOCK * 2));
  return gzipSync(Buffer.concat(blocks), { level: 9 });
}
