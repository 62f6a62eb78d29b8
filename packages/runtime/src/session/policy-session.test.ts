import { createHash } from "node:crypto";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { decide, SlashiErrorCode, validatePolicyDocument } from "@slashi/core";
import { unknownExtendsError } from "@slashi/core/internal";
import { tempDir } from "@slashi/test-utils";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { CommandApprovalFileStore } from "../store/command-approvals.js";
import { TrustFileStore } from "../store/trust.js";
import { openPolicySession, packPolicyApprovalKey, type PackLayerLoader } from "./policy-session.js";
import { nodeFileSystemPort } from "../fs/file-system-port.js";
import { workspaceKeyOf, workspacePolicyApprovalKey } from "../config/workspace.js";

const rootTemp = tempDir("slashi-session-");
const root = rootTemp.dir;
afterAll(rootTemp.remove);

let n = 0;
let dirs: { home: string; config: string; state: string; repo: string; env: NodeJS.ProcessEnv };

beforeEach(() => {
  const base = path.join(root, `case-${++n}`);
  const home = path.join(base, "home");
  const config = path.join(base, "config");
  const state = path.join(base, "state");
  const repo = path.join(base, "repo");
  for (const d of [
    home,
    config,
    state,
    path.join(repo, ".git"),
    path.join(repo, ".vscode"),
    path.join(repo, "sub"),
  ])
    mkdirSync(d, { recursive: true });
  dirs = {
    home,
    config,
    state,
    repo,
    env: { HOME: home, SLASHI_CONFIG_DIR: config, SLASHI_STATE_DIR: state },
  };
});

function open(extra: Parameters<typeof openPolicySession>[0] = {}) {
  return openPolicySession({
    cwd: path.join(dirs.repo, "sub"),
    env: dirs.env,
    home: dirs.home,
    managedPolicyPath: path.join(dirs.home, "no-managed.json"),
    ...extra,
  });
}

function writePolicy(file: string, document: unknown): string {
  const text = JSON.stringify(document);
  writeFileSync(file, text);
  return text;
}

const allowMake = {
  version: 1,
  extends: ["recommended"],
  rules: [{ match: ["touch", "marker"], decision: "allow" }],
};

