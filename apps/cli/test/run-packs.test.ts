// slashi run and list with pack commands, against a real verdaccio on loopback (from e2e/registry; skipped when it
// is not installed, except under CI): packs load only in a trusted workspace, lookup is user > team > pack,
// approvals are global and bound to the pack's exact version, and a slash callee is covered only when approved.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  startRegistry,
  stopRegistry,
  verdaccioBin,
  verdaccioUnavailable,
  type RunningRegistry,
} from "@slashi/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../src/main.js";
import { isolatedEnv, tempDir, scriptedIo } from "./helpers.js";

const installed = verdaccioUnavailable() === undefined;

const tmp = tempDir("slashi-run-packs-");
const ws = path.join(tmp.dir, "project");
const other = path.join(tmp.dir, "other");
const packDir = path.join(tmp.dir, "pack-src");
const marker = (name: string): string => path.join(tmp.dir, "markers", name);
const PACK = "@runtest/tools";
let env: Record<string, string> = {};
let registry: RunningRegistry | undefined;

function io(answers?: string, cwd = ws): ReturnType<typeof scriptedIo> {
  return scriptedIo(env, cwd, answers);
}

function writeManifest(version: string, helloMarker: string): void {
  writeFileSync(
    path.join(packDir, "package.json"),
    JSON.stringify({ name: PACK, version, keywords: ["slashi-pack"], files: [] }),
  );
  writeFileSync(
    path.join(packDir, "slashi-pack.json"),
    JSON.stringify({
      version: 1,
      commands: [
        { name: "hello", steps: [{ type: "terminal", command: `touch ${marker(helloMarker)}` }] },
        {
          name: "chain",
          description: "Calls hello",
          steps: [
            { type: "terminal", command: `touch ${marker("chained")}` },
            { type: "slash", command: "/hello" },
          ],
        },
        { name: "greet", steps: [{ type: "terminal", command: `touch ${marker("pack-greeted")}` }] },
      ],
    }),
  );
}

async function ok(argv: string[], answers?: string): Promise<ReturnType<typeof io>> {
  const session = io(answers);
  const status = await main(argv, session);
  if (status !== 0) throw new Error(`slashi ${argv.join(" ")} exited ${status}: ${session.err()}`);
  return session;
}

beforeAll(async () => {
  for (const dir of [path.join(ws, ".git"), path.join(other, ".git"), packDir, path.join(tmp.dir, "markers")])
    mkdirSync(dir, { recursive: true });
  mkdirSync(path.join(tmp.dir, "config"), { recursive: true });
  if (!installed) return;
  registry = await startRegistry({ bin: verdaccioBin, dir: path.join(tmp.dir, "registry"), tls: false });
  env = isolatedEnv(tmp.dir, { PACK_TOKEN: registry.token });
  writeFileSync(
    path.join(tmp.dir, "config", "registries.json"),
    JSON.stringify({ version: 1, registries: [{ url: registry.url, token: { env: "PACK_TOKEN" } }] }),
  );
  writeFileSync(
    path.join(tmp.dir, "config", "commands.json"),
    JSON.stringify({
      version: 1,
      commands: [{ name: "greet", steps: [{ type: "notify", message: "hello from the user command" }] }],
    }),
  );
  writeManifest("1.0.0", "hello-1");
  await ok(["pack", "publish", packDir, "--yes"]);
  await ok(["pack", "install", `${PACK}@1.0.0`]);
}, 120_000);

afterAll(async () => {
  if (registry) await stopRegistry(registry);
  tmp.remove();
});

