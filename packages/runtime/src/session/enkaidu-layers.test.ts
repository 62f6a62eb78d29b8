import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { decide, isSlashiError, SlashiErrorCode } from "@slashi/core";
import { unknownExtendsError } from "@slashi/core/internal";
import { tempDir } from "@slashi/test-utils";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { CommandApprovalFileStore } from "../store/command-approvals.js";
import { TrustFileStore } from "../store/trust.js";
import { workspaceKeyOf, workspacePolicyApprovalKey } from "../config/workspace.js";
import { ENKAIDU_ENVIRONMENT_SOURCE, enkaiduExtendsPath } from "./enkaidu-layers.js";
import { openPolicySession, type PackLayerLoader } from "./policy-session.js";

const rootTemp = tempDir("slashi-enkaidu-layers-");
const root = rootTemp.dir;
afterAll(rootTemp.remove);

const EXAMPLE = `tool_settings:
  shell_command:
    allowed_commands: ["ops", "ruby"]
    approved_commands: ["ls"]
    restricted_terms: ["deploy"]
`;

let n = 0;
let dirs: { home: string; config: string; state: string; repo: string; env: NodeJS.ProcessEnv };

beforeEach(() => {
  const base = path.join(root, `case-${++n}`);
  dirs = {
    home: path.join(base, "home"),
    config: path.join(base, "config"),
    state: path.join(base, "state"),
    repo: path.join(base, "repo"),
    env: {},
  };
  for (const d of [
    dirs.home,
    dirs.config,
    dirs.state,
    path.join(dirs.repo, ".git"),
    path.join(dirs.repo, ".vscode"),
  ])
    mkdirSync(d, { recursive: true });
  dirs.env = { HOME: dirs.home, SLASHI_CONFIG_DIR: dirs.config, SLASHI_STATE_DIR: dirs.state };
});

function open(extra: Parameters<typeof openPolicySession>[0] = {}) {
  return openPolicySession({
    cwd: dirs.repo,
    env: dirs.env,
    home: dirs.home,
    managedPolicyPath: path.join(dirs.home, "no-managed.json"),
    ...extra,
  });
}

async function verdict(session: Awaited<ReturnType<typeof open>>, line: string): Promise<string> {
  const snapshot = await session.current();
  return decide(line, snapshot.policy, snapshot.context()).decision;
}

