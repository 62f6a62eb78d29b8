// `slashi pack …` against a real verdaccio on loopback (from e2e/registry; skipped when it is not installed,
// except under CI). The handlers run in-process with an isolated config and state directory.
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  scratchDir,
  startRegistry,
  stopRegistry,
  verdaccioBin,
  verdaccioUnavailable,
  type RunningRegistry,
} from "@slashi/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decide } from "@slashi/core";
import { loadSetup } from "../context.js";
import { formatError, toExitCode } from "../errors.js";
import type { Io } from "../io.js";
import { findCommand, parseArgs } from "../options.js";
import { approvalsList } from "./approvals.js";
import { PACK_COMMANDS, PACK_HANDLERS } from "./pack-spec.js";
import { splitSpec } from "./pack.js";
import { scriptedIo } from "../../test/helpers.js";

const installed = verdaccioUnavailable() === undefined;

// Removed after the registry has stopped (vitest runs the file's afterAll hooks last registered first).
const root = scratchDir("slashi-cli-pack-");
let registry: RunningRegistry | undefined;

beforeAll(async () => {
  if (!installed) return;
  registry = await startRegistry({ bin: verdaccioBin, dir: path.join(root, "registry"), tls: false });
  await writeFile(
    path.join(root, "registries.json"),
    JSON.stringify({ version: 1, registries: [{ url: registry.url, token: { env: "PACK_TOKEN" } }] }),
  );
}, 120_000);

afterAll(async () => {
  if (registry) await stopRegistry(registry);
});

function io(answers?: string): ReturnType<typeof scriptedIo> {
  return scriptedIo(
    {
      PATH: process.env.PATH ?? "",
      HOME: path.join(root, "home"),
      SLASHI_CONFIG_DIR: root,
      SLASHI_STATE_DIR: path.join(root, "state"),
      PACK_TOKEN: registry?.token ?? "",
    },
    root,
    answers,
  );
}

async function pack(
  words: string[],
  answers?: string,
): Promise<{ status: number; out: string; err: string }> {
  const spec = PACK_COMMANDS.find((c) => words.slice(0, c.path.length).join(" ") === c.path.join(" "));
  if (!spec) throw new Error(`no pack command for ${words.join(" ")}`);
  const handler = await (
    PACK_HANDLERS[spec.path.join(" ")] as () => Promise<(a: unknown, i: Io) => Promise<number>>
  )();
  const stream = io(answers);
  try {
    const status = await handler(parseArgs(spec, words.slice(spec.path.length)), stream);
    return { status, out: stream.out(), err: stream.err() };
  } catch (error) {
    // What bin.ts does with a thrown error.
    return { status: toExitCode(error), out: stream.out(), err: stream.err() + formatError(error) };
  }
}

describe("splitSpec", () => {
  it("splits a scoped name from its version and leaves a bare name alone", () => {
    expect(splitSpec("@acme/tools@1.2.0")).toEqual({ name: "@acme/tools", spec: "1.2.0" });
    expect(splitSpec("@acme/tools")).toEqual({ name: "@acme/tools" });
    expect(splitSpec("tools@next")).toEqual({ name: "tools", spec: "next" });
  });
});

