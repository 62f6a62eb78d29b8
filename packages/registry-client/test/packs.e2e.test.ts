/**
 * End to end against real verdaccio registries on loopback (started by the global setup): publish → search →
 * install → run → update → remove over HTTP and HTTPS, and every kind of bad pack rejected with nothing
 * installed.
 */
import { generateKeyPairSync, sign } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { scratchDir, tempDir } from "@slashi/test-utils";
import { beforeAll, describe, expect, inject, it } from "vitest";
import {
  SlashiErrorCode,
  approvalStateOf,
  decide,
  describeCommandChanges,
  isSlashiError,
  loadShellParser,
  makeApprovalRecord,
  resolvePolicy,
} from "@slashi/core";
import type { ApprovalRecord, CommandIdentity, SlashiError, TerminalStep } from "@slashi/core";
import { runCommand } from "@slashi/runtime";
import {
  PackManager,
  loadInstalledPackCommands,
  loadPackPresets,
  preparePublish,
  publishPack,
  resolveRegistry,
  scaffoldPack,
  signedMessage,
} from "../src/index.js";
import { managerFor, manifestText, publishRaw, snapshot, startProxy } from "./helpers.js";
import type { RunningRegistry } from "@slashi/test-utils/verdaccio";

/** One command of an installed pack as every host reads it (the loader behind the command catalogue). */
async function installedCommand(packsDir: string, pack: string, command: string) {
  for (const p of await loadInstalledPackCommands({ packsDir })) {
    if (p.id !== pack || !("commands" in p)) continue;
    const found = p.commands.find((c) => c.name === command);
    if (found) return { pack: p.id, version: p.version, integrity: p.integrity, command: found };
  }
  return undefined;
}

const registries = inject("registries");
const available = !("skip" in registries);
const httpsAvailable = available && "https" in registries && registries.https !== undefined;
const reg = (kind: "http" | "https"): RunningRegistry =>
  (registries as { http: RunningRegistry; https: RunningRegistry })[kind];
const kinds = (httpsAvailable ? ["http", "https"] : ["http"]) as ("http" | "https")[];

async function failure(fn: () => Promise<unknown>): Promise<SlashiError> {
  try {
    await fn();
  } catch (error) {
    if (isSlashiError(error)) return error;
    throw error;
  }
  throw new Error("expected a SlashiError");
}

const scratch = scratchDir("slashi-packs-e2e-");
beforeAll(async () => {
  await loadShellParser();
});

/** A fresh folder inside this file's scratch folder (removed with it; also usable in a `beforeAll`). */
function folder(label: string): string {
  return tempDir(`${label}-`, scratch).dir;
}

/** Writes a pack folder with the given version and terminal command. */
async function writePack(dir: string, name: string, version: string, command: string): Promise<void> {
  await scaffoldPack(dir, { name, version, description: "End-to-end pack" });
  await writeFile(path.join(dir, "slashi-pack.json"), manifestText(command));
}

