/**
 * Reading an invocation: the text typed into the Run box (`/ship fix login redirect`) or the arguments another
 * extension or a keybinding passes to `slashi.run`.
 */
import type { SourceFilter } from "./catalog.js";

/** What to run. */
export interface Invocation {
  /** Command name without the leading `/`. */
  name: string;
  /** The argument text (`${args}`); `""` when none. */
  args: string;
  /** Look only in this source. */
  source?: SourceFilter;
}

const SOURCES: readonly SourceFilter[] = ["user", "workspace", "team", "pack"];

/**
 * Splits typed text into a command name and its arguments: `/ship fix login redirect` is `ship` with
 * `fix login redirect`. Leading white space and the `/` are optional; the arguments keep their inner spacing
 * (only the separating white space after the name and trailing white space are dropped).
 * @returns undefined when no name was typed
 */
export function parseTyped(text: string): Invocation | undefined {
  const m = /^\s*\/?([^\s/][^\s]*)(?:\s+([\s\S]*))?$/.exec(text);
  if (!m || m[1] === undefined) return undefined;
  return { name: m[1], args: (m[2] ?? "").replace(/\s+$/, "") };
}

/**
 * Reads the arguments of `slashi.run` from `executeCommand` or a keybinding: a string (`"/ship fix it"`), or an
 * object `{ "command": "ship", "args": "fix it", "source"?: "user" | "workspace" | "pack" }` (`name` is accepted
 * for `command`). No argument means "open the Run box".
 * @returns the invocation, `undefined` for no argument, or an error message for anything else
 */
export function parseRunArgument(arg: unknown): Invocation | undefined | { error: string } {
  if (arg === undefined || arg === null) return undefined;
  if (typeof arg === "string") {
    return parseTyped(arg) ?? { error: 'slashi.run needs a command name, such as "/ship fix it"' };
  }
  if (typeof arg === "object" && !Array.isArray(arg)) {
    const o = arg as Record<string, unknown>;
    const name = o.command ?? o.name;
    if (typeof name !== "string" || parseTyped(name) === undefined) {
      return { error: 'slashi.run needs { "command": "<name>", "args"?: "<text>" }' };
    }
    if (o.args !== undefined && typeof o.args !== "string") {
      return { error: "the args of slashi.run must be a string" };
    }
    if (o.source !== undefined && !SOURCES.includes(o.source as SourceFilter)) {
      return { error: `the source of slashi.run must be one of ${SOURCES.join(", ")}` };
    }
    const typed = parseTyped(name) as Invocation;
    return {
      name: typed.name,
      args: typeof o.args === "string" ? o.args : typed.args,
      ...(o.source === undefined ? {} : { source: o.source as SourceFilter }),
    };
  }
  return { error: 'slashi.run takes a string such as "/ship fix it" or { "command", "args" }' };
}
