import { sha256Hex } from "../fingerprint/sha256.js";
import { checkOpenTarget } from "../sources/open-target.js";
import type { CommandDefinition, Step } from "./types.js";
import { makeVisible } from "./visible.js";

/** Default cap, in characters of visible text, for one field of a rendered step. */
export const DEFAULT_RENDER_MAX_LENGTH = 400;

/** Options for {@link renderStep} and {@link renderCommand}. */
export interface RenderOptions {
  /**
   * Longest visible text shown for one field (command line, text, value, args) before it is cut with the
   * marker `⟨… +N more characters, sha256:HEX⟩`, whose digest is of the whole field's UTF-8 bytes as written (the
   * same `sha256:` form as the audit log's digests), so two fields equal up to the cut never look alike.
   * `Infinity` shows everything. Default {@link DEFAULT_RENDER_MAX_LENGTH}.
   */
  maxLength?: number;
}

/**
 * Cuts already-visible text at `max` characters, never inside a `⟨…⟩` token or a surrogate pair, and says how
 * much was left out with a digest of the whole `original` text. The marker uses `⟨`, which {@link makeVisible}
 * always escapes, so text cannot fake it. The one place a rendered field is cut.
 */
function clip(visible: string, max: number, original: string): string {
  if (!(max >= 0) || visible.length <= max) return visible;
  let cut = Math.floor(max);
  const open = visible.lastIndexOf("⟨", cut - 1);
  if (open !== -1 && visible.indexOf("⟩", open) >= cut) cut = open;
  const before = visible.charCodeAt(cut - 1);
  if (cut > 0 && before >= 0xd800 && before <= 0xdbff) cut--;
  const rest = [...visible.slice(cut)].length;
  return `${visible.slice(0, cut)}⟨… +${rest} more characters, sha256:${sha256Hex(original)}⟩`;
}

function show(value: unknown, max: number, edges = false): string {
  const text = typeof value === "string" ? value : json(value);
  return clip(makeVisible(text, { edges }), max, text);
}

function json(value: unknown): string {
  if (value === undefined) return "(none)";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A short quoted label, visible, for metadata such as a terminal name. */
function label(value: unknown, max: number): string {
  const text = JSON.stringify(typeof value === "string" ? value : json(value));
  return clip(makeVisible(text), max, text);
}

/**
 * Renders one step in plain words for a confirmation prompt, UNEXPANDED (variables such as `${file}` are
 * shown as written), with every invisible or deceptive character made visible ({@link makeVisible}) and long
 * fields cut with a visible `⟨… +N more characters, sha256:HEX⟩` marker (never silently, and with a digest of
 * the whole field). One line: newlines in the step
 * show as `⟨U+000A⟩`.
 *
 * Examples: `Terminal: git add -A`, `Set editor.fontSize = 18 (workspace)`,
 * `Open https://example.com/path (host example.com)`,
 * `Run editor command workbench.action.files.save with args ["x"]`, `Run /deploy with args prod`,
 * `Insert text: hello`, `Notify: done`, `Ask for input → ${input:name}`, `Wait 500 ms`.
 * A step of an unknown type renders as `Unknown step: {…}` with its JSON.
 * @param step - the step as written in its source
 * @param options - {@link RenderOptions}
 */
export function renderStep(step: Step, options: RenderOptions = {}): string {
  const max = options.maxLength ?? DEFAULT_RENDER_MAX_LENGTH;
  const s = step as unknown as Record<string, unknown>;
  switch (step.type) {
    case "terminal": {
      const meta: string[] = [];
      if (s.terminal !== undefined) meta.push(`terminal ${label(s.terminal, max)}`);
      if (s.cwd !== undefined) meta.push(`cwd ${label(s.cwd, max)}`);
      return `Terminal${meta.length ? ` (${meta.join(", ")})` : ""}: ${show(s.command, max)}`;
    }
    case "setting": {
      const target = typeof s.target === "string" ? s.target : "workspace";
      return `Set ${show(s.key, max)} = ${show(json(s.value), max)} (${makeVisible(target)})`;
    }
    case "open": {
      const text = typeof s.target === "string" ? s.target : json(s.target);
      const check = checkOpenTarget(text);
      let note: string;
      if (check.kind === "file") note = "file";
      else if (check.host) note = `host ${makeVisible(check.host)}`;
      else if (check.scheme) note = `scheme ${makeVisible(check.scheme)}`;
      else note = "not a valid target";
      return `Open ${show(text, max, true)} (${note})`;
    }
    case "command": {
      const args = "args" in s && s.args !== undefined ? ` with args ${show(json(s.args), max)}` : "";
      return `Run editor command ${show(s.command, max)}${args}`;
    }
    case "slash": {
      const name = typeof s.command === "string" ? s.command.replace(/^\//, "") : json(s.command);
      const args = typeof s.args === "string" && s.args !== "" ? ` with args ${show(s.args, max, true)}` : "";
      return `Run /${show(name, max)}${args}`;
    }
    case "insert":
      return `Insert text: ${show(s.text, max, true)}`;
    case "notify": {
      const level = typeof s.level === "string" && s.level !== "info" ? ` (${makeVisible(s.level)})` : "";
      return `Notify${level}: ${show(s.message, max, true)}`;
    }
    case "input": {
      const prompt = s.prompt !== undefined ? ` ${label(s.prompt, max)}` : "";
      const extra: string[] = [];
      if (s.default !== undefined) extra.push(`default ${label(s.default, max)}`);
      if (s.password === true) extra.push("hidden");
      const tail = extra.length ? ` (${extra.join(", ")})` : "";
      return `Ask for input${prompt} → \${input:${show(s.name, max)}}${tail}`;
    }
    case "wait":
      return `Wait ${typeof s.ms === "number" ? String(s.ms) : show(json(s.ms), max)} ms`;
    default:
      return `Unknown step: ${show(json(step), max)}`;
  }
}

/**
 * Renders a whole command for a confirmation prompt: a title line `/name <args hint> — description`, then one
 * numbered line per step (`  1. Terminal: …`), each made by {@link renderStep}. Lines are joined with `\n`.
 * @param def - the command definition, unexpanded
 * @param options - {@link RenderOptions}
 */
export function renderCommand(def: CommandDefinition, options: RenderOptions = {}): string {
  const max = options.maxLength ?? DEFAULT_RENDER_MAX_LENGTH;
  let title = `/${show(def.name, max)}`;
  if (typeof def.args === "string" && def.args !== "") title += ` ${show(def.args, max, true)}`;
  if (typeof def.description === "string" && def.description !== "")
    title += ` — ${show(def.description, max, true)}`;
  const steps = Array.isArray(def.steps) ? def.steps : [];
  const lines = steps.map((step, i) => `  ${i + 1}. ${renderStep(step, options)}`);
  if (lines.length === 0) lines.push("  (no steps)");
  return [title, ...lines].join("\n");
}
