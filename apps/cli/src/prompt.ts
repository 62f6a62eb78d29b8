/** Asking a person on the terminal: one line of input, read from stdin, with the question on stderr. */
import { createInterface } from "node:readline";
import type { Io } from "./io.js";

/** A choice offered at the prompt. */
export interface Choice<T extends string> {
  /** The key the person types (one letter). */
  key: string;
  /** What is shown. */
  label: string;
  /** The value returned. */
  value: T;
}

/**
 * Asks until the person types one of the keys (or the full label). End of input answers the last choice,
 * which callers make the safe one (cancel).
 */
export async function choose<T extends string>(
  io: Io,
  question: string,
  choices: readonly Choice<T>[],
): Promise<T> {
  const rl = createInterface({ input: io.stdin, output: io.stderr, terminal: false });
  const fallback = (choices[choices.length - 1] as Choice<T>).value;
  const menu = choices.map((c) => `[${c.key}] ${c.label}`).join("  ");
  try {
    io.stderr.write(`${question}\n${menu}? `);
    for await (const line of rl) {
      const answer = line.trim().toLowerCase();
      const found = choices.find((c) => c.key === answer || c.label.toLowerCase() === answer);
      if (found) return found.value;
      io.stderr.write(`please type ${choices.map((c) => c.key).join(", ")}\n${menu}? `);
    }
    return fallback;
  } finally {
    rl.close();
  }
}
