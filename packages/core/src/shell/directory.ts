/**
 * The directory each command of a line runs in, tracked while the analyser walks the line: `cd`, `pushd` and
 * `popd` change it for the commands after them in the same shell; subshells, pipelines, substitutions and
 * background jobs keep their changes to themselves. The analysis does not know the host's directory, so a
 * command's directory is recorded relative to where the line starts ({@link WorkingDirectory}); the policy
 * resolves it against the decision's `cwd` and `home`.
 */
import { unwrapRunners } from "./runners.js";
import type { DirectoryStep, ExtractedCommand, WorkingDirectory } from "./types.js";

export type { DirectoryStep, WorkingDirectory } from "./types.js";

/** The tracked state of one shell: either the possible step lists, or why the directory is unknown. */
type State =
  | { readonly unknown: undefined; readonly candidates: readonly (readonly DirectoryStep[])[] }
  | { readonly unknown: string };

/** A point in the walk to compare with later ({@link DirectoryTracker.mark}). */
export interface DirectoryMark {
  readonly state: State;
  /** Index into the tracker's log of states. */
  readonly log: number;
  /** Count of directory-stack operations so far. */
  readonly stackOps: number;
  readonly stamped: number;
}

/** What {@link DirectoryTracker.save} keeps to restore a shell's directory after a subshell. */
export interface DirectorySave {
  readonly state: State;
  readonly stack: readonly State[];
  readonly log: number;
}

/** More alternatives than this and the directory counts as unknown (each one is decided on its own). */
const MAX_CANDIDATES = 4;

const START: State = { unknown: undefined, candidates: [[]] };

/** Programs whose run changes the shell's directory in ways the words do not show. */
const OPAQUE_CHANGERS = new Set(["eval", "source", "."]);

/** Builtins whose assignments stay in the shell (`export CDPATH=…`). */
const DECLARERS = new Set(["export", "declare", "typeset", "readonly", "local"]);

/** Variables that steer `cd` when set in the line. */
const STEERING = new Set(["CDPATH", "HOME", "OLDPWD"]);

function same(a: readonly DirectoryStep[], b: readonly DirectoryStep[]): boolean {
  return a.length === b.length && a.every((s, i) => s.word === b[i]!.word && s.dynamic === b[i]!.dynamic);
}

/**
 * The directory runner options move the command to (`env -C dir`, `env --ch=dir`, `sudo -D dir`, read with the
 * runners' option tables), as written: `undefined` when no runner moves it, `null` when one does but the
 * directory cannot be read. Several moves are joined (`env -C a env -C b` → `a/b`).
 */
export function runnerDirectory(
  command: ExtractedCommand,
): { word: string; dynamic: boolean } | null | undefined {
  if (command.wrappers.length === 0) return undefined;
  const words = command.argv.map((text, i) => ({ text, dynamic: command.dynamic.includes(i) }));
  let found: { word: string; dynamic: boolean } | undefined;
  for (const moved of unwrapRunners(words).directories) {
    if (moved.text === "") return null;
    const absolute = moved.text.startsWith("/") || moved.text.startsWith("~");
    found =
      found === undefined || absolute
        ? { word: moved.text, dynamic: moved.dynamic }
        : { word: `${found.word}/${moved.text}`, dynamic: found.dynamic || moved.dynamic };
  }
  return found;
}

/**
 * Follows the directory through one line. The analyser calls {@link stamp} for each simple command it emits
 * (in the order the shell runs them), {@link apply} after it, {@link save}/{@link restore} around anything that
 * runs in a subshell, and {@link mark} with {@link uncertainSince} or {@link unknownSince} where a command may
 * not have run, or may run again.
 */
export class DirectoryTracker {
  private current: State = START;
  private stack: readonly State[] = [];
  /** Every state the shell passed through, in order: a command cut short may have stopped at any of them. */
  private readonly log: State[] = [START];
  /** pushd/popd operations so far, and whether one of them may not have run. */
  private stackOps = 0;
  private stackUncertain = false;
  private readonly stamped: ExtractedCommand[] = [];
  /** `CDPATH`, `HOME` or `OLDPWD` was assigned in the line: `cd` operands it steers are unknown. */
  private steered = new Set<string>();
  /** Some directory change was seen anywhere in the line. */
  changed = false;

  private get state(): State {
    return this.current;
  }

  private set state(next: State) {
    this.current = next;
    this.log.push(next);
  }

  /** A standalone assignment (`CDPATH=x`, `export HOME=/`): later `cd` operands it steers are unknown. */
  assign(name: string): void {
    if (STEERING.has(name)) this.steered.add(name);
  }

  /** Records the current directory on a command that is about to run. */
  stamp(cmd: ExtractedCommand): void {
    this.stamped.push(cmd);
    const state = this.state;
    if (state.unknown !== undefined) cmd.cwd = { kind: "unknown", reason: state.unknown };
    else if (state.candidates.length !== 1 || state.candidates[0]!.length !== 0)
      cmd.cwd = { kind: "changed", candidates: state.candidates };
  }

