/**
 * Adding the Slashi hook to an agent's settings file, and taking it out again: where the file is, the command
 * line that cannot fail open, the entry to add, and idempotent edits that keep everything else (comments and
 * formatting included). The edits are pure; {@link installHook} and {@link uninstallHook} do the file work:
 * backup, atomic write, nothing written when the existing file is malformed.
 */
import { copyFile, rm } from "node:fs/promises";
import path from "node:path";
import { isSlashiError, parseJsonc } from "@slashi/core";
import { writeFileAtomic } from "@slashi/runtime";
import { applyEdits, modify } from "jsonc-parser";
import { CliError, ExitCode } from "../errors.js";
import { readTextIfPresent } from "../files.js";
import type { Agent } from "./formats.js";
import { CURSOR_FAILED_ANSWER } from "./watchdog.js";

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

/** Characters that cannot stand inside the guard's quoting in every shell an agent may use (sh, bash, zsh, fish). */
const UNQUOTABLE = /["'$`\\\n\r\0]/;

/** What Cursor gets on stdout when the guard blocks (it blocks on exit 2 with `failClosed` as well). */
const CURSOR_BLOCK = JSON.stringify(CURSOR_FAILED_ANSWER).replaceAll('"', '\\"');

/**
 * The command line written into the agent's settings: `/bin/sh -c '…'` around the program (absolute paths of
 * Node and Slashi's entry point, or a given program), so that every failure ends in the agent's blocking
 * status: a missing Node or entry point, a crash, a signal or any answer that is not a JSON object gives
 * exit 2 with the reason on stderr (Claude Code and Gemini CLI block on exit 2; Cursor also gets a deny answer
 * on stdout). A JSON answer with exit 0 is passed on unchanged. The quoting holds in sh, bash, zsh and fish.
 * @param runner - the program and its leading arguments (`[process.execPath, "/…/dist/bin.js"]`)
 * @throws CliError when a word contains a quote, `$`, a backquote, a backslash or a line break
 */
export function guardedCommand(agent: Agent, runner: readonly string[]): string {
  for (const word of runner) {
    if (word === "" || UNQUOTABLE.test(word)) {
      throw new CliError(
        `cannot write a hook command that runs ${JSON.stringify(word)}: the path contains a quote, $, a backquote, a backslash or a line break`,
        ExitCode.INVALID_INPUT,
        "install Slashi (or Node) under a plain path, or give one with --command",
      );
    }
  }
  const run = [...runner.map((word) => `"${word}"`), "hook", agent].join(" ");
  const cursor = agent === "cursor" ? ` printf "%s\\n" "${CURSOR_BLOCK}";` : "";
  const script =
    `out=$(${run}); s=$?; case "$s:$out" in "0:{"*"}") printf "%s\\n" "$out"; exit 0;; esac;` +
    ` echo "slashi hook ${agent} failed (exit status $s, or an answer that is not JSON), so the command is blocked; run: slashi doctor" >&2;` +
    `${cursor} exit 2`;
  return `/bin/sh -c '${script}'`;
}

/** Whether a settings entry's command runs Slashi's hook for an agent (any form Slashi ever wrote). */
export function isSlashiHookCommand(command: string, agent: Agent): boolean {
  return new RegExp(`\\bhook ${agent}\\b`).test(command) && /slashi|bin\.js/i.test(command);
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
        entry: { matcher: "Bash", hooks: [{ type: "command", command, timeout: 30 }] },
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
              command,
              timeout: 30000,
              description: "Slashi policy: allow, ask or deny shell commands",
            },
          ],
        },
      };
    case "cursor":
      return {
        listPath: ["hooks", "beforeShellExecution"],
        entry: { command, failClosed: true, timeout: 30 },
      };
  }
}

/** Where a Slashi hook command sits in the hook list: `[i, "command"]` or `[i, "hooks", j, "command"]`. */
interface Found {
  at: (string | number)[];
  command: string;
}

function findHooks(list: readonly unknown[], agent: Agent): Found[] {
  const found: Found[] = [];
  const commandOf = (v: unknown): string | undefined => {
    const c = typeof v === "object" && v !== null ? (v as { command?: unknown }).command : undefined;
    return typeof c === "string" ? c : undefined;
  };
  for (const [i, entry] of list.entries()) {
    const own = commandOf(entry);
    if (own !== undefined && isSlashiHookCommand(own, agent))
      found.push({ at: [i, "command"], command: own });
    const nested =
      typeof entry === "object" && entry !== null ? (entry as { hooks?: unknown }).hooks : undefined;
    if (!Array.isArray(nested)) continue;
    for (const [j, hook] of nested.entries()) {
      const command = commandOf(hook);
      if (command !== undefined && isSlashiHookCommand(command, agent))
        found.push({ at: [i, "hooks", j, "command"], command });
    }
  }
  return found;
}

/** The settings object and the hook list in it (empty when absent), checked for the right types. */
function readSettings(
  agent: Agent,
  text: string,
  file: string,
): { source: string; value: Record<string, unknown>; list: unknown[]; listPath: (string | number)[] } {
  const source = text.trim() === "" ? "{}" : text;
  const value = parseJsonc(source, file).value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new CliError(`${file} (at /): the settings must be a JSON object`, ExitCode.INVALID_INPUT);
  }
  const { listPath } = hookEntry(agent, "");
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
  return { source, value: value as Record<string, unknown>, list: (current as unknown[]) ?? [], listPath };
}

