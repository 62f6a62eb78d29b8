import { execFileSync } from "node:child_process";
import { rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { isSlashiError, loadShellParser } from "@slashi/core";
import fc from "fast-check";
import { scratchDir } from "@slashi/test-utils";
import { beforeAll, describe, expect, it } from "vitest";
import { commandBinding } from "../approval/binding.js";
import { readTextOrUndefined } from "../approval/remembered.js";
import { readBoundedFile, readBoundedFileSync, readBoundedText, readStreamBounded } from "./bounded-read.js";

const dir = scratchDir("slashi-bounded-");

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isSlashiError(error) && error.code === "FILE_UNSAFE") return String(error.data.reason);
    throw error;
  }
  throw new Error("expected FILE_UNSAFE");
}

const posix = process.platform !== "win32";

describe("readBoundedFile", () => {
  it("reads a regular file and a symlink to one", async () => {
    const file = path.join(dir, "policy.json");
    writeFileSync(file, '{"rules":[]}');
    symlinkSync(file, path.join(dir, "link.json"));
    expect(await readBoundedText(file)).toBe('{"rules":[]}');
    expect(await readBoundedText(path.join(dir, "link.json"))).toBe('{"rules":[]}');
  });

  it("passes file system errors through (ENOENT)", async () => {
    await expect(readBoundedFile(path.join(dir, "missing.json"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("refuses a file over the limit, at any limit", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 4096 }),
        fc.integer({ min: 1, max: 64 }),
        async (limit, extra) => {
          const file = path.join(dir, `big-${limit}-${extra}`);
          writeFileSync(file, Buffer.alloc(limit + extra, 0x61));
          expect(await reasonOf(readBoundedFile(file, { maxBytes: limit }))).toBe("too-large");
          expect((await readBoundedFile(file, { maxBytes: limit + extra })).length).toBe(limit + extra);
          rmSync(file);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("reads a store that another process keeps replacing by rename, never refusing it", async () => {
    const { spawn } = await import("node:child_process");
    const file = path.join(dir, "replaced.json");
    writeFileSync(file, '"a"');
    // A writer that does what the stores do: write a temporary file, rename it over the target, forever.
    const writer = spawn(
      process.execPath,
      [
        "-e",
        `const fs = require("node:fs"); const f = process.argv[1];
         for (let i = 0; ; i++) { fs.writeFileSync(f + ".tmp", i % 2 ? '"a"' : '"b"'); fs.renameSync(f + ".tmp", f); }`,
        file,
      ],
      { stdio: "ignore" },
    );
    try {
      // Once the writer has replaced the file, every read below races a rename.
      while ((await readBoundedText(file)) !== '"b"') await new Promise((resolve) => setTimeout(resolve, 10));
      const seen = new Set<string>();
      for (let i = 0; i < 500; i++) {
        seen.add(await readBoundedText(file));
        seen.add(readBoundedFileSync(file).toString("utf8"));
      }
      expect([...seen].sort()).toEqual(['"a"', '"b"']);
    } finally {
      writer.kill("SIGKILL");
    }
  });

  it.runIf(posix)("refuses /dev/zero behind a symlink, at once", async () => {
    const link = path.join(dir, "zero.json");
    symlinkSync("/dev/zero", link);
    const started = Date.now();
    expect(await reasonOf(readBoundedFile(link))).toBe("not-regular");
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it.runIf(posix)("refuses a FIFO with no writer without waiting for one", async () => {
    const fifo = path.join(dir, "fifo.json");
    execFileSync("mkfifo", [fifo]);
    symlinkSync(fifo, path.join(dir, "fifo-link.json"));
    const started = Date.now();
    expect(await reasonOf(readBoundedFile(fifo))).toBe("not-regular");
    expect(await reasonOf(readBoundedFile(path.join(dir, "fifo-link.json")))).toBe("not-regular");
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("refuses a directory", async () => {
    expect(await reasonOf(readBoundedFile(dir))).toBe("not-regular");
  });

  it.runIf(posix)("refuses a socket", async () => {
    const socket = path.join(dir, "sock");
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      expect(await reasonOf(readBoundedFile(socket))).toBe("not-regular");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

// The test timeout is the hang guard: a plain synchronous read of a FIFO or of /dev/zero never returns.
describe.runIf(posix)("readBoundedFileSync and the binding's reader", () => {
  const sync = (file: string): string => {
    try {
      readBoundedFileSync(file, { maxBytes: 64 });
    } catch (error) {
      if (isSlashiError(error) && error.code === "FILE_UNSAFE") return String(error.data.reason);
      return String((error as NodeJS.ErrnoException).code);
    }
    return "read";
  };

  it("refuses what the asynchronous reader refuses, with the same reasons", { timeout: 20_000 }, () => {
    const fifo = path.join(dir, "sync-fifo.sh");
    execFileSync("mkfifo", [fifo]);
    const zero = path.join(dir, "sync-zero.sh");
    symlinkSync("/dev/zero", zero);
    const big = path.join(dir, "sync-big.sh");
    writeFileSync(big, Buffer.alloc(65, 0x61));
    const plain = path.join(dir, "sync-plain.sh");
    writeFileSync(plain, "echo hi\n");
    expect([fifo, zero, big, plain, dir].map(sync)).toEqual([
      "not-regular",
      "not-regular",
      "too-large",
      "read",
      "not-regular",
    ]);
    expect(sync(path.join(dir, "sync-missing.sh"))).toBe("ENOENT");
  });

  beforeAll(() => loadShellParser());

  it(
    "makes the binding of a script that is a FIFO or /dev/zero refused, at once",
    { timeout: 20_000 },
    () => {
      const cwd = scratchDir("bind-", dir);
      execFileSync("mkfifo", [path.join(cwd, "build.sh")]);
      symlinkSync("/dev/zero", path.join(cwd, "zero.sh"));
      writeFileSync(path.join(cwd, "ok.sh"), "echo ok\n");
      const site = { cwd, env: {}, root: cwd, identity: "x" };
      expect(commandBinding(["bash", "build.sh"], site, readTextOrUndefined).ok).toBe(false);
      expect(commandBinding(["./zero.sh"], site, readTextOrUndefined).ok).toBe(false);
      expect(commandBinding(["bash", "ok.sh"], site, readTextOrUndefined).ok).toBe(true);
    },
  );
});

describe("readStreamBounded", () => {
  it("reads a stream within the limit and refuses one past it", async () => {
    expect(await readStreamBounded(Readable.from([Buffer.from("ab"), Buffer.from("c")]), "stdin")).toBe(
      "abc",
    );
    expect(
      await reasonOf(readStreamBounded(Readable.from([Buffer.alloc(10)]), "stdin", { maxBytes: 9 })),
    ).toBe("too-large");
  });

  it("stops reading an endless stream at the limit", async () => {
    const endless = new Readable({
      read() {
        this.push(Buffer.alloc(1024));
      },
    });
    expect(await reasonOf(readStreamBounded(endless, "stdin", { maxBytes: 64 * 1024 }))).toBe("too-large");
  });
});
