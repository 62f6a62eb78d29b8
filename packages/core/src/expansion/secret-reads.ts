/**
 * Where secret values go when a step expands: a host that logs, prints or reports a command needs to know which
 * values came from a secret-bearing source (`${env:…}`, `${config:…}`, `${clipboard}`) so none of them reaches a
 * log, an error or a screen, and a second expansion in which those sources give a marker instead of their value.
 */
import { quote } from "../quoting/quote.js";
import { makeVisible } from "../steps/visible.js";
import type { ExpansionContext } from "./expand.js";

/** The text a secret-bearing variable expands to in a {@link redactedExpansionContext}: `⟪env:TOKEN⟫`. */
export function secretPlaceholder(kind: "env" | "config" | "clipboard", name?: string): string {
  return name === undefined ? `⟪${kind}⟫` : `⟪${kind}:${name}⟫`;
}

/** A context that records every secret value it hands out. */
export interface SecretReads {
  /** Use this context to expand; it gives the same values as the original. */
  context: ExpansionContext;
  /**
   * Every value read from the environment, settings or the clipboard so far, as a text may hold it: the value
   * itself, its quoted form when the context has a dialect (`${q:env:…}` inserts that), and each of those as
   * `makeVisible` shows it in a prompt, and the pieces of 4 characters or more that the shell makes of it unquoted.
   */
  values(): string[];
}

/** Where a shell may cut an unquoted value into pieces: blanks, quotes and metacharacters. */
const SHELL_SPLIT = /[\s'"`\\;&|<>()$]+/u;

/** Pieces of a split value shorter than this are not tracked on their own (they would hide ordinary words). */
const MIN_PIECE = 4;

function asText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/**
 * Wraps an expansion context so the values of its secret-bearing sources are recorded as they are read. Pure;
 * the original context is not changed.
 * @param context - the host's context
 */
export function trackSecretReads(context: ExpansionContext): SecretReads {
  const seen = new Set<string>();
  const add = (form: string): void => {
    seen.add(form);
    // a prompt shows text through makeVisible, which may change how the value looks
    seen.add(makeVisible(form));
  };
  const note = (value: string | undefined): void => {
    if (value === undefined || value === "") return;
    add(value);
    // Unquoted, the shell splits the value at blanks and metacharacters, and what it reports about the line
    // (the words of a command) holds those pieces: the longer ones count as secret too.
    for (const piece of value.split(SHELL_SPLIT)) if (piece.length >= MIN_PIECE) add(piece);
    if (context.dialect === undefined) return;
    try {
      add(quote(value, context.dialect));
    } catch {
      // a value the dialect cannot quote makes expansion fail; nothing is inserted
    }
  };
  const { env, config, clipboard } = context;
  const tracked: ExpansionContext = { ...context };
  if (env) {
    tracked.env = (name) => {
      const value = env(name);
      note(value);
      return value;
    };
  }
  if (config) {
    tracked.config = (key) => {
      const value = config(key);
      note(asText(value));
      return value;
    };
  }
  // The clipboard is a plain value: count it as read whenever the host supplied it.
  note(clipboard);
  return { context: tracked, values: () => [...seen] };
}

/**
 * The same context with every secret-bearing source answering {@link secretPlaceholder} instead of its value:
 * expanding a step with it gives the text a person or a log may see (`deploy --token ⟪env:TOKEN⟫`). A source the
 * host does not have stays missing, so the expansion fails the same way.
 * @param context - the host's context
 */
export function redactedExpansionContext(context: ExpansionContext): ExpansionContext {
  const { env, config, clipboard } = context;
  return {
    ...context,
    ...(env
      ? { env: (name: string) => (env(name) === undefined ? undefined : secretPlaceholder("env", name)) }
      : {}),
    ...(config
      ? {
          config: (key: string) => {
            const value = config(key);
            return value === undefined || value === null ? value : secretPlaceholder("config", key);
          },
        }
      : {}),
    ...(clipboard === undefined ? {} : { clipboard: secretPlaceholder("clipboard") }),
  };
}