const FORMAT = { insertSpaces: true, tabSize: 2, eol: "\n" };

/** The outcome of an edit. */
export interface MergeResult {
  /** The new text (equal to the input when nothing changed). */
  text: string;
  /** Whether the file had to change. */
  changed: boolean;
}

/**
 * Merges the hook into settings text. Keeps every other key, comment and formatting; adds `version: 1` to a new
 * Cursor file. A Slashi hook entry already there (an older form, another path) gets the new command instead of
 * a second entry. Running it on its own output changes nothing.
 * @param text - the current file text (`""` for a missing file)
 * @param command - the whole command line the agent should run ({@link guardedCommand})
 * @param file - the path, for error locations
 * @throws SlashiError `INVALID_JSON` with line and column when the text does not parse; CliError when a key on
 * the way to the hook list has the wrong type (with its JSON path)
 */
export function mergeHook(agent: Agent, text: string, command: string, file: string): MergeResult {
  const { source, value, list, listPath } = readSettings(agent, text, file);
  const found = findHooks(list, agent);
  if (found.length > 0 && found.every((f) => f.command.trim() === command)) return { text, changed: false };
  let out = source;
  if (found.length > 0) {
    for (const f of found) {
      if (f.command.trim() !== command)
        out = applyEdits(out, modify(out, [...listPath, ...f.at], command, { formattingOptions: FORMAT }));
    }
  } else {
    if (agent === "cursor" && value.version === undefined) {
      out = applyEdits(out, modify(out, ["version"], 1, { formattingOptions: FORMAT }));
    }
    const { entry } = hookEntry(agent, command);
    out = applyEdits(
      out,
      modify(out, [...listPath, list.length], entry, { formattingOptions: FORMAT, isArrayInsertion: true }),
    );
  }
  if (!out.endsWith("\n")) out += "\n";
  return { text: out, changed: true };
}

/**
 * Removes every Slashi hook of an agent from settings text; a matcher group left without hooks goes too.
 * Everything else is kept as it was.
 */
export function removeHook(agent: Agent, text: string, file: string): MergeResult {
  const { source, list, listPath } = readSettings(agent, text, file);
  const found = findHooks(list, agent);
  if (found.length === 0) return { text, changed: false };
  // The list is written anew (jsonc-parser's element removal breaks compact JSON); the rest of the file is kept.
  const kept = list.flatMap((entry): unknown[] => {
    if (findHooks([entry], agent).some((f) => f.at.length === 2)) return [];
    const nested = (entry as { hooks?: unknown }).hooks;
    if (!Array.isArray(nested)) return [entry];
    const hooks = nested.filter((hook) => findHooks([hook], agent).length === 0);
    if (hooks.length === nested.length) return [entry];
    return hooks.length === 0 ? [] : [{ ...(entry as object), hooks }];
  });
  let out = applyEdits(source, modify(source, listPath, kept, { formattingOptions: FORMAT }));
  if (!out.endsWith("\n")) out += "\n";
  return { text: out, changed: true };
}

/** The Slashi hook commands a settings text holds for an agent (empty when none; throws like {@link mergeHook}). */
export function installedCommands(agent: Agent, text: string, file: string): string[] {
  return findHooks(readSettings(agent, text, file).list, agent).map((f) => f.command);
}

/** What {@link installHook} did. */
export interface InstallResult {
  /** The settings file. */
  file: string;
  /** Whether it changed. */
  changed: boolean;
  /** The backup of the previous file, when there was one and it changed. */
  backup?: string;
  /** Puts the previous state back: the backup, or no file when there was none. */
  restore?: () => Promise<void>;
}

async function readSettingsText(file: string): Promise<string | undefined> {
  try {
    return await readTextIfPresent(file);
  } catch (error) {
    if (isSlashiError(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(`cannot read ${file} (${code ?? "error"})`, ExitCode.STORE);
  }
}

async function writeWithBackup(file: string, text: string, existed: boolean): Promise<InstallResult> {
  let backup: string | undefined;
  if (existed) {
    backup = `${file}.slashi-backup`;
    await copyFile(file, backup);
  }
  await writeFileAtomic(file, text);
  const restore = async (): Promise<void> => {
    if (backup !== undefined) await copyFile(backup, file);
    else await rm(file, { force: true });
  };
  return { file, changed: true, restore, ...(backup ? { backup } : {}) };
}

/**
 * Installs the hook into a settings file: reads it (a missing file is empty), merges, and when something
 * changed copies the old file to `<file>.slashi-backup` and writes the new text atomically.
 * @param command - the whole command line ({@link guardedCommand})
 */
export async function installHook(agent: Agent, file: string, command: string): Promise<InstallResult> {
  const text = await readSettingsText(file);
  const merged = mergeHook(agent, text ?? "", command, file);
  if (!merged.changed) return { file, changed: false };
  return writeWithBackup(file, merged.text, text !== undefined);
}

/** Removes the hook from a settings file (backup and atomic write as for {@link installHook}). */
export async function uninstallHook(agent: Agent, file: string): Promise<InstallResult> {
  const text = await readSettingsText(file);
  if (text === undefined) return { file, changed: false };
  const removed = removeHook(agent, text, file);
  if (!removed.changed) return { file, changed: false };
  return writeWithBackup(file, removed.text, true);
}