function userPolicy(document: unknown): void {
  writeFileSync(path.join(dirs.config, "policy.json"), JSON.stringify(document));
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("Enkaidu configs in the policy session", () => {
  it("resolves an extends entry relative to the naming file, or under home with ~/", () => {
    expect(enkaiduExtendsPath("enkaidu.yml", "/c/policy.json", "/h")).toBe("/c/enkaidu.yml");
    expect(enkaiduExtendsPath("../e/x.yaml", "/c/policy.json", "/h")).toBe("/e/x.yaml");
    expect(enkaiduExtendsPath("~/enkaidu.yml", "/c/policy.json", "/h")).toBe("/h/enkaidu.yml");
    expect(enkaiduExtendsPath("/abs/x.yml", "/c/policy.json", "/h")).toBe("/abs/x.yml");
  });

  it("applies a user policy's extends of an Enkaidu file with Enkaidu's semantics", async () => {
    writeFileSync(path.join(dirs.config, "enkaidu.yml"), EXAMPLE);
    userPolicy({ version: 1, extends: ["./enkaidu.yml"] });
    const session = await open();
    expect(await verdict(session, "ls -la")).toBe("allow");
    expect(await verdict(session, "ruby x.rb")).toBe("ask");
    expect(await verdict(session, "ls deploy-eu")).toBe("ask");
    expect(await verdict(session, "curl https://example.com")).toBe("deny");
    expect(await verdict(session, "ls ../x")).toBe("deny");
  });

  it("re-reads the extended Enkaidu file when it changes", async () => {
    const file = path.join(dirs.config, "enkaidu.yml");
    writeFileSync(file, EXAMPLE);
    userPolicy({ version: 1, extends: ["./enkaidu.yml"] });
    const session = await open();
    expect(await verdict(session, "ruby x.rb")).toBe("ask");
    await session.current();
    writeFileSync(
      file,
      `${EXAMPLE.replace('approved_commands: ["ls"]', 'approved_commands: ["ls", "ruby"]')}\n`,
    );
    expect(await verdict(session, "ruby x.rb")).toBe("allow");
  });

  it("counts a workspace policy's Enkaidu approvals only once that policy is approved", async () => {
    writeFileSync(
      path.join(dirs.repo, ".vscode", "enkaidu.yml"),
      EXAMPLE.replace('["ls"]', '["ls", "ruby"]'),
    );
    const text = JSON.stringify({ version: 1, extends: ["recommended", "./enkaidu.yml"] });
    writeFileSync(path.join(dirs.repo, ".vscode", "slashi-policy.json"), text);
    userPolicy({ version: 1, extends: ["recommended"], rules: [{ match: ["ruby"], decision: "ask" }] });
    const untrusted = await open();
    // The checks restrict (curl is not allowed), the approved ruby does not loosen the user's ask.
    expect(await verdict(untrusted, "curl https://example.com")).toBe("deny");
    expect(await verdict(untrusted, "ls -la")).toBe("allow");
    const key = workspaceKeyOf(dirs.repo);
    await new TrustFileStore({ file: path.join(dirs.state, "trust.json") }).setTrusted(key, true);
    await new CommandApprovalFileStore({ file: path.join(dirs.state, "command-approvals.json") }).put({
      key: workspacePolicyApprovalKey(key),
      digest: `sha256:${createHash("sha256").update(text).digest("hex")}`,
      approvedAt: new Date().toISOString(),
    });
    const snapshot = await (await open()).current();
    const pack = snapshot.layers.find((l) => l.source === "./enkaidu.yml");
    expect(pack).toMatchObject({ kind: "pack", approved: true });
  });

  it("loads a pack whose name ends in .yml as a pack, and reads a path to a .yml file as Enkaidu's", async () => {
    // A file of the same name sits next to the policy: only the path form reads it.
    writeFileSync(path.join(dirs.config, "enkaidu.yml"), EXAMPLE);
    userPolicy({ version: 1, extends: ["recommended", "enkaidu.yml", "@acme/policy.yml", "./enkaidu.yml"] });
    const asked: string[] = [];
    const packLayers: PackLayerLoader = async (names) => {
      asked.push(...names);
      return names.map((name) => ({
        kind: "pack" as const,
        source: name,
        document: { version: 1 as const, rules: [{ match: ["pack-of", name], decision: "deny" as const }] },
      }));
    };
    const snapshot = await (await open({ packLayers })).current();
    expect(asked).toEqual(["enkaidu.yml", "@acme/policy.yml"]);
    const enkaidu = snapshot.layers.filter((l) => l.document.enkaidu !== undefined).map((l) => l.source);
    expect(enkaidu).toEqual(["./enkaidu.yml"]);
    expect(decide("pack-of @acme/policy.yml", snapshot.policy, snapshot.context()).decision).toBe("deny");
  });

  it("suggests the path when a bare name is no pack but an Enkaidu config of that name sits next to the policy", async () => {
    writeFileSync(path.join(dirs.config, "enkaidu.yml"), EXAMPLE);
    const packLayers: PackLayerLoader = async (names) => {
      throw unknownExtendsError(names[0] as string, []);
    };
    userPolicy({ version: 1, extends: ["recommended", "enkaidu.yml", "other.yml"] });
    const error = await caught((await open({ packLayers })).current());
    expect(isSlashiError(error) && error.code).toBe(SlashiErrorCode.PACK_NOT_FOUND);
    expect(isSlashiError(error) && error.data).toMatchObject({
      file: path.join(dirs.config, "policy.json"),
      jsonPath: "/extends/1",
      extends: "enkaidu.yml",
      suggestion: "./enkaidu.yml",
    });
    // no file of that name: no path is suggested
    userPolicy({ version: 1, extends: ["other.yml"] });
    const other = await caught((await open({ packLayers })).current());
    expect(isSlashiError(other) && other.data).toMatchObject({
      jsonPath: "/extends/0",
      extends: "other.yml",
    });
    expect(isSlashiError(other) && other.data.suggestion).toBeUndefined();
  });

  it("locates an unreadable extended file at the naming file's /extends/N, line and column, once", async () => {
    const policy = path.join(dirs.config, "policy.json");
    writeFileSync(
      policy,
      '{\n  "version": 1,\n  "extends": [\n    "recommended",\n    "./missing.yml"\n  ]\n}\n',
    );
    const error = await caught((await open()).current());
    expect(isSlashiError(error) && error.code).toBe(SlashiErrorCode.INVALID_POLICY);
    expect(isSlashiError(error) && error.data).toMatchObject({
      file: policy,
      line: 5,
      column: 5,
      jsonPath: "/extends/1",
    });
    const text = isSlashiError(error) ? error.located : "";
    expect(text.startsWith(`${policy}:5:5 (at /extends/1): extends the Enkaidu config "./missing.yml"`)).toBe(
      true,
    );
    expect(text.split(policy)).toHaveLength(2);
  });

  it("keeps the Enkaidu file's own line and JSON path for a wrong value", async () => {
    writeFileSync(
      path.join(dirs.config, "enkaidu.yml"),
      "tool_settings:\n  shell_command:\n    allowed_commands: 3\n",
    );
    userPolicy({ version: 1, extends: ["./enkaidu.yml"] });
    const error = await caught((await open()).current());
    expect(isSlashiError(error) && error.data).toMatchObject({
      jsonPath: "/extends/0",
      enkaidu: {
        file: path.join(dirs.config, "enkaidu.yml"),
        line: 3,
        jsonPath: "/tool_settings/shell_command/allowed_commands",
      },
    });
  });

  it("checks cordon.policy paths against the session's workspace and home", async () => {
    const file = path.join(dirs.config, "enkaidu.yml");
    userPolicy({ version: 1, extends: ["./enkaidu.yml"] });
    // Relative entries are the workspace's; what lies outside the hidden places is readable.
    writeFileSync(
      file,
      `${EXAMPLE}cordon:\n  policy:\n    read_write_paths: [".", "build"]\n    read_only_paths: ["/usr/share"]\n`,
    );
    expect(await verdict(await open(), "ls -la")).toBe("allow");
    for (const [list, entry] of [
      ["read_write_paths", "~/notes"],
      ["read_only_paths", path.join(dirs.state, "trust.json")],
    ] as const) {
      writeFileSync(file, `${EXAMPLE}cordon:\n  policy:\n    ${list}:\n      - ${entry}\n`);
      const error = await caught((await open()).current());
      expect(isSlashiError(error) && error.data, entry).toMatchObject({
        jsonPath: "/extends/0",
        enkaidu: { file, line: 9, jsonPath: `/cordon/policy/${list}/0` },
      });
    }
  });

  it("stacks a host-named Enkaidu config after the user policy, with the ENKAIDU_* fallbacks", async () => {
    const file = path.join(dirs.home, "enkaidu.yml");
    writeFileSync(file, "tool_settings:\n  shell_command:\n    allowed_commands: [ls]\n");
    dirs.env.ENKAIDU_APPROVED_EXECUTABLES = "whoami file";
    const session = await open({ enkaiduConfig: file });
    expect(await verdict(session, "whoami")).toBe("allow");
    expect(await verdict(session, "ls -la")).toBe("ask");
    expect(await verdict(session, "cat notes.txt")).toBe("deny");
  });

  it("reads a host-named Enkaidu config inside the workspace as restrictions only, with a warning", async () => {
    const file = path.join(dirs.repo, "enkaidu.yml");
    writeFileSync(
      file,
      "tool_settings:\n  shell_command:\n    approved_commands: [curl]\n    skip_confirm_with_cordon: true\n",
    );
    const session = await open({ enkaiduConfig: file });
    const snapshot = await session.current();
    expect(snapshot.warnings.join("\n")).toMatch(/inside the workspace/);
    expect(snapshot.policy.skipConfirmInCordon).toBe(false);
    expect(await verdict(session, "curl https://example.com")).not.toBe("allow");
  });

  describe("the ENKAIDU_* variables without a config file", () => {
    const enkaiduLayers = async (session: Awaited<ReturnType<typeof open>>) =>
      (await session.current()).layers.filter((l) => l.document.enkaidu !== undefined).map((l) => l.source);

    it("apply as Enkaidu applies them in every host, its defaults filling the rest", async () => {
      dirs.env.ENKAIDU_APPROVED_EXECUTABLES = "ls whoami";
      dirs.env.ENKAIDU_RESTRICTED_TERMS = "secret-project";
      const session = await open();
      expect(await enkaiduLayers(session)).toEqual([ENKAIDU_ENVIRONMENT_SOURCE]);
      // Approved: Enkaidu adds no question of its own, and what the policy alone says stands.
      const snapshot = await session.current();
      const codes = (line: string) =>
        decide(line, snapshot.policy, snapshot.context()).reasons.map((r) => r.code);
      expect(codes("ls -la")).not.toContain("enkaidu.not-approved");
      expect(codes("wc -l notes.txt")).toContain("enkaidu.not-approved");
      const alone = await open({ enkaiduEnvironment: false });
      for (const line of ["ls -la", "whoami"])
        expect(await verdict(session, line), line).toBe(await verdict(alone, line));
      // Enkaidu's default allowed list: wc passes the gate and asks, curl does not.
      expect(await verdict(session, "wc -l notes.txt")).toBe("ask");
      expect(await verdict(session, "curl https://example.com")).toBe("deny");
      expect(await verdict(session, "whoami secret-project")).toBe("ask");
    });

    it("only restrict: the approved list allows nothing the policy asks about", async () => {
      // What the policy alone says of each line, before any variable is set.
      const lines = ["./deploy.sh", "make build", "bash -c 'ls'", "curl https://example.com"];
      const before = await Promise.all(lines.map(async (l) => await verdict(await open(), l)));
      expect(before.filter((v) => v === "ask").length).toBeGreaterThan(1);
      dirs.env.ENKAIDU_APPROVED_EXECUTABLES = "./deploy.sh make bash curl";
      const session = await open();
      expect(
        (await session.current()).layers.find((l) => l.source === ENKAIDU_ENVIRONMENT_SOURCE),
      ).toBeDefined();
      const order = ["allow", "ask", "deny"];
      for (const [i, line] of lines.entries()) {
        const now = await verdict(session, line);
        expect(order.indexOf(now), line).toBeGreaterThanOrEqual(order.indexOf(before[i] as string));
      }
    });

    it("do nothing when none is set, or for a what-if that turns them off", async () => {
      expect(await enkaiduLayers(await open())).toEqual([]);
      dirs.env.ENKAIDU_ALLOWED_EXECUTABLES = " ";
      expect(await enkaiduLayers(await open())).toEqual([]);
      dirs.env.ENKAIDU_ALLOWED_EXECUTABLES = "ls";
      const session = await open({ enkaiduEnvironment: false });
      expect(await enkaiduLayers(session)).toEqual([]);
      expect(await verdict(session, "curl https://example.com")).not.toBe("deny");
    });

    it("feed the config file's missing lists instead of a layer of their own when a config is read", async () => {
      const file = path.join(dirs.home, "enkaidu.yml");
      writeFileSync(file, "tool_settings:\n  shell_command:\n    allowed_commands: [ls]\n");
      dirs.env.ENKAIDU_APPROVED_EXECUTABLES = "whoami";
      const named = await open({ enkaiduConfig: file });
      expect(await enkaiduLayers(named)).toEqual([file]);
      writeFileSync(path.join(dirs.config, "enkaidu.yml"), EXAMPLE);
      userPolicy({ version: 1, extends: ["./enkaidu.yml"] });
      expect(await enkaiduLayers(await open())).toEqual(["./enkaidu.yml"]);
    });
  });
});