describe.skipIf(!installed)("slashi pack", () => {
  const name = "@cli/tools";

  it("init, publish --dry-run, then publish with --yes", async () => {
    const init = await pack(["pack", "init", "src", "--name", name]);
    expect(init.status).toBe(0);
    expect(init.out).toContain("slashi-pack.json");
    const dry = await pack(["pack", "publish", "src", "--dry-run"]);
    expect(dry.status).toBe(0);
    expect(dry.out).toContain(`${name}@0.1.0 → ${registry?.url}`);
    expect(dry.out).toMatch(/\/status\s+slashi-fp-1:sha256:[0-9a-f]{64}/);
    expect(dry.out).toContain("needs approval: Terminal: git status --short");
    expect(dry.out).toContain("dry run: nothing was published");
    const noTerminal = await pack(["pack", "publish", "src"]);
    expect(noTerminal.status).toBe(121);
    const published = await pack(["pack", "publish", "src", "--yes"]);
    expect(published.status).toBe(0);
    expect(published.out).toContain(`published ${name}@0.1.0`);
    expect(published.out + published.err).not.toContain(registry?.token ?? "no-token");
  });

  it("searches, installs, describes and lists", async () => {
    expect((await pack(["pack", "search", "tools"])).out).toContain(`${name}@0.1.0`);
    const install = await pack(["pack", "install", name]);
    expect(install.status).toBe(0);
    expect(install.out).toMatch(/installed; integrity sha512-\S+ matches the registry; unsigned/);
    const info = await pack(["pack", "info", name, "--json"]);
    const parsed = JSON.parse(info.out);
    expect(parsed.installed.entry.version).toBe("0.1.0");
    expect(parsed.installed.description.commands.map((c: { name: string }) => c.name)).toEqual([
      "hello",
      "status",
    ]);
    const list = await pack(["pack", "list", "--json"]);
    expect(JSON.parse(list.out)).toEqual([
      expect.objectContaining({ name, version: "0.1.0", signature: "unsigned" }),
    ]);
  });

  it("asks before an update that changes a command, and updates with --yes", async () => {
    const manifest = path.join(root, "src", "slashi-pack.json");
    await writeFile(manifest, (await readFile(manifest, "utf8")).replace("git status --short", "git status"));
    const pkgFile = path.join(root, "src", "package.json");
    const pkg = JSON.parse(await readFile(pkgFile, "utf8"));
    await writeFile(pkgFile, JSON.stringify({ ...pkg, version: "0.2.0" }));
    expect((await pack(["pack", "publish", "src", "--yes"])).status).toBe(0);
    const skipped = await pack(["pack", "update"]);
    expect(skipped.status).toBe(122);
    expect(skipped.out).toContain("/status: changed (needs approval again)");
    expect(skipped.out).toContain(
      "    step 1 changed: Terminal: git status (was: Terminal: git status --short)",
    );
    expect(skipped.out).toContain("not updated");
    const declined = await pack(["pack", "update"], "n\n");
    expect(declined.status).toBe(122);
    const updated = await pack(["pack", "update", "--yes"]);
    expect(updated.status).toBe(0);
    expect(updated.out).toContain(`${name}: updated to 0.2.0`);
    expect((await pack(["pack", "update"])).out).toContain("is up to date");
  });

  it("loads an extended pack's policy as a pack layer, approved only after pack approve", async () => {
    const policyFile = path.join(root, "policy.json");
    const packLayer = async () => (await loadSetup(io())).layers.find((l) => l.kind === "pack");
    await writeFile(policyFile, JSON.stringify({ version: 1, extends: ["recommended", name] }));
    try {
      expect(await packLayer()).toEqual(
        expect.objectContaining({ kind: "pack", source: name, approved: false }),
      );
      const approve = await pack(["pack", "approve", name, "--yes"]);
      expect(approve.status).toBe(0);
      expect(approve.out).toContain("deny  git push --force");
      expect((await packLayer())?.approved).toBe(true);
      const listed = io();
      const found = findCommand(["approvals", "list"]);
      if (!found) throw new Error("no approvals list command");
      expect(await approvalsList(parseArgs(found.spec, found.rest), listed)).toBe(0);
      expect(listed.out()).toMatch(new RegExp(`\\(policy of the pack ${name}@0\\.2\\.0\\)`));
      expect(listed.out()).not.toContain("workspace policy file");
      expect((await pack(["pack", "approve", name, "--revoke"])).status).toBe(0);
      expect((await packLayer())?.approved).toBe(false);
      await writeFile(policyFile, JSON.stringify({ version: 1, extends: ["@cli/absent"] }));
      await expect(loadSetup(io())).rejects.toThrow(/slashi pack install @cli\/absent/);
    } finally {
      await rm(policyFile);
    }
  });

  it("decides with the pack's policy when the user policy extends the pack", async () => {
    await writeFile(
      path.join(root, "policy.json"),
      JSON.stringify({ version: 1, extends: ["recommended", name] }),
    );
    try {
      const setup = await loadSetup(io());
      expect(setup.policy.layers.map((l) => `${l.kind}:${l.source}`)).toContain(`pack:${name}`);
      const decision = decide("git push --force origin main", setup.policy, setup.context);
      expect(decision.decision).toBe("deny");
      expect(decision.reasons).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ severity: "deny", rule: expect.objectContaining({ source: name }) }),
        ]),
      );
    } finally {
      await rm(path.join(root, "policy.json"));
    }
  });

  it("refuses to remove a pack the policy extends, naming the line, and removes it with --force", async () => {
    const policyFile = path.join(root, "policy.json");
    await writeFile(
      policyFile,
      `{\n  "version": 1,\n  "extends": [\n    "recommended",\n    "${name}"\n  ]\n}\n`,
    );
    try {
      const refused = await pack(["pack", "remove", name]);
      expect(refused.status).toBe(3);
      expect(refused.err).toContain(`${policyFile}:5:`);
      expect(refused.err).toContain("(at /extends/1)");
      expect((await pack(["pack", "list", "--json"])).out).toContain(name);
      const forced = await pack(["pack", "remove", name, "--force"]);
      expect(forced.status).toBe(0);
      expect(forced.err).toMatch(/warning: .*policy\.json:5:.*every decision fails/);
      expect(forced.out).toContain(`removed ${name}`);
      expect((await pack(["pack", "install", name])).status).toBe(0);
    } finally {
      await rm(policyFile);
    }
  });

  it("removes a pack and says when one is not installed", async () => {
    expect((await pack(["pack", "remove", name])).status).toBe(0);
    const again = await pack(["pack", "remove", name]);
    expect(again.status).toBe(3);
    expect(again.err).toContain("is not installed");
  });
});
