/**
 * Where secret values go when a step expands: a host that logs, prints or reports a command needs to know which
 * values came from a secret-bearing source (`${env:…}`, `${config:…}`, `${clipboard}`) so none of them reaches a
 * log, an error or a screen, and a second expansion in which those sources give a marker instead of their value.
 */
import { quote } from "../quoting/quote.js";
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
   * Every value read from the environment, settings or the clipboard so far, as the step text may hold it: the
   * value itself and, when the context has a dialect, its quoted form (`${q:env:…}` inserts that).
   */
  values(): string[];
}

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
  const note = (value: string | undefined): void => {
    if (value === undefined || value === "") return;
    seen.add(value);
    if (context.dialect === undefined) return;
    try {
      seen.add(quote(value, context.dialect));
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
