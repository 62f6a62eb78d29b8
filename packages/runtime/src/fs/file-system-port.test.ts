import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decide, loadShellParser, RECOMMENDED_POLICY, resolvePolicy } from "@slashi/core";
import { scratchDir, skipUnlessCi } from "@slashi/test-utils";
import { beforeAll, describe, expect, it } from "vitest";
import { cordonAvailability } from "../cordon/availability.js";
import { mountPointsOf, nodeFileSystemPort } from "./file-system-port.js";

const bubblewrap = cordonAvailability();
/** Whether real bubblewrap can make a bind mount here (a missing one fails under CI). */
const bindMounts =
  process.platform === "linux" &&
  !skipUnlessCi(bubblewrap.available ? undefined : bubblewrap.reason, "a bind mount made by bubblewrap");

describe("nodeFileSystemPort", () => {
  const root = scratchDir("slashi-fs-port-");
  const home = join(root, "home");
  const workspace = join(home, "project");
  const policy = resolvePolicy([{ kind: "user", source: "test", document: RECOMMENDED_POLICY }]);

  beforeAll(async () => {
    await loadShellParser();
    mkdirSync(join(home, ".ssh"), { recursive: true });
    writeFileSync(join(home, ".ssh", "id_rsa"), "canary");
    writeFileSync(join(home, ".ssh", "work"), "canary");
    mkdirSync(join(workspace, "src"), { recursive: true });
    writeFileSync(join(workspace, "src", "a.ts"), "export {};");
    symlinkSync(join(home, ".ssh"), join(workspace, "docs"));
    symlinkSync(join(home, ".ssh", "id_rsa"), join(workspace, "notes.txt"));
  });

  const context = () => ({ cwd: workspace, workspaceRoot: workspace, home, fs: nodeFileSystemPort() });

  it("resolves links in the existing part and keeps the missing tail", () => {
    const port = nodeFileSystemPort();
    expect(port.realpath(join(workspace, "docs", "id_rsa"))).toBe(join(home, ".ssh", "id_rsa"));
    expect(port.realpath(join(workspace, "docs", "missing", "x"))).toBe(join(home, ".ssh", "missing", "x"));
    expect(port.readdir(join(workspace, "src"))).toEqual(["a.ts"]);
    expect(port.readdir(join(workspace, "nothing-here"))).toBeUndefined();
  });

  it.each(["cat docs/work", "cat notes.txt", "head docs/*", "grep -r x docs"])(
    "makes a read through a link into a secret place ask: %s",
    (line) => {
      expect(decide(line, policy, context()).decision).toBe("ask");
    },
  );

  it.each(["cat docs/work", "cat notes.txt"])("cannot see the link without the port: %s", (line) => {
    const { fs: _unused, ...withoutPort } = context();
    expect(decide(line, policy, withoutPort).decision).toBe("allow");
  });

  it("lets a tree read whole through only when the port showed its every name", () => {
    const { fs: _unused, ...withoutPort } = context();
    expect(decide("grep -r x src", policy, withoutPort).decision).toBe("ask");
    expect(decide("grep -r x src", policy, context()).decision).toBe("allow");
  });

  it("lists a folder's entries with what each is, links not followed", () => {
    const entries = nodeFileSystemPort().entries?.(workspace);
    expect([...(entries ?? [])].sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: "docs", kind: "link" },
      { name: "notes.txt", kind: "link" },
      { name: "src", kind: "folder" },
    ]);
    expect(nodeFileSystemPort().entries?.(join(workspace, "src"))).toEqual([{ name: "a.ts", kind: "file" }]);
    expect(nodeFileSystemPort().entries?.(join(workspace, "src", "a.ts"))).toBeUndefined();
  });

  it("leaves ordinary reads allowed", () => {
    expect(decide("cat src/a.ts", policy, context()).decision).toBe("allow");
    expect(decide("head src/*.ts", policy, context()).decision).toBe("allow");
  });

  describe("the mount table", () => {
    // A user rule that names `rm -rf build` and `rm -rf cache` exactly: only a mount point keeps it asking.
    const exact = resolvePolicy([
      { kind: "user", source: "test", document: RECOMMENDED_POLICY },
      {
        kind: "user",
        source: "rules",
        document: {
          version: 1,
          rules: [{ match: ["rm", "-rf", ["build", "cache"], "$"], decision: "allow" }],
        },
      },
    ]);
    const codes = (line: string, fs: ReturnType<typeof nodeFileSystemPort>): string[] =>
      decide(line, exact, { cwd: workspace, workspaceRoot: workspace, home, fs }).reasons.map(
        (r) => `${r.code}${r.inactive ? `:${r.inactive}` : ""}`,
      );

    it("lists this host's mount points, /proc among them", () => {
      expect(nodeFileSystemPort().mountPoints?.()).toEqual(expect.arrayContaining(["/", "/proc"]));
    });

    it("decodes the kernel's escapes and refuses a table it cannot read whole", () => {
      expect(mountPointsOf("36 35 98:0 /mnt1 /my\\040dir rw,noatime master:1 - ext3 /dev/root rw\n")).toEqual(
        ["/my dir"],
      );
      expect(mountPointsOf("garbage\n")).toBeUndefined();
      expect(mountPointsOf("")).toBeUndefined();
    });

    // The test timeout is the hang guard: a plain read of a FIFO never returns.
    it.runIf(process.platform === "linux")(
      "counts a missing or FIFO mount table as none: every recursive removal asks",
      { timeout: 20_000 },
      () => {
        const fifo = join(root, "mountinfo-fifo");
        execFileSync("mkfifo", [fifo]);
        for (const mountinfo of [join(root, "no-mountinfo"), fifo]) {
          const port = nodeFileSystemPort({ mountinfo });
          expect(port.mountPoints?.()).toBeUndefined();
          expect(codes("rm -rf build", port)).toContain("rm.mount-unknown");
          expect(
            decide("rm -rf build", exact, { cwd: workspace, workspaceRoot: workspace, home, fs: port })
              .decision,
          ).toBe("ask");
        }
      },
    );

    // A real bind mount in the workspace, made by bubblewrap (no unshare of our own): the mount table seen
    // inside is the one the port reads.
    it.runIf(bindMounts)(
      "asks for rm -rf of a bind mount in the workspace, and of a folder holding one, rule or not",
      () => {
        const cache = join(workspace, "cache");
        const vendor = join(workspace, "vendor", "data");
        const source = join(root, "mounted-source");
        for (const dir of [cache, vendor, source, join(workspace, "build")])
          mkdirSync(dir, { recursive: true });
        const table = join(root, "mountinfo-inside");
        const bwrap = (cordonAvailability() as { program: string }).program;
        const text = execFileSync(
          bwrap,
          [
            "--dev-bind",
            "/",
            "/",
            "--bind",
            source,
            cache,
            "--bind",
            source,
            vendor,
            "--",
            "cat",
            "/proc/self/mountinfo",
          ],
          { encoding: "utf8" },
        );
        writeFileSync(table, text);
        const port = nodeFileSystemPort({ mountinfo: table });
        expect(port.mountPoints?.()).toEqual(expect.arrayContaining([cache, vendor]));
        expect(codes("rm -rf cache", port)).toContain("rm.mount-point");
        expect(
          decide("rm -rf cache", exact, { cwd: workspace, workspaceRoot: workspace, home, fs: port })
            .decision,
        ).toBe("ask");
        expect(codes("rm -rf vendor", port)).toContain("rm.mount-point");
        expect(codes("rm -rf cache/*", port)).toContain("rm.mount-point");
        // The exact rule still lifts the plain recursive removal next to it.
        expect(codes("rm -rf build", port)).toEqual(expect.arrayContaining(["rm.recursive:lifted"]));
        expect(
          decide("rm -rf build", exact, { cwd: workspace, workspaceRoot: workspace, home, fs: port })
            .decision,
        ).toBe("allow");
      },
    );
  });
});
