/**
 * The process surface a command sees: streams, environment, working directory, whether a person is at a
 * terminal. Commands get it as a value, so tests can run them in-process.
 */
import type { Readable, Writable } from "node:stream";
import { isatty } from "node:tty";
import { makeVisible } from "@slashi/core";

/** Streams and facts about the running process. */
export interface Io {
  /** Where answers go. */
  stdout: Writable;
  /** Where messages, warnings and prompts go. */
  stderr: Writable;
  /** Input (JSON lines, hook payloads, prompt answers). */
  stdin: Readable;
  /** Environment variables. */
  env: NodeJS.ProcessEnv;
  /** The working directory. */
  cwd: string;
  /** True when stdin and stderr are terminals, so a person can be asked. */
  interactive: boolean;
  /** True when output may use colour (a terminal on stdout, no NO_COLOR, no --no-color). */
  color: boolean;
}

/**
 * Whether output may use colour: stdout is a terminal, `--no-color` was not given, `NO_COLOR` is unset or empty
 * (no-color.org), and `TERM` is not `dumb`.
 */
export function colorAllowed(
  env: NodeJS.ProcessEnv,
  noColorFlag: boolean,
  stdoutIsTerminal: boolean,
): boolean {
  return (
    stdoutIsTerminal &&
    !noColorFlag &&
    (env.NO_COLOR === undefined || env.NO_COLOR === "") &&
    env.TERM !== "dumb"
  );
}

/** The real process as an {@link Io}. */
export function processIo(noColor: boolean): Io {
  const env = process.env;
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // process.stdin builds a stream (a socket for a pipe) on first access: only commands that read input pay.
    get stdin(): Readable {
      return process.stdin;
    },
    env,
    cwd: process.cwd(),
    interactive: isatty(0) && Boolean(process.stderr.isTTY),
    color: colorAllowed(env, noColor, Boolean(process.stdout.isTTY)),
  };
}

/** Writes text and a newline. */
export function println(stream: Writable, text = ""): void {
  stream.write(`${text}\n`);
}

/** Paints text when colour is on. */
export function paint(
  io: Pick<Io, "color">,
  code: "red" | "yellow" | "green" | "dim" | "bold",
  text: string,
): string {
  if (!io.color) return text;
  const codes = { red: 31, yellow: 33, green: 32, dim: 2, bold: 1 } as const;
  return `\u001b[${codes[code]}m${text}\u001b[0m`;
}

/** A verdict painted by severity. */
export function paintVerdict(io: Pick<Io, "color">, verdict: string): string {
  return paint(io, verdict === "allow" ? "green" : verdict === "ask" ? "yellow" : "red", verdict);
}

/**
 * A line for the terminal in which every interpolated value is made visible with core's `makeVisible`: control
 * characters, escape sequences and bidi marks that came from a command line, a file or a repository show as
 * `⟨U+XXXX⟩` tokens and never act on the terminal. Only the literal parts, the CLI's own words, stay as written,
 * so colour goes around the result (`paint(io, "red", "denied") + shown\`: ${command}\``), never inside a value.
 */
export function shown(strings: TemplateStringsArray, ...values: unknown[]): string {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    out += makeVisible(typeof value === "string" ? value : String(value)) + (strings[i + 1] ?? "");
  });
  return out;
}