  /** Applies what a command (already stamped) does to the shell's directory. */
  apply(cmd: ExtractedCommand): void {
    for (const a of cmd.assignments) {
      if (STEERING.has(a.name) && (cmd.effective.length === 0 || DECLARERS.has(cmd.effective[0]!)))
        this.steered.add(a.name);
    }
    const program = cmd.effective[0];
    if (program === undefined || cmd.lookupOnly) return;
    if ((cmd.effectiveDynamic ?? []).includes(0)) {
      this.setUnknown(`the program ${program} is only known at run time and may change the directory`);
      return;
    }
    const builtinOnly = cmd.wrappers.every((w) => w === "command" || w === "builtin");
    if (OPAQUE_CHANGERS.has(program)) {
      this.setUnknown(`${program} runs code that may change the directory`);
      return;
    }
    if (program !== "cd" && program !== "pushd" && program !== "popd" && program !== "chdir") return;
    this.changed = true;
    if (!builtinOnly) {
      this.setUnknown(`${program} run through ${cmd.wrappers.join(" ")} may change the directory or not`);
      return;
    }
    const prefixed = cmd.assignments.some((a) => STEERING.has(a.name));
    const args = cmd.effective.slice(1);
    const dynamicAt = new Set(cmd.effectiveDynamic ?? []);
    const start = cmd.effective.length === 0 ? 0 : (cmd.effectiveStart ?? 0);
    const tilde = new Set((cmd.tildes ?? []).map((t) => t - start));
    const operands: DirectoryStep[] = [];
    let option: string | undefined;
    let ended = false;
    // `cd -P` (the last of -L/-P counts) resolves links before `..`.
    let physical = false;
    for (let i = 0; i < args.length; i++) {
      const word = args[i]!;
      const dynamic = dynamicAt.has(i + 1);
      if (!ended && !dynamic && word === "--") {
        ended = true;
        continue;
      }
      if (!ended && !dynamic && word.length > 1 && (word[0] === "-" || word[0] === "+")) {
        if (program === "cd" && /^-[LPe@]+$/.test(word)) {
          const last = word.replace(/[^LP]/g, "").slice(-1);
          if (last !== "") physical = last === "P";
          continue;
        }
        option = word;
        continue;
      }
      // A leading `~` that bash does not expand (quoted) names a folder called `~`.
      const literal = !dynamic && word.startsWith("~") && !tilde.has(i + 1) ? `./${word}` : word;
      operands.push({ word: literal, dynamic });
    }
    if (program === "pushd" || program === "popd") this.stackOps++;
    if (program === "popd") {
      if (this.stackUncertain) {
        this.setUnknown("an earlier pushd or popd may not have run, so popd's directory is unknown");
        return;
      }
      if (option !== undefined || operands.length > 0) {
        this.setUnknown(
          `popd ${option ?? operands[0]!.word} changes the directory stack in a way not followed`,
        );
        return;
      }
      const top = this.stack[this.stack.length - 1];
      if (top === undefined) {
        this.setUnknown("popd returns to a directory the line did not push");
        return;
      }
      this.stack = this.stack.slice(0, -1);
      this.state = top;
      return;
    }
    if (option !== undefined) {
      this.setUnknown(`${program} ${option} changes the directory in a way not followed`);
      return;
    }
    if (operands.length > 1) {
      this.setUnknown(`${program} is given more than one directory`);
      return;
    }
    const target = operands[0] ?? (program === "pushd" ? undefined : { word: "~", dynamic: false });
    if (target === undefined) {
      this.setUnknown("pushd without a directory swaps with a directory the line may not have pushed");
      return;
    }
    const reason = this.unknownTarget(target, prefixed, physical);
    if (program === "pushd") this.stack = [...this.stack, this.state];
    if (reason !== undefined) {
      this.setUnknown(reason);
      return;
    }
    this.moveTo(target);
  }

  /** Applies one directory change to every candidate (an absolute or home target starts over). */
  private moveTo(step: DirectoryStep): void {
    const state = this.current;
    if (state.unknown !== undefined) return;
    const absolute = !step.dynamic && (step.word.startsWith("/") || step.word.startsWith("~"));
    this.state = {
      unknown: undefined,
      candidates: state.candidates.map((c) => (absolute ? [step] : [...c, step])),
    };
  }

