import { gunzipSync, gzipSync } from "node:zlib";
import { posix } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SlashiErrorCode, isSlashiError } from "@slashi/core";
import type { SlashiError } from "@slashi/core";
import { packagePath, readTarball } from "./read.js";
import { createTarball } from "./write.js";
import type { TarEntry } from "./write.js";

function failure(fn: () => unknown): SlashiError {
  try {
    fn();
  } catch (error) {
    if (isSlashiError(error)) return error;
    throw error;
  }
  throw new Error("expected a SlashiError");
}

const file = (path: string, text = "x"): TarEntry => ({ path, data: Buffer.from(text) });

describe("readTarball", () => {
  it("reads files, strips the top folder and keeps the execute bit", () => {
    const tgz = createTarball([
      { path: "package/", type: "5" },
      file("package/package.json", "{}"),
      { path: "package/bin/run.sh", data: Buffer.from("#!/bin/sh\n"), executable: true },
    ]);
    const files = readTarball(tgz);
    expect(files.map((f) => [f.path, f.data.toString(), f.executable])).toEqual([
      ["package.json", "{}", false],
      ["bin/run.sh", "#!/bin/sh\n", true],
    ]);
  });

  it("reads a path longer than 100 bytes through a pax header", () => {
    const long = `package/${"d".repeat(60)}/${"f".repeat(60)}.txt`;
    const files = readTarball(createTarball([file(long, "deep")]));
    expect(files[0]?.path).toBe(long.slice("package/".length));
  });

  it.each([
    ["/etc/passwd", "absolute path"],
    ["package/../../evil", "leaves the pack"],
    ["package/a/../../b", "leaves the pack"],
    ["C:/x", "absolute path"],
    ["package\\evil", "backslash"],
    ["package/a\u0001b", "control character"],
    ["package/a:b", '":"'],
    ["package/NUL", "Windows"],
    ["package/lib/con.txt", "Windows"],
    ["package/trailing. ", "Windows"],
  ])("refuses the path %j", (path, words) => {
    const error = failure(() => readTarball(createTarball([file(path)])));
    expect(error.code).toBe(SlashiErrorCode.PACK_UNSAFE);
    expect(error.message).toContain(words);
  });

  it.each([
    ["2", "a symbolic link", "../../../etc/passwd"],
    ["2", "a symbolic link", "inside.txt"],
    ["1", "a hard link", "package/other"],
    ["3", "a character device", ""],
    ["4", "a block device", ""],
    ["6", "a FIFO", ""],
  ])("refuses an entry of type %s (%s)", (type, words, linkname) => {
    const error = failure(() =>
      readTarball(createTarball([file("package/ok.txt"), { path: "package/link", type, linkname }])),
    );
    expect(error.code).toBe(SlashiErrorCode.PACK_UNSAFE);
    expect(error.message).toContain(words);
    expect(error.data.entry).toBe("package/link");
  });

  it("refuses an unknown entry type", () => {
    const error = failure(() => readTarball(createTarball([{ path: "package/x", type: "S" }])));
    expect(error.message).toContain("unknown type");
  });

  it("refuses two files whose paths differ only in case", () => {
    const error = failure(() => readTarball(createTarball([file("package/README"), file("package/readme")])));
    expect(error.message).toContain("appears twice");
  });

  it("refuses a file that is also a folder of another file", () => {
    const error = failure(() => readTarball(createTarball([file("package/a"), file("package/a/b")])));
    expect(error.message).toContain("which is a file");
  });

  it("refuses a file at the archive root", () => {
    const error = failure(() => readTarball(createTarball([file("loose.txt")])));
    expect(error.message).toContain("archive root");
  });

  it("refuses more content than the size cap", () => {
    const tgz = createTarball([file("package/big", "a".repeat(2000))]);
    const error = failure(() => readTarball(tgz, { maxUnpackedBytes: 1000 }));
    expect(error.code).toBe(SlashiErrorCode.PACK_UNSAFE);
    expect(error.data.limit).toBe(1000);
  });

  it("refuses a gzip bomb before inflating it fully", () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const error = failure(() => readTarball(bomb, { maxUnpackedBytes: 1024 * 1024 }));
    expect(error.message).toMatch(/more than 1048576 bytes/);
  });

  it("refuses more files than the file-count cap", () => {
    const entries = Array.from({ length: 11 }, (_, i) => file(`package/f${i}`));
    const error = failure(() => readTarball(createTarball(entries), { maxFiles: 10 }));
    expect(error.message).toContain("more than 10 files");
  });

  it("refuses a header with a wrong checksum", () => {
    const tar = Buffer.alloc(512 * 4);
    tar.write("package/x", 0);
    tar.write("0000644\0", 100);
    tar.write("00000000000\0", 124);
    tar.write("0000000\0", 148); // wrong checksum
    tar.write("0", 156);
    const error = failure(() => readTarball(gzipSync(tar)));
    expect(error.message).toContain("wrong checksum");
  });

  it("refuses bytes that are not gzip", () => {
    expect(failure(() => readTarball(Buffer.from("not a tarball"))).message).toContain("not a gzip archive");
  });

  it("refuses a truncated archive", () => {
    const whole = createTarball([file("package/a", "x".repeat(3000))]);
    const tar = gunzipSync(whole);
    const error = failure(() => readTarball(gzipSync(tar.subarray(0, 1024))));
    expect(error.message).toContain("truncated");
  });
});

describe("packagePath", () => {
  it("drops the top folder and dot segments", () => {
    expect(packagePath("package/./a//b")).toBe("a/b");
    expect(packagePath("package/")).toBeUndefined();
  });
});

describe("readTarball on generated names", () => {
  it("either refuses an entry or yields a path that stays inside the pack", () => {
    const segment = fc.oneof(
      fc.constantFrom("..", ".", "", "package", "a", "CON", "x:y", "b\\c", "~", "d "),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), fc.boolean(), (segments, absolute) => {
        const name = `${absolute ? "/" : ""}${segments.join("/")}`;
        let files;
        try {
          files = readTarball(createTarball([{ path: name, data: Buffer.from("x") }]));
        } catch (error) {
          expect(isSlashiError(error) && error.code).toBe(SlashiErrorCode.PACK_UNSAFE);
          return;
        }
        for (const file of files) {
          const root = "/pack";
          const resolved = posix.resolve(root, file.path);
          expect(resolved.startsWith(`${root}/`)).toBe(true);
          expect(/[\\:]/.test(file.path) || file.path.includes("\u0000")).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });
});
