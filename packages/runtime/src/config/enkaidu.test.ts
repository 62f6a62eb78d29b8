import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { SlashiErrorCode, isSlashiError, loadShellParser, decide, resolvePolicy } from "@slashi/core";
import { tempDir } from "@slashi/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isEnkaiduConfigPath, readEnkaiduPolicy } from "./enkaidu.js";

const dirTemp = tempDir("slashi-enkaidu-");
const dir = dirTemp.dir;
afterAll(dirTemp.remove);
beforeAll(() => loadShellParser());

const EXAMPLE = `tool_settings:
  shell_command:
    allowed_commands: ["ops", "ruby"]
    approved_commands: ["ls"]
    restricted_terms: ["deploy"]
    network_allowed_commands: ["ops test"]
    execute_through_shell: false
    skip_confirm_with_cordon: false
`;

async function failure(promise: Promise<unknown>): Promise<Record<string, unknown> & { code: string }> {
  try {
    await promise;
  } catch (error) {
    if (isSlashiError(error)) return { code: error.code, message: error.message, ...error.data };
    throw error;
  }
  throw new Error("expected a SlashiError");
}

describe("readEnkaiduPolicy", () => {
  it("reads the user's file unchanged into an Enkaidu layer", async () => {
    const file = join(dir, "enkaidu.yml");
    writeFileSync(file, EXAMPLE);
    const document = await readEnkaiduPolicy(file, { env: () => undefined, platform: "linux" });
    expect(document.enkaidu).toMatchObject({
      allowedCommands: ["ls", "ops", "ruby"],
      approvedCommands: ["ls"],
      executeThroughShell: false,
    });
    const policy = resolvePolicy([{ kind: "user", source: file, document }]);
    expect(decide("ls -la", policy).decision).toBe("allow");
    expect(decide("ops deploy", policy).decision).toBe("ask");
    expect(decide("curl https://example.com", policy).decision).toBe("deny");
  });

  it("reads only the environment when there is no file", async () => {
    const env = (name: string): string | undefined =>
      name === "ENKAIDU_APPROVED_EXECUTABLES" ? "make" : undefined;
    const document = await readEnkaiduPolicy(undefined, { env, platform: "linux" });
    expect(document.enkaidu?.approvedCommands).toEqual(["make"]);
  });

  it("locates a value of the wrong type by line and JSON path", async () => {
    const file = join(dir, "bad-type.yml");
    writeFileSync(file, EXAMPLE.replace('approved_commands: ["ls"]', "approved_commands: [ls, 3]"));
    const error = await failure(readEnkaiduPolicy(file, { env: () => undefined }));
    expect(error).toMatchObject({
      code: SlashiErrorCode.INVALID_POLICY,
      file,
      line: 4,
      jsonPath: "/tool_settings/shell_command/approved_commands/1",
    });
  });

  it("refuses a cordon key Slashi cannot honour at its line, and honours the rest", async () => {
    const file = join(dir, "cordon.yml");
    const workspace = join(dir, "work");
    const cordon = { home: join(dir, "home"), workspaceRoot: workspace };
    const paths = 'cordon:\n  policy:\n    read_write_paths: ["src"]\n    read_only_paths: ["/usr"]\n';
    writeFileSync(file, `${EXAMPLE}${paths}`);
    const document = await readEnkaiduPolicy(file, { env: () => undefined, cordon });
    expect(document.enkaidu?.approvedCommands).toEqual(["ls"]);
    writeFileSync(file, `${EXAMPLE}session:\n  readonly: true\n`);
    expect(await failure(readEnkaiduPolicy(file, { env: () => undefined, cordon }))).toMatchObject({
      code: SlashiErrorCode.INVALID_POLICY,
      file,
      line: 10,
      jsonPath: "/session/readonly",
    });
    // Without a workspace nothing can be written: every read_write_paths entry is refused.
    writeFileSync(file, `${EXAMPLE}${paths}`);
    expect(
      await failure(readEnkaiduPolicy(file, { env: () => undefined, cordon: { home: cordon.home } })),
    ).toMatchObject({ line: 11, jsonPath: "/cordon/policy/read_write_paths/0" });
  });

  it("locates a YAML syntax error", async () => {
    const file = join(dir, "bad-syntax.yml");
    writeFileSync(file, "tool_settings:\n  shell_command: [unclosed\n");
    const error = await failure(readEnkaiduPolicy(file));
    expect(error).toMatchObject({ code: SlashiErrorCode.INVALID_POLICY, file });
    expect(typeof error.line).toBe("number");
  });

  it("refuses a FIFO without waiting for a writer", async () => {
    const fifo = join(dir, "fifo.yml");
    execFileSync("mkfifo", [fifo]);
    const error = await failure(readEnkaiduPolicy(fifo));
    expect(error.code).toBe(SlashiErrorCode.IO_FAILED);
  });

  it.each([
    "/home/ada/enkaidu.yml",
    ".enkaidu/config.YAML",
    "./enkaidu.yml",
    "../shared/enkaidu.yaml",
    "~/enkaidu.yml",
    "config/enkaidu.yml",
    "C:\\Users\\ada\\enkaidu.yml",
    ".\\enkaidu.yml",
  ])("reads the path %s as an Enkaidu config", (entry) => {
    expect(isEnkaiduConfigPath(entry)).toBe(true);
  });

  it.each([
    "enkaidu.yml",
    "@acme/policy.yml",
    "@acme/team.YAML",
    "recommended",
    "@acme/policy",
    "./policy.json",
  ])("does not read %s as an Enkaidu config (a pack or preset name, or no YAML)", (entry) => {
    expect(isEnkaiduConfigPath(entry)).toBe(false);
  });
});