  /** Why a `cd` operand cannot be followed, or `undefined` when it can be resolved later. */
  private unknownTarget(target: DirectoryStep, prefixed: boolean, physical: boolean): string | undefined {
    const word = target.word;
    if (!target.dynamic && word === "-") return "cd - returns to a directory only the shell knows";
    // /proc/*/cwd, /proc/*/root and /dev/fd/* are the kernel's links to other places: no name tells where.
    if (!target.dynamic && /^\/+(proc|dev\/+fd)(\/|$)/.test(word))
      return `cd ${word} goes through the kernel's links, which do not resolve by name`;
    if (physical && !target.dynamic) {
      const parts = word.split("/").filter((part) => part !== "" && part !== ".");
      const fromStart =
        !word.startsWith("/") &&
        !word.startsWith("~") &&
        this.current.unknown === undefined &&
        this.current.candidates.every((c) => c.length === 0);
      if (parts.includes("..") && !(fromStart && parts.every((part) => part === "..")))
        return `cd -P ${word} resolves links before "..", so where it leads depends on the file system`;
    }
    const steeredBy = (name: string): boolean => prefixed || this.steered.has(name);
    if (word.startsWith("~") && steeredBy("HOME"))
      return `the line sets HOME, so cd ${word} goes where that value says`;
    const relative = !word.startsWith("/") && !word.startsWith("~") && !word.startsWith("$");
    const searched = relative && !/^\.\.?(\/|$)/.test(word);
    if (searched && steeredBy("CDPATH"))
      return `the line sets CDPATH, so cd ${word} may go to a folder of that search path`;
    return undefined;
  }

  private setUnknown(reason: string): void {
    this.changed = true;
    if (this.state.unknown === undefined) this.state = { unknown: reason };
  }

  /**
   * A payload (`env -C dir sh -c '…'`) starts where the runner that launches it moves to. Call after
   * {@link save}, before walking the payload.
   */
  enterRunner(cmd: ExtractedCommand): void {
    const moved = runnerDirectory(cmd);
    if (moved === undefined) return;
    if (moved === null) {
      this.setUnknown("a runner moves the payload to a directory that cannot be read");
      return;
    }
    this.moveTo(moved);
  }

  /** The state to return to after a subshell (`( … )`, `$( … )`, a pipeline element, a background job). */
  save(): DirectorySave {
    return { state: this.current, stack: this.stack, log: this.log.length };
  }

  /** Returns to a saved state: what the subshell did to its directory stays inside it. */
  restore(saved: DirectorySave): void {
    this.current = saved.state;
    this.stack = saved.stack;
    this.log.length = saved.log;
  }

  /** The current point, for {@link uncertainSince} and {@link unknownSince}. */
  mark(): DirectoryMark {
    return {
      state: this.current,
      log: this.log.length,
      stackOps: this.stackOps,
      stamped: this.stamped.length,
    };
  }

  /**
   * What ran since `mark` may have stopped anywhere (a failed `cd` before `;`, the left side of `||`, a
   * branch of `if`): the directory is now any one the shell passed through since `mark`.
   */
  uncertainSince(mark: DirectoryMark): void {
    if (this.log.length === mark.log) return;
    if (this.stackOps !== mark.stackOps) this.stackUncertain = true;
    const seen = [mark.state, ...this.log.slice(mark.log)];
    const unknown = seen.find((s) => s.unknown !== undefined);
    if (unknown !== undefined) {
      if (this.current !== unknown) this.state = unknown;
      return;
    }
    const candidates: (readonly DirectoryStep[])[] = [];
    for (const s of seen) {
      if (s.unknown !== undefined) continue;
      for (const c of s.candidates) if (!candidates.some((k) => same(k, c))) candidates.push(c);
    }
    this.state =
      candidates.length > MAX_CANDIDATES
        ? { unknown: "too many earlier directory changes may or may not have happened" }
        : { unknown: undefined, candidates };
  }

  /**
   * What ran since `mark` may run again (a loop body): if it changed the directory, every command it holds
   * and everything after it runs in a directory the words do not fix.
   */
  unknownSince(mark: DirectoryMark, reason: string): void {
    if (this.log.length === mark.log) return;
    const cwd: WorkingDirectory = { kind: "unknown", reason };
    for (let i = mark.stamped; i < this.stamped.length; i++) this.stamped[i]!.cwd = cwd;
    this.setUnknown(reason);
  }

  /**
   * A function body was walked since `mark` (at its definition). Its commands run wherever it is called, so
   * when the line changes the directory anywhere they count as unknown; when the body itself changes it,
   * every command after the definition does too (it may follow a call).
   */
  functionBodySince(mark: DirectoryMark, saved: DirectorySave): void {
    const changes = this.log.length !== mark.log;
    this.restore(saved);
    this.bodies.push([mark.stamped, this.stamped.length]);
    if (changes) this.setUnknown("a function defined in the line changes the directory when it is called");
  }

  private readonly bodies: [number, number][] = [];

  /** Ends the walk: function bodies run in an unknown directory when the line changes it anywhere. */
  finish(): void {
    if (!this.changed) return;
    const cwd: WorkingDirectory = {
      kind: "unknown",
      reason: "a function body runs in the directory it is called from, which the line changes",
    };
    for (const [from, to] of this.bodies) for (let i = from; i < to; i++) this.stamped[i]!.cwd = cwd;
  }
}