describe.skipIf(!available).each(kinds)("a pack over %s", (kind) => {
  const name = `@e2e-${kind}/tools`;
  let packsDir: string;
  let manager: PackManager;
  const approvals: ApprovalRecord[] = [];

  beforeAll(async () => {
    packsDir = folder(`packs-${kind}`);
    manager = await managerFor(reg(kind), packsDir, reg(kind).token);
  });

  it("publishes with the token after listing what needs approval", async () => {
    const dir = folder(`src-${kind}`);
    await writePack(dir, name, "1.0.0", "echo pack-ran-1");
    const pack = await preparePublish(dir);
    const say = pack.description.commands.find((c) => c.name === "say");
    expect(say?.needsApproval).toBe(true);
    expect(say?.steps[0]?.text).toBe("Terminal: echo pack-ran-1");
    expect(say?.fingerprint).toMatch(/^slashi-fp-1:sha256:[0-9a-f]{64}$/);
    expect(pack.description.commands.find((c) => c.name === "hello")?.needsApproval).toBe(false);
    expect(pack.files).toEqual(["README.md", "package.json", "slashi-pack.json"]);
    await publishPack(await manager.client(name, true), pack);
  });

  it("refuses to publish without a token, naming the source only", async () => {
    const anonymous = await managerFor(reg(kind), folder("anon"));
    const error = await failure(() => anonymous.client(name, true));
    expect(error.code).toBe(SlashiErrorCode.REGISTRY_FAILED);
    expect(error.message).toContain("E2E_REGISTRY_TOKEN");
    expect(error.message).not.toContain(reg(kind).token);
  });

  it("finds the pack by keyword search", async () => {
    const hits = await manager.search("tools");
    expect(hits.map((h) => h.name)).toContain(name);
    expect((await manager.search("")).map((h) => h.name)).toContain(name);
    expect(await manager.search("no-such-words-anywhere")).toEqual([]);
    expect(hits.find((h) => h.name === name)?.keywords).toContain("slashi-pack");
  });

  it("installs it, checked against the listing, and records it in the lockfile", async () => {
    const result = await manager.install(name);
    expect(result).toMatchObject({ name, version: "1.0.0", unchanged: false });
    expect(result.signature).toMatchObject({ status: "unsigned" });
    const lock = JSON.parse(await readFile(path.join(packsDir, "packs.lock.json"), "utf8"));
    expect(lock.packs[name]).toMatchObject({
      version: "1.0.0",
      integrity: result.integrity,
      registry: reg(kind).url,
      dir: "@e2e-" + kind + "+tools@1.0.0",
      signature: "unsigned",
    });
    const tree = await snapshot(packsDir);
    expect(tree.some((p) => p.startsWith(`@e2e-${kind}+tools@1.0.0/slashi-pack.json 100644 `))).toBe(true);
    expect(tree.filter((p) => p.startsWith(".staging-"))).toEqual([]);
    const again = await manager.install(name, "1.0.0");
    expect(again.unchanged).toBe(true);
  });

  it("runs an installed command: decided by core, approved by fingerprint, run by the runtime", async () => {
    const say = await installedCommand(packsDir, name, "say");
    expect(say).toBeDefined();
    const def = say!.command;
    const identity: CommandIdentity = {
      source: "pack",
      name: def.name,
      packId: say!.pack,
      packVersion: say!.version,
      packIntegrity: say!.integrity,
    };
    expect(approvalStateOf(def, identity, approvals).state).toBe("new");
    approvals.push(makeApprovalRecord(def, identity, { now: () => Date.parse("2026-11-29T12:00:00Z") }));
    expect(approvalStateOf(def, identity, approvals).state).toBe("approved");
    const step = def.steps[0] as TerminalStep;
    const decision = decide(step.command, resolvePolicy([]), { shell: "bash", cwd: packsDir });
    expect(decision.decision).toBe("allow");
    const run = await runCommand({ argv: decision.commands[0]!.effective, cwd: packsDir });
    expect(run.exitCode).toBe(0);
    expect(run.stdout.trim()).toBe("pack-ran-1");
  });

  it("pulls the pack's policy in through extends as a pack layer", async () => {
    const layers = await loadPackPresets(["recommended", name], manager);
    expect(layers).toEqual([{ kind: "pack", source: name, document: expect.any(Object), approved: false }]);
    const policy = resolvePolicy([
      { kind: "user", source: "policy.json", document: { version: 1, extends: ["recommended", name] } },
      ...layers,
    ]);
    expect(decide("terraform apply -auto-approve", policy).decision).toBe("deny");
    const missing = await failure(() => loadPackPresets(["@e2e/not-installed"], manager));
    expect(missing.code).toBe(SlashiErrorCode.PACK_NOT_FOUND);
    expect(missing.message).toContain("slashi pack install @e2e/not-installed");
  });

  it("updates: shows the changed command, asks again, and replaces the version atomically", async () => {
    const dir = folder(`src2-${kind}`);
    await writePack(dir, name, "1.1.0", "echo pack-ran-2");
    await publishPack(await manager.client(name, true), await preparePublish(dir));

    const declined = await manager.update([name]);
    expect(declined[0]).toMatchObject({ status: "declined" });
    expect((await manager.list())[0]?.entry.version).toBe("1.0.0");

    const plans: unknown[] = [];
    const results = await manager.update([name], { confirm: (plan) => (plans.push(plan), true) });
    expect(results[0]).toMatchObject({
      status: "updated",
      plan: { from: "1.0.0", to: "1.1.0", needsConfirmation: true },
    });
    const plan = (results[0] as { plan: { changes: { name: string; change: string; details?: string[] }[] } })
      .plan;
    expect(plan.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "say", change: "changed" }),
        expect.objectContaining({ name: "hello", change: "same" }),
      ]),
    );
    const tree = await snapshot(packsDir);
    expect(tree.some((p) => p.startsWith(`@e2e-${kind}+tools@1.1.0/`))).toBe(true);
    expect(tree.some((p) => p.startsWith(`@e2e-${kind}+tools@1.0.0`))).toBe(false);

    // The approval of 1.0.0 does not cover 1.1.0: approvals bind pack id, exact version and fingerprint. The
    // first run says the pack was updated from the approved version, with the changed step.
    const say = (await installedCommand(packsDir, name, "say"))!;
    const state = approvalStateOf(
      say.command,
      { source: "pack", name: "say", packId: name, packVersion: say.version, packIntegrity: say.integrity },
      approvals,
    );
    expect(state).toMatchObject({ state: "changed", updatedFrom: "1.0.0" });
    expect(state.state === "changed" && describeCommandChanges(state.changes)).toEqual([
      "step 1 changed: Terminal: echo pack-ran-2 (was: Terminal: echo pack-ran-1)",
    ]);
    expect(plan.changes.find((c) => c.name === "say")).toMatchObject({
      details: ["step 1 changed: Terminal: echo pack-ran-2 (was: Terminal: echo pack-ran-1)"],
    });
    expect((await manager.update([name]))[0]).toMatchObject({ status: "current", version: "1.1.0" });
  });

  it("describes the pack with info, installed and remote", async () => {
    const info = await manager.info(name, { remote: true });
    expect(info.installed?.entry.version).toBe("1.1.0");
    expect(info.remote?.available.versions).toEqual(["1.0.0", "1.1.0"]);
    expect(info.remote?.description.commands.find((c) => c.name === "say")?.approvalKey).toContain('"1.1.0"');
  });

  it("removes it: lockfile entry and files", async () => {
    expect(await manager.remove(name)).toBe(true);
    expect(await manager.list()).toEqual([]);
    expect((await snapshot(packsDir)).filter((p) => !p.startsWith("packs.lock.json"))).toEqual([]);
    expect(await manager.remove(name)).toBe(false);
  });
});

