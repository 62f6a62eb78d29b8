import { existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isSlashiError, SlashiErrorCode } from "@slashi/core";
import { scratchDir } from "@slashi/test-utils";
import { describe, expect, it, onTestFinished } from "vitest";
import { resolveCordon } from "../cordon/policy.js";
import { checkEnkaiduCordonKeys, within } from "./enkaidu-cordon.js";

const box = scratchDir("slashi-enkaidu-cordon-");
const home = path.join(box, "home");
const workspace = path.join(box, "work");
const file = path.join(home, "enkaidu.yml");
for (const dir of [
  path.join(home, ".ssh"),
  path.join(workspace, ".git", "hooks"),
  path.join(workspace, "out"),
])
  mkdirSync(dir, { recursive: true });
writeFileSync(path.join(home, ".ssh", "id_ed25519"), "key\n");
symlinkSync(path.join(home, ".ssh"), path.join(workspace, "keys"));
const context = { home, workspaceRoot: workspace, slashiDirs: [path.join(box, "config")] };

async function refusal(config: unknown, ctx: Parameters<typeof checkEnkaiduCordonKeys>[2] = context) {
  try {
    await checkEnkaiduCordonKeys(config, file, ctx);
  } catch (error) {
    if (isSlashiError(error))
      return {
        code: error.code,
        jsonPath: error.data.jsonPath,
        hidden: error.data.hidden,
        message: error.message,
      };
    throw error;
  }
  return undefined;
}

const paths = (key: string, list: string[]) => ({ cordon: { policy: { [key]: list } } });

describe("checkEnkaiduCordonKeys", () => {
  it("honours what Slashi's cordon does: the workspace written, everything but hidden places read", async () => {
    expect(await refusal({ session: { readonly: false } })).toBeUndefined();
    expect(await refusal(paths("read_write_paths", [".", "out", workspace, "out/new"]))).toBeUndefined();
    // The workspace is mounted over the private /tmp that holds it here, so what lies inside stays readable.
    expect(await refusal(paths("read_only_paths", ["/usr", "/etc/hosts", "out", workspace]))).toBeUndefined();
    expect(await refusal({ cordon: { policy: { allow_network: true } } })).toBeUndefined();
    expect(await refusal(undefined)).toBeUndefined();
  });

  it("refuses session.readonly: true at its place", async () => {
    expect(await refusal({ session: { readonly: true } })).toMatchObject({
      code: SlashiErrorCode.INVALID_POLICY,
      jsonPath: "/session/readonly",
      message: expect.stringContaining("session.readonly"),
    });
  });

  it.each([
    ["outside the workspace", "/var/tmp", "/cordon/policy/read_write_paths/1"],
    ["in the home directory", "~/notes", "/cordon/policy/read_write_paths/1"],
    ["in a read-only entry", ".git/hooks", "/cordon/policy/read_write_paths/1"],
    ["through a link that leads out", "keys", "/cordon/policy/read_write_paths/1"],
  ])("refuses a read_write_paths entry %s, naming the entry", async (_, entry, jsonPath) => {
    const found = await refusal(paths("read_write_paths", ["out", entry]));
    expect(found).toMatchObject({ code: SlashiErrorCode.INVALID_POLICY, jsonPath });
    expect(found?.message).toContain(`read_write_paths entry "${entry}"`);
  });

  it("refuses every read_write_paths entry where there is no workspace", async () => {
    expect(await refusal(paths("read_write_paths", ["out"]), { home })).toMatchObject({
      jsonPath: "/cordon/policy/read_write_paths/0",
    });
  });

  it.each([
    ["~/.ssh", path.join(home, ".ssh")],
    ["~/.ssh/id_ed25519", path.join(home, ".ssh")],
    ["keys", path.join(home, ".ssh")],
    [path.join(box, "config", "policy.json"), path.join(box, "config")],
    // A secret place that does not exist yet is hidden once it does.
    ["~/.aws/credentials", path.join(home, ".aws")],
    ["/tmp/shared", "/tmp"],
    ["/run/user", "/run"],
  ])("refuses the read_only_paths entry %s, which the cordon hides (%s)", async (entry, place) => {
    const found = await refusal(paths("read_only_paths", ["/usr", entry]));
    expect(found).toMatchObject({ jsonPath: "/cordon/policy/read_only_paths/1", hidden: place });
    expect(found?.message).toContain(`read_only_paths entry "${entry}"`);
  });

  it.each([
    [{ session: { readonly: "yes" } }, "/session/readonly"],
    [{ cordon: { policy: { read_only_paths: 3 } } }, "/cordon/policy/read_only_paths"],
    [{ cordon: { policy: { read_write_paths: ["out", 4] } } }, "/cordon/policy/read_write_paths/1"],
  ])("refuses a value of the wrong type at its place", async (config, jsonPath) => {
    expect(await refusal(config)).toMatchObject({ code: SlashiErrorCode.INVALID_POLICY, jsonPath });
  });
});

describe("checkEnkaiduCordonKeys and the cordon", () => {
  it("refuses a read_only_paths entry at every place the resolved cordon hides or empties, and nothing else", async () => {
    const slashiDirs = [path.join(box, "config")];
    mkdirSync(slashiDirs[0] as string, { recursive: true });
    // An agent socket outside /tmp and /run: the cordon hides it by path.
    const outside = scratchDir("slashi-agent-", existsSync("/var/tmp") ? "/var/tmp" : box);
    const socket = path.join(outside, "agent.sock");
    writeFileSync(socket, "");
    const previous = process.env.SSH_AUTH_SOCK;
    process.env.SSH_AUTH_SOCK = socket;
    onTestFinished(() => {
      if (previous === undefined) delete process.env.SSH_AUTH_SOCK;
      else process.env.SSH_AUTH_SOCK = previous;
    });
    const cordon = await resolveCordon({ workspace, home, slashiDirs });
    expect(cordon.hidden.map((h) => h.path)).toContain(realpathSync(socket));
    const places = [...cordon.hidden.map((h) => h.path), ...cordon.privateDirs].filter(
      (place) => !within(cordon.workspace, place),
    );
    expect(places.length).toBeGreaterThan(3);
    for (const place of places) {
      const refused = await refusal(paths("read_only_paths", [place]), {
        home,
        workspaceRoot: workspace,
        slashiDirs,
      });
      expect(refused?.code, place).toBe(SlashiErrorCode.INVALID_POLICY);
    }
    // A place the cordon leaves readable passes.
    expect(await refusal(paths("read_only_paths", ["/usr", "/etc"]))).toBeUndefined();
  });
});
