import { chmodSync, lstatSync, mkdirSync, symlinkSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import fc from "fast-check";
import { tempDir } from "@slashi/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import {
  checkParents,
  checkSocket,
  currentUid,
  distrustDirectory,
  distrustParent,
  distrustSocket,
  prepareDirectory,
  type FileFacts,
} from "./ownership.js";

const UID = 1000;

function facts(kind: "dir" | "socket" | "link" | "file", uid: number, mode: number): FileFacts {
  return {
    uid,
    mode,
    isDirectory: () => kind === "dir",
    isSocket: () => kind === "socket",
    isSymbolicLink: () => kind === "link",
  };
}

describe("distrustDirectory and distrustSocket", () => {
  it("trust only this user's own directory and socket, closed to group and others", () => {
    expect(distrustDirectory(facts("dir", UID, 0o40700), UID)).toBeUndefined();
    expect(distrustSocket(facts("socket", UID, 0o140600), UID)).toBeUndefined();
    expect(distrustSocket(facts("socket", UID, 0o140700), UID)).toBeUndefined();
  });

  it("refuse any group or other permission bit, any other owner, links and the wrong kind of file", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("dir", "socket", "link", "file" as const),
        fc.integer({ min: 0, max: 0o777 }),
        fc.integer({ min: 0, max: 70000 }),
        (kind, mode, uid) => {
          const f = facts(kind, uid, mode);
          const trusted = uid === UID && (mode & 0o077) === 0;
          expect(distrustDirectory(f, UID) === undefined).toBe(kind === "dir" && trusted);
          expect(distrustSocket(f, UID) === undefined).toBe(kind === "socket" && trusted);
        },
      ),
    );
  });
});

describe("distrustParent", () => {
  it("trusts a directory above of this user or root unless others may write to it without the sticky bit", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0o7777 }), fc.constantFrom(0, UID, 4242), (mode, owner) => {
        const f = facts("dir", owner, 0o40000 | mode);
        const open = (mode & 0o022) !== 0 && (mode & 0o1000) === 0;
        expect(distrustParent(f, UID, "/x") === undefined).toBe(owner !== 4242 && !open);
      }),
    );
    expect(distrustParent(facts("dir", 0, 0o41777), UID, "/tmp")).toBeUndefined();
  });
});

const uid = currentUid();
const posix = uid !== undefined;

describe.runIf(posix)("on the file system", () => {
  const rootTemp = tempDir("slashi-own-");
  const root = rootTemp.dir;
  afterAll(rootTemp.remove);

  it("prepareDirectory makes a missing directory 0700 and closes an open one of this user", () => {
    const fresh = path.join(root, "fresh", "service");
    expect(prepareDirectory(fresh, uid as number)).toBeUndefined();
    expect(lstatSync(fresh).mode & 0o777).toBe(0o700);
    const open = path.join(root, "open");
    mkdirSync(open, { mode: 0o755 });
    chmodSync(open, 0o755);
    expect(prepareDirectory(open, uid as number)).toBeUndefined();
    expect(lstatSync(open).mode & 0o777).toBe(0o700);
  });

  it("prepareDirectory refuses a directory reached through a symbolic link", () => {
    const real = path.join(root, "real");
    mkdirSync(real, { mode: 0o700 });
    const link = path.join(root, "link");
    symlinkSync(real, link);
    expect(prepareDirectory(link, uid as number)).toMatch(/symbolic link/);
  });

  it("checkSocket says missing, refuses an open socket, and accepts a closed one", async () => {
    const dir = path.join(root, "sock");
    mkdirSync(dir, { mode: 0o700 });
    const socket = path.join(dir, "s.sock");
    expect(checkSocket(dir, socket, uid as number)).toBe("missing");
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      chmodSync(socket, 0o666);
      expect(checkSocket(dir, socket, uid as number)).toMatch(/open to other users/);
      chmodSync(socket, 0o600);
      expect(checkSocket(dir, socket, uid as number)).toBeUndefined();
      chmodSync(dir, 0o750);
      expect(checkSocket(dir, socket, uid as number)).toMatch(/open to other users/);
      chmodSync(dir, 0o700);
      expect(checkSocket(dir, socket, uid === 0 ? 1 : 0)).toMatch(/belongs to user/);
    } finally {
      server.close();
    }
  });
  it("a service directory below a directory others can write to is not used", () => {
    const open = path.join(root, "open");
    mkdirSync(open, { recursive: true });
    chmodSync(open, 0o777);
    const dir = path.join(open, "state", "service");
    try {
      expect(prepareDirectory(dir, uid as number)).toMatch(/can be written by other users/);
      expect(checkSocket(dir, path.join(dir, "s.sock"), uid as number)).toMatch(
        /can be written by other users/,
      );
      chmodSync(open, 0o1777);
      expect(checkParents(dir, uid as number)).toBeUndefined();
    } finally {
      chmodSync(open, 0o755);
    }
  });
});
