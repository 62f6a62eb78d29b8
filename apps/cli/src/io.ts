/**
 * The process surface a command sees: streams, environment, working directory, whether a person is at a
 * terminal. Commands get it as a value, so tests can run them in-process.
 *
 * Every command writes through {@link visibleIo}'s streams (`runMain` wraps the Io once): whatever a command
 * prints, control characters, escape sequences and bidi marks in it reach the terminal only as visible
 * `⟨U+XXXX⟩` tokens (core's `showControls`), so a print that forgot to mark a value from a command line, a file,
 * a repository or a registry still cannot act on the terminal. The CLI's own escape sequences (colour, the
 * progress line's erase, the tabs of a completion script) pass as markers only this process can make
 * ({@link ownControl}); the sink turns them back into the sequence after everything else was made visible.
 */
import type { Readable, Writable } from "node:stream";
import { isatty } from "node:tty";
import { makeVisible, showControls } from "@slashi/core";

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

/** The control sequences the CLI writes of its own accord, by name. */
const OWN_CONTROLS = {
  red: "\u001b[31m",
  yellow: "\u001b[33m",
  green: "\u001b[32m",
  cyan: "\u001b[36m",
  dim: "\u001b[2m",
  bold: "\u001b[1m",
  reset: "\u001b[0m",
  erase: "\r\u001b[K",
  tab: "\t",
} as const;

/** A name of one of the CLI's own control sequences. */
export type OwnControl = keyof typeof OWN_CONTROLS;

// A marker holds a key drawn on first use: text from outside cannot know it, so cannot forge one. Drawing it
// costs about a millisecond, so a process that never writes its own control sequence never draws it.
const OWN_NAMES = Object.keys(OWN_CONTROLS) as OwnControl[];
let ownKey: { key: string; marker: RegExp } | undefined;

function drawnKey(): { key: string; marker: RegExp } {
  if (ownKey === undefined) {
    const key = Array.from(globalThis.crypto.getRandomValues(new Uint32Array(3)), (n) => n.toString(36)).join(
      "",
    );
    ownKey = { key, marker: new RegExp(`\uE000${key}:(\\d+)\uE001`, "g") };
  }
  return ownKey;
}

/** Whether this process has drawn its marker key yet (no {@link ownControl} marker exists before). */
export function ownKeyDrawn(): boolean {
  return ownKey !== undefined;
}

/**
 * A marker for one of the CLI's own control sequences, which {@link visibleOutput} (every stream of a
 * {@link visibleIo}) writes as the sequence itself. Text written to a stream that is not guarded shows the marker.
 */
export function ownControl(name: OwnControl): string {
  return `\uE000${drawnKey().key}:${OWN_NAMES.indexOf(name)}\uE001`;
}

/**
 * What the CLI's streams write for `text`: every control character, escape, bidi mark and line or paragraph
 * separator made visible (core's `showControls`, newlines kept), then the CLI's own markers
 * ({@link ownControl}) turned into their sequences. Text already made visible passes unchanged.
 */
export function visibleOutput(text: string): string {
  const visible = showControls(text);
  // Before the key is drawn no marker of ours exists, so there is nothing to turn back.
  if (ownKey === undefined) return visible;
  return visible.replace(
    ownKey.marker,
    (_marker, index: string) => OWN_CONTROLS[OWN_NAMES[Number(index)] as OwnControl],
  );
}

const GUARDED = new WeakMap<Writable, Writable>();

/** `stream` with every write and end passed through {@link visibleOutput}; everything else is the stream's. */
function visibleStream(stream: Writable): Writable {
  const shown = (chunk: unknown): unknown =>
    typeof chunk === "string"
      ? visibleOutput(chunk)
      : chunk instanceof Uint8Array
        ? visibleOutput(Buffer.from(chunk).toString("utf8"))
        : chunk;
  // A chunk given as bytes is written back as text: an encoding named for the bytes no longer applies.
  const rest = (chunk: unknown, args: unknown[]): unknown[] =>
    chunk instanceof Uint8Array && typeof args[0] === "string" ? ["utf8", ...args.slice(1)] : args;
  const write = (chunk: unknown, ...args: unknown[]): boolean =>
    (stream.write as (...a: unknown[]) => boolean)(shown(chunk), ...rest(chunk, args));
  const end = (chunk?: unknown, ...args: unknown[]): Writable =>
    typeof chunk === "function" || chunk === undefined
      ? (stream.end as (...a: unknown[]) => Writable)(chunk, ...args)
      : (stream.end as (...a: unknown[]) => Writable)(shown(chunk), ...rest(chunk, args));
  const guarded = new Proxy(stream, {
    get(target, property) {
      if (property === "write") return write;
      if (property === "end") return end;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  GUARDED.set(guarded, stream);
  return guarded;
}

/**
 * `io` whose stdout and stderr show every control character they are given (see {@link visibleOutput}); the
 * rest of `io` is read through, getters included. Wrapping an already wrapped Io returns it unchanged.
 */
export function visibleIo<T extends Io>(io: T): T {
  if (GUARDED.has(io.stdout) && GUARDED.has(io.stderr)) return io;
  const stdout = visibleStream(io.stdout);
  const stderr = visibleStream(io.stderr);
  return new Proxy(io, {
    get(target, property) {
      if (property === "stdout") return stdout;
      if (property === "stderr") return stderr;
      return Reflect.get(target, property, target);
    },
  });
}

const JSON_CONTROLS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * `JSON.stringify(value, null, space)` with every control character, bidi mark and line or paragraph separator
 * written as a `\uXXXX` escape (JSON.stringify leaves DEL, C1 controls and the bidi marks raw): the same value for
 * the program that parses it, and nothing that acts on a terminal for the person who reads it.
 */
export function jsonText(value: unknown, space?: number): string {
  // A raw newline is the indentation's (JSON.stringify escapes the ones inside strings).
  return JSON.stringify(value, null, space).replace(JSON_CONTROLS, (ch) =>
    ch === "\n"
      ? ch
      : Array.from(
          { length: ch.length },
          (_, i) => `\\u${ch.charCodeAt(i).toString(16).padStart(4, "0")}`,
        ).join(""),
  );
}

/**
 * Writes one of the CLI's own control sequences to `stream` as it is (the stream behind a {@link visibleIo}'s
 * stream, or `stream` itself).
 */
export function writeOwnControl(stream: Writable, name: OwnControl): void {
  (GUARDED.get(stream) ?? stream).write(OWN_CONTROLS[name]);
}

/**
 * Paints text when colour is on, with {@link ownControl} markers: the colour shows on a {@link visibleIo}'s
 * streams, which every command writes to.
 */
export function paint(
  io: Pick<Io, "color">,
  code: "red" | "yellow" | "green" | "dim" | "bold",
  text: string,
): string {
  if (!io.color) return text;
  return `${ownControl(code)}${text}${ownControl("reset")}`;
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
