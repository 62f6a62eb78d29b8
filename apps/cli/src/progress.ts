/**
 * Progress of a long operation (a download, a publish, a search across registries, the first parser load): one
 * line on stderr, redrawn in place and erased when the operation ends, so nothing of it stays on the screen.
 * It is shown only to a person at a terminal: never when stderr is not a terminal (piped or redirected), when
 * `CI` is set, or when `TERM` is `dumb`; then nothing at all is written. Short operations show nothing either:
 * the line appears only after a delay.
 */
import type { Writable } from "node:stream";
import { writeOwnControl, type Io } from "./io.js";

/** A running progress line. */
export interface Progress {
  /** Says what is being done now (shown from the next redraw); shows the line again after {@link pause}. */
  step(text: string): void;
  /** Erases the line, for a prompt or an answer to be written; {@link step} shows it again. */
  pause(): void;
  /** Erases the line and stops for good. Safe to call more than once. */
  stop(): void;
}

/** Timing of the progress line, in milliseconds (tests shorten them). */
export interface ProgressTiming {
  /** How long an operation runs before the line appears (default 400). */
  delay?: number;
  /** How often the line is redrawn (default 120). */
  interval?: number;
}

const FRAMES = ["|", "/", "-", "\\"];

/**
 * Whether a progress line may be shown: stderr is a terminal, `CI` is unset (or empty, or `false`) and `TERM` is
 * not `dumb`.
 */
export function progressAllowed(env: NodeJS.ProcessEnv, stderr: Writable): boolean {
  const ci = env.CI;
  return (
    (stderr as { isTTY?: boolean }).isTTY === true &&
    (ci === undefined || ci === "" || ci === "0" || ci.toLowerCase() === "false") &&
    env.TERM !== "dumb"
  );
}

const QUIET: Progress = { step: () => undefined, pause: () => undefined, stop: () => undefined };

/**
 * Starts a progress line saying `text` on `io.stderr`, or a progress that writes nothing when
 * {@link progressAllowed} says no. Its timers never keep the process alive. With `NO_COLOR` set the line has no
 * colour; it uses only carriage return and erase-line otherwise.
 */
export function startProgress(
  io: Pick<Io, "stderr" | "env">,
  text: string,
  timing: ProgressTiming = {},
): Progress {
  if (!progressAllowed(io.env, io.stderr)) return QUIET;
  const colour = io.env.NO_COLOR === undefined || io.env.NO_COLOR === "";
  const started = Date.now();
  let label = text;
  let frame = 0;
  let shown = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const draw = (): void => {
    const seconds = Math.floor((Date.now() - started) / 1000);
    const spinner = FRAMES[frame++ % FRAMES.length] as string;
    // The erase and the colour are the CLI's own; the label (a pack name, a registry) is shown as any text.
    writeOwnControl(io.stderr, "erase");
    if (colour) writeOwnControl(io.stderr, "cyan");
    io.stderr.write(spinner);
    if (colour) writeOwnControl(io.stderr, "reset");
    io.stderr.write(` ${label}${seconds > 0 ? ` (${seconds}s)` : ""}`);
    shown = true;
  };
  const erase = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (shown) writeOwnControl(io.stderr, "erase");
    shown = false;
  };
  const schedule = (wait: number): void => {
    timer = setTimeout(() => {
      if (stopped) return;
      draw();
      schedule(timing.interval ?? 120);
    }, wait);
    timer.unref();
  };
  schedule(timing.delay ?? 400);
  return {
    step(next) {
      if (stopped) return;
      label = next;
      if (timer === undefined) schedule(0);
    },
    pause: erase,
    stop() {
      stopped = true;
      erase();
    },
  };
}

/** Runs `task` under a progress line that is erased when it settles, whether it resolves or throws. */
export async function withProgress<T>(
  io: Pick<Io, "stderr" | "env">,
  text: string,
  task: (progress: Progress) => Promise<T>,
  timing?: ProgressTiming,
): Promise<T> {
  const progress = startProgress(io, text, timing);
  try {
    return await task(progress);
  } finally {
    progress.stop();
  }
}
