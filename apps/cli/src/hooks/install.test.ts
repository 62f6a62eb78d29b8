import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { scratchDir } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";

/** Parsed settings, loosely typed for assertions. */
type Settings = { [key: string]: Settings } & Record<string, unknown> & { hooks: Record<string, unknown[]> };
import { formatError } from "../errors.js";
import { installHook, mergeHook, removeHook, settingsFile } from "./install.js";

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return formatError(error);
  }
  return "no error";
}

describe("mergeHook", () => {
  it("adds a Claude Code PreToolUse hook for Bash and keeps every other setting", () => {
    const before = '{\n  // my settings\n  "model": "opus",\n  "hooks": { "PostToolUse": [] }\n}\n';
    const { text, changed } = mergeHook("claude", before, "slashi hook claude", "settings.json");
    expect(changed).toBe(true);
    expect(text).toContain("// my settings");
    const value = JSON.parse(text.replace(/\/\/.*$/gm, "")) as Settings;
    expect(value.model).toBe("opus");
    expect(value.hooks.PostToolUse).toEqual([]);
    expect(value.hooks.PreToolUse).toEqual([
      { matcher: "Bash", hooks: [{ type: "command", command: "slashi hook claude", timeout: 30 }] },
    ]);
  });

  it("changes nothing the second time", () => {
    const once = mergeHook("gemini", "", "slashi hook gemini", "settings.json");
    const twice = mergeHook("gemini", once.text, "slashi hook gemini", "settings.json");
    expect(twice.changed).toBe(false);
    expect(twice.text).toBe(once.text);
    const value = JSON.parse(once.text) as Settings;
    expect(value.hooks.BeforeTool).toMatchObject([
      { matcher: "run_shell_command", hooks: [{ type: "command", command: "slashi hook gemini" }] },
    ]);
  });

  it("appends to an existing hook list", () => {
    const before = JSON.stringify(
      { version: 1, hooks: { beforeShellExecution: [{ command: "./audit.sh" }] } },
      null,
      2,
    );
    const value = JSON.parse(
      mergeHook("cursor", before, "slashi hook cursor", "hooks.json").text,
    ) as Settings;
    expect(value.hooks.beforeShellExecution).toEqual([
      { command: "./audit.sh" },
      { command: "slashi hook cursor", failClosed: true, timeout: 30 },
    ]);
  });

  it("adds version 1 to a new Cursor file", () => {
    expect(JSON.parse(mergeHook("cursor", "", "slashi hook cursor", "hooks.json").text)).toMatchObject({
      version: 1,
    });
  });

  it("reports malformed settings with line and column", () => {
    const message = messageOf(() =>
      mergeHook(
        "claude",
        '{\n  "hooks": {\n    "PreToolUse": [,]\n  }\n}',
        "slashi",
        "/p/.claude/settings.json",
      ),
    );
    expect(message).toMatch(/^slashi: \/p\/\.claude\/settings\.json:3:\d+: invalid JSON/);
  });

  it("refuses a hook list of the wrong type, naming its JSON path", () => {
    expect(() => mergeHook("claude", '{"hooks": {"PreToolUse": {}}}', "slashi", "s.json")).toThrow(
      /at \/hooks\/PreToolUse\): expected an array/,
    );
  });
});

describe("settingsFile", () => {
  it("puts project and user settings where each agent reads them", () => {
    expect(settingsFile("claude", "project", "/ws", "/home/u")).toBe("/ws/.claude/settings.json");
    expect(settingsFile("gemini", "user", "/ws", "/home/u")).toBe("/home/u/.gemini/settings.json");
    expect(settingsFile("cursor", "project", "/ws", "/home/u")).toBe("/ws/.cursor/hooks.json");
  });
});

describe("installHook", () => {
  it("keeps a backup of the previous file and writes nothing when the hook is there", async () => {
    const dir = scratchDir("slashi-install-");
    const file = path.join(dir, ".claude", "settings.json");
    const first = await installHook("claude", file, "slashi hook claude");
    expect(first).toMatchObject({ file, changed: true });
    const written = readFileSync(file, "utf8");
    writeFileSync(file, written.replace('"hooks"', '"model": "sonnet",\n  "hooks"'));
    const edited = readFileSync(file, "utf8");
    const second = await installHook("claude", file, "slashi hook claude");
    expect(second.changed).toBe(false);
    expect(readFileSync(file, "utf8")).toBe(edited);
    const other = await installHook("claude", file, "/opt/bin/slashi hook claude");
    expect(other.backup).toBe(`${file}.slashi-backup`);
    expect(readFileSync(`${file}.slashi-backup`, "utf8")).toBe(edited);
  });

  it("writes nothing when the existing file is malformed", async () => {
    const dir = scratchDir("slashi-install-");
    const file = path.join(dir, "settings.json");
    writeFileSync(file, "{ not json");
    const error = await installHook("gemini", file, "slashi hook gemini").catch((e: unknown) => e);
    expect(formatError(error)).toMatch(/settings\.json:1:\d+: invalid JSON/);
    expect(readFileSync(file, "utf8")).toBe("{ not json");
  });
});

describe("replacing and removing", () => {
  it("replaces an older Slashi entry instead of adding a second one", () => {
    const old = mergeHook("claude", "", "slashi hook claude", "s.json").text;
    const next = mergeHook("claude", old, "/usr/bin/node /opt/slashi/bin.js hook claude", "s.json");
    expect(next.changed).toBe(true);
    const value = JSON.parse(next.text) as Settings;
    expect(value.hooks.PreToolUse).toEqual([
      {
        matcher: "Bash",
        hooks: [{ type: "command", command: "/usr/bin/node /opt/slashi/bin.js hook claude", timeout: 30 }],
      },
    ]);
  });

  it("removes the Slashi hook, its emptied group, and nothing else", () => {
    const before = JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", command: "slashi hook claude" }] },
          {
            matcher: "Bash",
            hooks: [
              { type: "command", command: "./lint.sh" },
              { type: "command", command: "/x/slashi hook claude" },
            ],
          },
          { matcher: "Edit", hooks: [{ type: "command", command: "./fmt.sh" }] },
        ],
      },
    });
    const after = removeHook("claude", before, "s.json");
    expect(after.changed).toBe(true);
    expect((JSON.parse(after.text) as Settings).hooks.PreToolUse).toEqual([
      { matcher: "Bash", hooks: [{ type: "command", command: "./lint.sh" }] },
      { matcher: "Edit", hooks: [{ type: "command", command: "./fmt.sh" }] },
    ]);
    expect(removeHook("claude", after.text, "s.json").changed).toBe(false);
  });

  it("removes a Cursor entry", () => {
    const text = mergeHook("cursor", "", "slashi hook cursor", "h.json").text;
    expect(
      (JSON.parse(removeHook("cursor", text, "h.json").text) as Settings).hooks.beforeShellExecution,
    ).toEqual([]);
  });
});

describe("installHook restore", () => {
  it("puts the previous file back, or removes a file it created", async () => {
    const dir = scratchDir("slashi-install-");
    const file = path.join(dir, "settings.json");
    const created = await installHook("gemini", file, "slashi hook gemini");
    await created.restore?.();
    expect(existsSync(file)).toBe(false);
    writeFileSync(file, '{ "theme": "dark" }\n');
    const edited = await installHook("gemini", file, "slashi hook gemini");
    expect(readFileSync(file, "utf8")).toContain("slashi hook gemini");
    await edited.restore?.();
    expect(readFileSync(file, "utf8")).toBe('{ "theme": "dark" }\n');
  });
});