describe("openPolicySession", () => {
  it("finds the workspace above the cwd and decides at the cwd", async () => {
    const session = await open();
    const snapshot = await session.current();
    expect(session.workspace?.root).toBe(dirs.repo);
    const context = snapshot.context();
    expect(context.cwd).toBe(path.join(dirs.repo, "sub"));
    expect(context.workspaceRoot).toBe(dirs.repo);
    expect(context.home).toBe(dirs.home);
    expect(context.protectedPaths).toContain(dirs.config);
    expect(snapshot.context({ cwd: ".." }).cwd).toBe(dirs.repo);
    expect(snapshot.trusted).toBe(false);
  });

  it("counts a workspace policy's allow rules only when trusted and its content approved", async () => {
    const text = writePolicy(path.join(dirs.repo, ".vscode", "slashi-policy.json"), allowMake);
    const session = await open();
    const verdict = async () => {
      const s = await session.current();
      return decide("touch marker", s.policy, s.context()).decision;
    };
    expect(await verdict()).not.toBe("allow");
    const key = workspaceKeyOf(dirs.repo);
    await new TrustFileStore({ file: session.paths.trust }).setTrusted(key, true);
    expect(await verdict()).not.toBe("allow");
    await new CommandApprovalFileStore({ file: session.paths.commandApprovals }).put({
      key: workspacePolicyApprovalKey(key),
      digest: `sha256:${createHash("sha256").update(text).digest("hex")}`,
      approvedAt: new Date().toISOString(),
    });
    expect(await verdict()).toBe("allow");
  });

  it("re-reads the user policy when it changes and keeps the snapshot when nothing did", async () => {
    const file = path.join(dirs.config, "policy.json");
    writePolicy(file, { version: 1, rules: [{ match: ["touch", "marker"], decision: "deny" }] });
    const session = await open();
    const first = await session.current();
    expect(await session.current()).toBe(first);
    expect(decide("touch marker", first.policy, first.context()).decision).toBe("deny");
    writePolicy(file, {
      version: 1,
      rules: [
        { match: ["touch", "marker"], decision: "ask" },
        { match: ["ls"], decision: "ask" },
      ],
    });
    const second = await session.current();
    expect(second).not.toBe(first);
    expect(decide("touch marker", second.policy, second.context()).decision).toBe("ask");
  });

  it("takes trust from the host when it passes it", async () => {
    let trusted = true;
    const session = await open({ trusted: () => trusted });
    expect((await session.current()).trusted).toBe(true);
    trusted = false;
    const snapshot = await session.current();
    expect(snapshot.trusted).toBe(false);
    expect(snapshot.context().workspaceTrusted).toBe(false);
  });

  it("refuses an explicit user policy file that does not exist", async () => {
    const session = await open({ userPolicyFile: path.join(dirs.config, "missing.json") });
    await expect(session.current()).rejects.toMatchObject({ code: SlashiErrorCode.INVALID_POLICY });
  });

  it("loads the packs a policy extends through the loader, approved by the shared key", async () => {
    writePolicy(path.join(dirs.config, "policy.json"), {
      version: 1,
      extends: ["recommended", "@acme/pack"],
    });
    const pack = validatePolicyDocument(
      { version: 1, rules: [{ match: ["touch", "marker"], decision: "allow" }] },
      "@acme/pack",
    );
    const asked: string[] = [];
    const loader: PackLayerLoader = async (names, options) => {
      asked.push(...names, options.packsDir);
      const approved = await options.approved({ name: "@acme/pack", fingerprint: "sha256:abc" });
      return [{ kind: "pack", source: "@acme/pack", document: pack, approved }];
    };
    const session = await open({ packLayers: loader });
    const before = await session.current();
    expect(asked).toEqual(["@acme/pack", path.join(dirs.state, "packs")]);
    expect(decide("touch marker", before.policy, before.context()).decision).not.toBe("allow");
    await new CommandApprovalFileStore({ file: session.paths.commandApprovals }).put({
      key: packPolicyApprovalKey("@acme/pack"),
      digest: "sha256:abc",
      approvedAt: new Date().toISOString(),
    });
    const after = await session.current();
    expect(decide("touch marker", after.policy, after.context()).decision).toBe("allow");
  });

  it("puts an extends entry no loader can resolve at its file, line and JSON path", async () => {
    const file = path.join(dirs.repo, ".vscode", "slashi-policy.json");
    writeFileSync(
      file,
      '{\n  "version": 1,\n  "extends": [\n    "recommended",\n    "@acme/polcy"\n  ]\n}\n',
    );
    const loader: PackLayerLoader = async (names) => {
      throw unknownExtendsError(names[0] as string, ["@acme/policy"]);
    };
    const session = await open({ packLayers: loader });
    await expect(session.current()).rejects.toMatchObject({
      code: SlashiErrorCode.PACK_NOT_FOUND,
      data: { file, line: 5, jsonPath: "/extends/1", suggestion: "@acme/policy" },
    });
  });

  it("fails closed on an extended pack when the host has no pack loader", async () => {
    writePolicy(path.join(dirs.config, "policy.json"), { version: 1, extends: ["@acme/pack"] });
    const session = await open();
    await expect(session.current()).rejects.toMatchObject({ code: SlashiErrorCode.PACK_NOT_FOUND });
  });

  it("decides without a workspace for a host that has none", async () => {
    writePolicy(path.join(dirs.repo, ".vscode", "slashi-policy.json"), {
      version: 1,
      rules: [{ match: ["ls"], decision: "deny" }],
    });
    const session = await open({ workspaceRoot: null, trusted: () => true });
    const snapshot = await session.current();
    expect(session.workspace).toBeUndefined();
    expect(snapshot.context().workspaceRoot).toBeUndefined();
    expect(snapshot.layers.map((l) => l.kind)).toEqual([]);
  });
});

describe("the session's file system", () => {
  /** A workspace file that links to the user's SSH key, made after the session opened. */
  function linkToKey(name: string): void {
    mkdirSync(path.join(dirs.home, ".ssh"), { recursive: true });
    writeFileSync(path.join(dirs.home, ".ssh", "id_ed25519"), "canary\n");
    symlinkSync(path.join(dirs.home, ".ssh", "id_ed25519"), path.join(dirs.repo, "sub", name));
  }

  it("resolves a link made after an earlier decision, with no reload in between", async () => {
    const session = await open();
    const snapshot = await session.current();
    const line = "cat notes.txt";
    expect(decide(line, snapshot.policy, snapshot.context()).decision).toBe("allow");
    linkToKey("notes.txt");
    expect(await session.current()).toBe(snapshot);
    const after = decide(line, snapshot.policy, snapshot.context());
    expect(after.decision).toBe("ask");
    expect(after.reasons.map((r) => r.code)).toContain("secret.read");
  });

  it("decides on the words alone when the host passes no file system", async () => {
    linkToKey("notes.txt");
    const snapshot = await (await open({ fileSystem: null })).current();
    expect(snapshot.context().fs).toBeUndefined();
    expect(decide("cat notes.txt", snapshot.policy, snapshot.context()).decision).toBe("allow");
  });

  it("asks for every recursive removal where the port has no mount table", async () => {
    const fileSystem = { ...nodeFileSystemPort(), mountPoints: () => undefined };
    const snapshot = await (await open({ fileSystem })).current();
    const decision = decide("rm -rf build", snapshot.policy, snapshot.context());
    expect(decision.decision).toBe("ask");
    expect(decision.reasons.map((r) => r.code)).toContain("rm.mount-unknown");
  });
});