describe.skipIf(!installed)("pack commands in slashi run and list", () => {
  it("does not load pack commands in an untrusted workspace", async () => {
    const session = io();
    expect(await main(["list"], session)).toBe(0);
    expect(session.out()).not.toContain("/chain");
    expect(session.err()).toMatch(
      /commands of 1 installed pack\(s\) are not loaded: this workspace is not trusted/,
    );
    await expect(main(["run", "/chain"], io())).rejects.toThrow(
      /installed packs are not loaded because this workspace is not trusted/,
    );
  });

  it("lists pack commands with their pack id and version, and marks a pack command the user's hides", async () => {
    await ok(["trust"]);
    const text = await ok(["list"]);
    expect(text.out()).toMatch(/\/chain\s+Calls hello\s+\(pack @runtest\/tools@1\.0\.0\)/);
    expect(text.out()).toMatch(/\/greet\s+\(pack @runtest\/tools@1\.0\.0; hidden by the user command\)/);
    const json = JSON.parse((await ok(["list", "--json"])).out()) as {
      commands: { name: string; source: string; pack?: string; version?: string; hiddenBy?: string }[];
    };
    expect(json.commands.filter((c) => c.name === "/greet")).toEqual([
      { name: "/greet", description: "", source: "user" },
      { name: "/greet", description: "", source: "pack", pack: PACK, version: "1.0.0", hiddenBy: "user" },
    ]);
  });

  it("runs the user's command for a name a pack also has, and the pack's with --pack", async () => {
    const user = await ok(["run", "/greet"]);
    expect(user.err()).toContain("hello from the user command");
    const pack = io();
    expect(await main(["run", "--pack", PACK, "/greet"], pack)).toBe(121);
    expect(pack.err()).toContain(`/greet from the pack ${PACK}@1.0.0 needs approval`);
    expect(existsSync(marker("pack-greeted"))).toBe(false);
  });

  it("asks for a pack command and every callee it reaches, and refuses without a terminal", async () => {
    const session = io();
    expect(await main(["run", "/chain"], session)).toBe(121);
    expect(session.err()).toMatch(/\/hello: new \(via chain › hello\)/);
    expect(existsSync(marker("chained"))).toBe(false);
  });

  it("runs after Always allow and stores global approvals bound to the pack version", async () => {
    const first = io("a\n");
    expect(await main(["run", "/chain"], first)).toBe(0);
    expect(first.err()).toMatch(/approval needed[\s\S]*shared command from the pack @runtest\/tools@1\.0\.0/);
    expect(existsSync(marker("chained")) && existsSync(marker("hello-1"))).toBe(true);
    const stored = JSON.parse(readFileSync(path.join(tmp.dir, "state", "approvals.json"), "utf8")) as {
      records: Record<string, { identity: string; workspaceKey?: string }>;
    };
    const packRecords = Object.entries(stored.records).filter(([key]) => key.includes(PACK));
    expect(packRecords).toHaveLength(2);
    for (const [key, record] of packRecords) {
      expect(key).toContain(`"pack","${PACK}","1.0.0","sha512-`);
      expect(record.workspaceKey).toBeUndefined();
    }
  });

  it("runs an approved pack command in another trusted workspace without asking", async () => {
    rmSync(marker("chained"));
    const session = io(undefined, other);
    expect(await main(["trust"], session)).toBe(0);
    expect(await main(["run", "/chain"], io(undefined, other))).toBe(0);
    expect(existsSync(marker("chained"))).toBe(true);
  });

  it("keeps pack approvals when the approvals of one workspace are reset", async () => {
    await ok(["approvals", "reset", "--workspace"]);
    expect(await main(["run", "/chain"], io())).toBe(0);
  });

  it("asks again after an update that changes a step", async () => {
    writeManifest("1.1.0", "hello-2");
    await ok(["pack", "publish", packDir, "--yes"]);
    await ok(["pack", "update", "--yes"]);
    expect((await ok(["list"])).out()).toContain(`(pack ${PACK}@1.1.0)`);
    const session = io();
    expect(await main(["run", "/chain"], session)).toBe(121);
    // An update is shown as a change of what was approved, not as a new command.
    expect(session.err()).toMatch(/\/chain: changed/);
    expect(session.err()).toMatch(/\/hello: changed \(via chain › hello\)/);
    expect(session.err()).not.toMatch(/: new/);
    expect(existsSync(marker("hello-2"))).toBe(false);
  });
});
