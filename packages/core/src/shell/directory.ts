/**
 * The directory each command of a line runs in, tracked while the analyser walks the line: `cd`, `pushd` and
 * `popd` change it for the commands after them in the same shell; subshells, pipelines, substitutions and
 * background jobs keep their changes to themselves. The analysis does not know the host's directory, so a
 * command's directory is recorded relative to where the line starts ({@link WorkingDirectory}); the policy
 * resolves it against the decision's `cwd` and `home`.
 */
import type { ExtractedCommand } from "./types.js";

/** One directory change as the shell would apply it: the `cd` operand after quote removal. */
export interface DirectoryStep {
  /** The operand after quote removal (`src`, `..`, `/`, `~/x`); the source text when `dynamic`. */
  word: string;
  /** The operand is only known at run time as a whole or in part (`"$HOME/x"`, `"$(…)"`, a glob). */
  dynamic: boolean;
}

/**
 * Where a command runs, relative to the directory the line starts in. Absent on a command (the usual case):
 * it runs in the starting directory. `changed`: it runs in the directory reached by applying the steps of one
 * of the `candidates`, in order, from the starting directory (several candidates when an earlier `cd` may have
 * failed, as in `cd x; cmd` or `cd x || cmd`). `unknown`: no static reading can tell (`cd "$(…)"`, `cd -`,
 * `popd` of a stack the line did not fill, a `cd` inside a loop, `CDPATH` set in the line…).
 */
export type WorkingDirectory =
  | { kind: "changed"; candidates: readonly (readonly DirectoryStep[])[] }
  | { kind: "unknown"; reason: string };

/** The tracked state of one shell: either the possible step lists, or why the directory is unknown. */
type State =
  | { readonly unknown: undefined; readonly candidates: readonly (readonly DirectoryStep[])[] }
  | { readonly unknown: string };

/** A point in the walk to compare with later ({@link DirectoryTracker.mark}). */
export interface DirectoryMark {
  readonly state: State;
  readonly depth: number;
  readonly stamped: number;
}

/** What {@link DirectoryTracker.save} keeps to restore a shell's directory after a subshell. */
export interface DirectorySave {
  readonly state: State;
  readonly stack: readonly State[];
}

/** More alternatives than this and the directory counts as unknown (each one is decided on its own). */
const MAX_CANDIDATES = 4;

const START: State = { unknown: undefined, candidates: [[]] };

/** Programs whose run changes the shell's directory in ways the words do not show. */
const OPAQUE_CHANGERS = new Set(["eval", "source", ".", "exec"]);

/** Builtins whose assignments stay in the shell (`export CDPATH=…`). */
const DECLARERS = new Set(["export", "declare", "typeset", "readonly", "local"]);

/** Variables that steer `cd` when set in the line. */
const STEERING = new Set(["CDPATH", "HOME", "OLDPWD"]);

function same(a: readonly DirectoryStep[], b: readonly DirectoryStep[]): boolean {
  return a.length === b.length && a.every((s, i) => s.word === b[i]!.word && s.dynamic === b[i]!.dynamic);
}

/**
 * Follows the directory through one line. The analyser calls {@link stamp} for each simple command it emits
 * (in the order the shell runs them), {@link apply} after it, {@link save}/{@link restore} around anything that
 * runs in a subshell, and {@link mark} with {@link uncertainSince} or {@link unknownSince} where a command may
 * not have run, or may run again.
 */
export class DirectoryTracker {
  private state: State = START;
  private stack: readonly State[] = [];
  private readonly stamped: ExtractedCommand[] = [];
  /** `CDPATH`, `HOME` or `OLDPWD` was assigned in the line: `cd` operands it steers are unknown. */
  private steered = new Set<string>();
  /** Some directory change was seen anywhere in the line. */
  changed = false;

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
    for (let i = 0; i < args.length; i++) {
      const word = args[i]!;
      const dynamic = dynamicAt.has(i + 1);
      if (!ended && !dynamic && word === "--") {
        ended = true;
        continue;
      }
      if (!ended && !dynamic && word.length > 1 && (word[0] === "-" || word[0] === "+")) {
        if (program === "cd" && /^-[LPe@]+$/.test(word)) continue;
        option = word;
        continue;
      }
      // A leading `~` that bash does not expand (quoted) names a folder called `~`.
      const literal = !dynamic && word.startsWith("~") && !tilde.has(i + 1) ? `./${word}` : word;
      operands.push({ word: literal, dynamic });
    }
    if (program === "popd") {
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
    const reason = this.unknownTarget(target, prefixed);
    if (program === "pushd") this.stack = [...this.stack, this.state];
    if (reason !== undefined) {
      this.setUnknown(reason);
      return;
    }
    const state = this.state;
    if (state.unknown !== undefined) return;
    const absolute = !target.dynamic && (target.word.startsWith("/") || target.word.startsWith("~"));
    this.state = {
      unknown: undefined,
      candidates: state.candidates.map((c) => (absolute ? [target] : [...c, target])),
    };
  }

  /** Why a `cd` operand cannot be followed, or `undefined` when it can be resolved later. */
  private unknownTarget(target: DirectoryStep, prefixed: boolean): string | undefined {
    const word = target.word;
    if (!target.dynamic && word === "-") return "cd - returns to a directory only the shell knows";
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

  /** The state to return to after a subshell (`( … )`, `$( … )`, a pipeline element, a background job). */
  save(): DirectorySave {
    return { state: this.state, stack: this.stack };
  }

  /** Returns to a saved state: what the subshell did to its directory stays inside it. */
  restore(saved: DirectorySave): void {
    this.state = saved.state;
    this.stack = saved.stack;
  }

  /** The current point, for {@link uncertainSince} and {@link unknownSince}. */
  mark(): DirectoryMark {
    return { state: this.state, depth: this.stack.length, stamped: this.stamped.length };
  }

  /**
   * What ran since `mark` may have stopped early (a failed `cd` before `;`, the left side of `||`, a branch
   * of `if`): the directory is now either the one at `mark` or the current one.
   */
  uncertainSince(mark: DirectoryMark): void {
    const now = this.state;
    const then = mark.state;
    if (now === then) return;
    if (this.stack.length !== mark.depth) {
      this.setUnknown("pushd or popd may not have run, so the directory stack is unknown");
      return;
    }
    if (now.unknown !== undefined) return;
    if (then.unknown !== undefined) {
      this.state = then;
      return;
    }
    const candidates = [...then.candidates];
    for (const c of now.candidates) if (!candidates.some((k) => same(k, c))) candidates.push(c);
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
    if (this.state === mark.state && this.stack.length === mark.depth) return;
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
    const changes = this.state !== mark.state || this.stack.length !== mark.depth;
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
