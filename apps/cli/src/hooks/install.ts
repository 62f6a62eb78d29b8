/**
 * Adding the Slashi hook to an agent's settings file: where the file is, what entry to add, and an idempotent
 * merge that keeps everything else (comments and formatting included). The merge is pure; {@link installHook}
 * does the file work: backup, atomic write, nothing written when the existing file is malformed.
 */
import { copyFile, readFile } from "node:fs/promises";
import path from "node:path";
import { parseJsonc } from "@slashi/core";
import { writeFileAtomic } from "@slashi/runtime";
import { applyEdits, modify } from "jsonc-parser";
import { CliError, ExitCode } from "../errors.js";
import type { Agent } from "./formats.js";

/** Where the settings live. */
export type InstallScope = "project" | "user";

/** The settings file of an agent for a scope. */
export function settingsFile(agent: Agent, scope: InstallScope, projectRoot: string, home: string): string {
  const base = scope === "project" ? projectRoot : home;
  switch (agent) {
    case "claude":
      return path.join(base, ".claude", "settings.json");
    case "gemini":
      return path.join(base, ".gemini", "settings.json");
    case "cursor":
      return path.join(base, ".cursor", "hooks.json");
  }
}

/** The JSON path of the list the hook goes into, and the entry to add. */
export function hookEntry(
  agent: Agent,
  command: string,
): { listPath: (string | number)[]; entry: Record<string, unknown> } {
  switch (agent) {
    case "claude":
      return {
        listPath: ["hooks", "PreToolUse"],
        entry: {
          matcher: "Bash",
          hooks: [{ type: "command", command: `${command} hook claude`, timeout: 30 }],
        },
      };
    case "gemini":
      return {
        listPath: ["hooks", "BeforeTool"],
        entry: {
          matcher: "run_shell_command",
          hooks: [
            {
              name: "slashi",
              type: "command",
              command: `${command} hook gemini`,
              timeout: 30000,
              description: "Slashi policy: allow, ask or deny shell commands",
            },
          ],
        },
      };
    case "cursor":
      return {
        listPath: ["hooks", "beforeShellExecution"],
        entry: { command: `${command} hook cursor`, failClosed: true, timeout: 30 },
      };
  }
}

/** True when a list entry already runs `<command> hook <agent>` (directly or in a nested `hooks` list). */
function entryRunsHook(entry: unknown, hookCommand: string): boolean {
  if (typeof entry !== "object" || entry === null) return false;
  const e = entry as { command?: unknown; hooks?: unknown };
  if (typeof e.command === "string" && e.command.trim() === hookCommand) return true;
  return Array.isArray(e.hooks) && e.hooks.some((h) => entryRunsHook(h, hookCommand));
}

/** The outcome of a merge. */
export interface MergeResult {
  /** The new text (equal to the input when nothing changed). */
  text: string;
  /** Whether the hook had to be added. */
  changed: boolean;
}

/**
 * Merges the hook into settings text. Keeps every other key, comment and formatting; adds `version: 1` to a new
 * Cursor file. Running it on its own output changes nothing.
 * @param text - the current file text (`""` for a missing file)
 * @param file - the path, for error locations
 * @throws SlashiError `INVALID_JSON` with line and column when the text does not parse; CliError when a key on
 * the way to the hook list has the wrong type (with its JSON path)
 */
export function mergeHook(agent: Agent, text: string, command: string, file: string): MergeResult {
  const source = text.trim() === "" ? "{}" : text;
  const value = parseJsonc(source, file).value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new CliError(`${file} (at /): the settings must be a JSON object`, ExitCode.INVALID_INPUT);
  }
  const { listPath, entry } = hookEntry(agent, command);
  const hookCommand = `${command} hook ${agent}`;
  let current: unknown = value;
  for (const [i, key] of listPath.entries()) {
    const next = (current as Record<string, unknown>)[key as string];
    if (next === undefined) {
      current = undefined;
      break;
    }
    const wantArray = i === listPath.length - 1;
    if (wantArray ? !Array.isArray(next) : typeof next !== "object" || next === null || Array.isArray(next)) {
      throw new CliError(
        `${file} (at /${listPath.slice(0, i + 1).join("/")}): expected ${wantArray ? "an array" : "an object"}; fix it by hand, nothing was written`,
        ExitCode.INVALID_INPUT,
      );
    }
    current = next;
  }
  const list = (current as unknown[] | undefined) ?? [];
  if (list.some((e) => entryRunsHook(e, hookCommand))) return { text, changed: false };
  const format = { insertSpaces: true, tabSize: 2, eol: "\n" };
  let out = source;
  if (agent === "cursor" && (value as Record<string, unknown>).version === undefined) {
    out = applyEdits(out, modify(out, ["version"], 1, { formattingOptions: format }));
  }
  out = applyEdits(
    out,
    modify(out, [...listPath, list.length], entry, { formattingOptions: format, isArrayInsertion: true }),
  );
  if (!out.endsWith("\n")) out += "\n";
  return { text: out, changed: true };
}

/** What {@link installHook} did. */
export interface InstallResult {
  /** The settings file. */
  file: string;
  /** Whether it changed. */
  changed: boolean;
  /** The backup of the previous file, when there was one and it changed. */
  backup?: string;
}

/**
 * Installs the hook into a settings file: reads it (a missing file is empty), merges, and when something
 * changed copies the old file to `<file>.slashi-backup` and writes the new text atomically.
 */
export async function installHook(agent: Agent, file: string, command: string): Promise<InstallResult> {
  let text = "";
  let existed = true;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      throw new CliError(
        `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
        ExitCode.STORE,
      );
    }
    existed = false;
  }
  const merged = mergeHook(agent, text, command, file);
  if (!merged.changed) return { file, changed: false };
  let backup: string | undefined;
  if (existed) {
    backup = `${file}.slashi-backup`;
    await copyFile(file, backup);
  }
  await writeFileAtomic(file, merged.text);
  return { file, changed: true, ...(backup ? { backup } : {}) };
}
