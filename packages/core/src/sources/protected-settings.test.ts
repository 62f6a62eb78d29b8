import { describe, expect, it } from "vitest";
import { isProtectedSettingKey, protectedSettingWrites } from "./protected-settings.js";

describe("isProtectedSettingKey", () => {
  it("protects security, trust, automatic tasks, chat tools and terminal shell settings", () => {
    for (const key of [
      "slashi.policy",
      "slashi",
      "security.workspace.trust.enabled",
      "task.allowAutomaticTasks",
      "chat.tools.autoApprove",
      "chat.tools.terminal.autoApprove",
      "github.copilot.chat.agent.autoApprove",
      "terminal.integrated.profiles.linux",
      "terminal.integrated.defaultProfile.windows",
      "terminal.integrated.env.osx",
      "terminal.integrated.shell.linux",
      "terminal.integrated.shellArgs.linux",
      "terminal.integrated.automationProfile.linux",
      "terminal.external.linuxExec",
      "workbench.trustedDomains",
      "http.proxy",
      "mcp.servers",
      "tasks",
      "launch",
      "extensions.autoUpdate",
    ]) {
      expect(isProtectedSettingKey(key), key).toBe(true);
    }
  });

  it("matches case-insensitively", () => {
    expect(isProtectedSettingKey("Terminal.Integrated.ENV.linux")).toBe(true);
    expect(isProtectedSettingKey("SLASHI.x")).toBe(true);
    expect(isProtectedSettingKey("foo.AutoApprove")).toBe(true);
  });

  it("protects parents of protected keys and keys naming programs or paths", () => {
    for (const key of [
      "terminal",
      "terminal.integrated",
      "workbench",
      "git.path",
      "python.defaultInterpreterPath",
    ]) {
      expect(isProtectedSettingKey(key), key).toBe(true);
    }
  });

  it("allows ordinary editor settings", () => {
    for (const key of [
      "editor.fontSize",
      "editor.tabSize",
      "files.exclude",
      "terminal.integrated.fontSize",
      "[python]",
    ]) {
      expect(isProtectedSettingKey(key), key).toBe(false);
    }
  });

  it("matches whole segments only", () => {
    expect(isProtectedSettingKey("slashing.speed")).toBe(false);
    expect(isProtectedSettingKey("launcher.theme")).toBe(false);
  });

  it("protects empty and malformed keys", () => {
    expect(isProtectedSettingKey("")).toBe(true);
    expect(isProtectedSettingKey("editor..fontSize")).toBe(true);
    expect(isProtectedSettingKey(3 as unknown as string)).toBe(true);
  });
});

describe("protectedSettingWrites", () => {
  it("finds a protected key nested in an object value", () => {
    const writes = protectedSettingWrites("terminal", { integrated: { env: { linux: { PATH: "/evil" } } } });
    expect(writes.map((w) => [w.path, w.jsonPath])).toContainEqual([
      "terminal.integrated.env",
      "/value/integrated/env",
    ]);
  });

  it("finds a protected key written with dots inside an object key", () => {
    const writes = protectedSettingWrites("editor", { "chat.tools.autoApprove": true });
    expect(writes.map((w) => w.path)).toEqual(["editor.chat.tools.autoApprove"]);
  });

  it("finds protected keys inside a language override", () => {
    const writes = protectedSettingWrites("[python]", { "python.defaultInterpreterPath": "./evil" });
    expect(writes.map((w) => w.jsonPath)).toEqual(["/value/python.defaultInterpreterPath"]);
  });

  it("allows a language override with ordinary settings", () => {
    expect(protectedSettingWrites("[python]", { "editor.tabSize": 4 })).toEqual([]);
    expect(protectedSettingWrites("editor.fontSize", 14)).toEqual([]);
  });

  it("escapes JSON pointer characters in nested keys", () => {
    expect(protectedSettingWrites("x", { "a/b~c": { autoApprove: 1 } }).map((w) => w.jsonPath)).toEqual([
      "/value/a~1b~0c/autoApprove",
    ]);
  });
});