describe.skipIf(!httpsAvailable)("HTTPS trust", () => {
  it("refuses the registry's self-signed certificate unless its CA is given", async () => {
    const registry = await resolveRegistry({ url: reg("https").url });
    const manager = new PackManager({ packsDir: folder("noca"), registries: [registry] });
    const error = await failure(() => manager.search(""));
    expect(error.code).toBe(SlashiErrorCode.REGISTRY_FAILED);
    expect(error.message).toMatch(/certificate|CERT/);
  });
});

describe.skipIf(!available)("rejected packs leave nothing installed", () => {
  const good = "@e2e-bad/good";
  let packsDir: string;
  let manager: PackManager;
  let before: { tree: string[]; lock: Buffer };

  beforeAll(async () => {
    packsDir = folder("rejects");
    manager = await managerFor(reg("http"), packsDir, reg("http").token);
    const dir = folder("good");
    await writePack(dir, good, "1.0.0", "echo good");
    await publishPack(await manager.client(good, true), await preparePublish(dir));
    await manager.install(good);
    before = { tree: await snapshot(packsDir), lock: await readFile(path.join(packsDir, "packs.lock.json")) };
  });

  async function expectUnchanged(): Promise<void> {
    expect(await snapshot(packsDir)).toEqual(before.tree);
    expect((await readFile(path.join(packsDir, "packs.lock.json"))).equals(before.lock)).toBe(true);
  }

  async function rejectedThrough(
    proxyManager: PackManager,
    name: string,
    code: string,
    words: RegExp,
  ): Promise<SlashiError> {
    const error = await failure(() => proxyManager.install(name));
    expect(error.code).toBe(code);
    expect(error.message).toMatch(words);
    await expectUnchanged();
    return error;
  }

  it("a tampered tarball", async () => {
    const proxy = await startProxy(reg("http").url, { kind: "tarball-bytes" });
    try {
      await rejectedThrough(
        await managerFor(proxy, packsDir),
        good,
        SlashiErrorCode.PACK_INTEGRITY,
        /does not match/,
      );
    } finally {
      await proxy.close();
    }
  });

  it("a wrong integrity in the listing", async () => {
    const wrong = `sha512-${Buffer.alloc(64, 7).toString("base64")}`;
    const proxy = await startProxy(reg("http").url, { kind: "integrity", integrity: wrong });
    try {
      await rejectedThrough(
        await managerFor(proxy, packsDir),
        good,
        SlashiErrorCode.PACK_INTEGRITY,
        /does not match/,
      );
    } finally {
      await proxy.close();
    }
  });

  it("a listing whose tarball is on a plain-HTTP non-loopback host", async () => {
    const proxy = await startProxy(reg("http").url, {
      kind: "tarball-url",
      url: "http://npm.example.test/x.tgz",
    });
    try {
      await rejectedThrough(
        await managerFor(proxy, packsDir),
        good,
        SlashiErrorCode.REGISTRY_INSECURE,
        /plain HTTP/,
      );
    } finally {
      await proxy.close();
    }
  });

  it("a plain-HTTP non-loopback registry URL", async () => {
    const error = await failure(() => resolveRegistry({ url: "http://npm.example.test/" }));
    expect(error.code).toBe(SlashiErrorCode.REGISTRY_INSECURE);
    await expectUnchanged();
  });

  it("a registry signature that does not verify, while a good one installs as verified", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const keys = [
      {
        keyid: "SHA256:e2e",
        keytype: "ecdsa-sha2-nistp256",
        scheme: "ecdsa-sha2-nistp256",
        expires: null,
        key: publicKey.export({ format: "der", type: "spki" }).toString("base64"),
      },
    ];
    const signer =
      (bad: boolean) =>
      (n: string, v: string, integrity: string): { keyid: string; sig: string }[] => [
        {
          keyid: "SHA256:e2e",
          sig: sign(
            "sha256",
            Buffer.from(signedMessage(n, bad ? "9.9.9" : v, integrity)),
            privateKey,
          ).toString("base64"),
        },
      ];
    const badProxy = await startProxy(reg("http").url, { kind: "sign", keys, sign: signer(true) });
    try {
      await rejectedThrough(
        await managerFor(badProxy, packsDir),
        good,
        SlashiErrorCode.PACK_INTEGRITY,
        /signature/,
      );
    } finally {
      await badProxy.close();
    }
    const goodProxy = await startProxy(reg("http").url, { kind: "sign", keys, sign: signer(false) });
    try {
      const elsewhere = await managerFor(goodProxy, folder("signed"));
      expect((await elsewhere.install(good)).signature).toEqual({ status: "verified", keyid: "SHA256:e2e" });
    } finally {
      await goodProxy.close();
    }
  });

  it("path traversal", async () => {
    const name = "@e2e-bad/traversal";
    await publishRaw(reg("http"), name, "1.0.0", [
      { path: "package/slashi-pack.json", data: Buffer.from(manifestText()) },
      { path: "package/../../evil.txt", data: Buffer.from("x") },
    ]);
    await rejectedThrough(manager, name, SlashiErrorCode.PACK_UNSAFE, /leaves the pack/);
  });

  it("a symlink out of the pack", async () => {
    const name = "@e2e-bad/symlink";
    await publishRaw(reg("http"), name, "1.0.0", [
      { path: "package/slashi-pack.json", data: Buffer.from(manifestText()) },
      { path: "package/passwd", type: "2", linkname: "../../../../etc/passwd" },
    ]);
    await rejectedThrough(manager, name, SlashiErrorCode.PACK_UNSAFE, /symbolic link/);
  });

  it("an oversized pack", async () => {
    const name = "@e2e-bad/oversized";
    await publishRaw(reg("http"), name, "1.0.0", [
      { path: "package/slashi-pack.json", data: Buffer.from(manifestText()) },
      { path: "package/blob.bin", data: Buffer.alloc(6 * 1024 * 1024) },
    ]);
    await rejectedThrough(manager, name, SlashiErrorCode.PACK_UNSAFE, /more than 5242880 bytes/);
  });

  it("a malformed manifest, located by file, line and JSON path", async () => {
    const name = "@e2e-bad/manifest";
    const text = `{\n  "version": 1,\n  "commands": [\n    { "name": "x", "steps": [{ "type": "terminal", "cmd": "ls" }] }\n  ]\n}`;
    await publishRaw(reg("http"), name, "1.0.0", [
      { path: "package/slashi-pack.json", data: Buffer.from(text) },
    ]);
    const error = await rejectedThrough(
      manager,
      name,
      SlashiErrorCode.SCHEMA_INVALID,
      /unknown property "cmd"/,
    );
    expect(error.data).toMatchObject({ file: `${name}@1.0.0/slashi-pack.json`, line: 4 });
    expect(error.data.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ line: 4, jsonPath: "/commands/0/steps/0/cmd" })]),
    );
  });

  it("a package that is not a pack", async () => {
    const name = "@e2e-bad/not-a-pack";
    await publishRaw(
      reg("http"),
      name,
      "1.0.0",
      [{ path: "package/slashi-pack.json", data: Buffer.from(manifestText()) }],
      {
        keywords: ["other"],
      },
    );
    await rejectedThrough(manager, name, SlashiErrorCode.PACK_INVALID, /keywords/);
  });

  it("a tarball whose package.json claims another pack", async () => {
    const name = "@e2e-bad/impostor";
    await publishRaw(
      reg("http"),
      name,
      "1.0.0",
      [
        {
          path: "package/package.json",
          data: Buffer.from(JSON.stringify({ name: good, version: "1.0.0", keywords: ["slashi-pack"] })),
        },
        { path: "package/slashi-pack.json", data: Buffer.from(manifestText()) },
      ],
      null,
    );
    await rejectedThrough(manager, name, SlashiErrorCode.PACK_INVALID, /names @e2e-bad\/good@1.0.0/);
  });

  it("an unknown pack", async () => {
    await rejectedThrough(
      manager,
      "@e2e-bad/nothing-here",
      SlashiErrorCode.PACK_NOT_FOUND,
      /not in the registry/,
    );
  });
});
