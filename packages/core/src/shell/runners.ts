/**
 * Unwrapping runners: programs that run another program (`sudo`, `env`, `timeout`, `xargs`, `watch`…).
 * The effective command is what finally runs; the runners are recorded outermost first.
 */
import type { SafetyCode } from "../safety/codes.js";
import { basename, hasOption, optionValue, scanOptions, type OptionSpec, type Word } from "./options.js";
import {
  CHRT_OPTIONS,
  COMMAND_OPTIONS,
  DOAS_OPTIONS,
  ENV_OPTIONS,
  EXEC_OPTIONS,
  FLOCK_OPTIONS,
  IONICE_OPTIONS,
  NICE_OPTIONS,
  NOHUP_OPTIONS,
  SETSID_OPTIONS,
  STDBUF_OPTIONS,
  SUDO_OPTIONS,
  TASKSET_OPTIONS,
  TIME_OPTIONS,
  TIMEOUT_OPTIONS,
  WATCH_OPTIONS,
  XARGS_OPTIONS,
} from "./tool-options.js";

/** A problem met while unwrapping, reported by the analyser as a finding. */
export interface UnwrapProblem {
  code: SafetyCode;
  message: string;
}

/** A `NAME=value` word given to `env` or `sudo`. */
export interface RunnerAssignment {
  name: string;
  value: string | null;
}

/** What unwrapping found. */
export interface UnwrapResult {
  /** Runner names, outermost first. */
  wrappers: string[];
  /** The words that really run; empty when the last runner runs nothing. */
  effective: Word[];
  /** `command -v`, `type`, `which`, `sudo -l`: a lookup that does not run the program. */
  lookupOnly: boolean;
  /** Assignments passed through `env`/`sudo`. */
  assignments: RunnerAssignment[];
  /** A runner appends arguments the script does not show (`xargs`). */
  appendsArguments: boolean;
  /** Problems (unknown runner options, interactive shells, dynamic split strings). */
  problems: UnwrapProblem[];
  /**
   * The directories runner options move the command to (`env -C`/`--chdir` and its abbreviations, `sudo -D`),
   * outermost first, as written.
   */
  directories: Word[];
}

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/;

const LOOKUP_PROGRAMS: ReadonlySet<string> = new Set(["type", "which", "whereis", "whence", "where"]);

function unknownOption(runner: string, options: string[]): UnwrapProblem {
  return {
    code: "shell.unknown-runner-option",
    message: `${runner} is given an option Slashi does not know (${options.join(", ")}); the command it runs is uncertain`,
  };
}

function interactive(runner: string): UnwrapProblem {
  return {
    code: "shell.interactive-shell",
    message: `${runner} without a command opens an interactive shell`,
  };
}

/**
 * Splits an `env -S` string the way GNU env does: whitespace separates, single and double quotes group,
 * backslash escapes. `${VAR}` makes the result dynamic.
 */
export function splitEnvString(value: string): { words: Word[]; dynamic: boolean } {
  const words: Word[] = [];
  let current = "";
  let inWord = false;
  let quote: "'" | '"' | null = null;
  let dynamic = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i] as string;
    if (quote === "'") {
      if (c === "'") quote = null;
      else current += c;
      continue;
    }
    if (c === "\\" && i + 1 < value.length) {
      const e = value[++i] as string;
      const mapped =
        e === "n" ? "\n" : e === "t" ? "\t" : e === "r" ? "\r" : e === "f" ? "\f" : e === "v" ? "\v" : e;
      if (e === "_") {
        if (quote) current += " ";
        else if (inWord) {
          words.push({ text: current, dynamic: false });
          current = "";
          inWord = false;
        }
        continue;
      }
      if (e === "c" && !quote) break;
      current += mapped;
      inWord = true;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else {
        if (c === "$") dynamic = true;
        current += c;
      }
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
      continue;
    }
    if (c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f" || c === "\v") {
      if (inWord) words.push({ text: current, dynamic: false });
      current = "";
      inWord = false;
      continue;
    }
    if (c === "#" && !inWord) break;
    if (c === "$") dynamic = true;
    current += c;
    inWord = true;
  }
  if (inWord) words.push({ text: current, dynamic: false });
  if (quote) dynamic = true;
  if (dynamic) for (const w of words) if (w.text.includes("$")) w.dynamic = true;
  return { words, dynamic };
}

function joinWords(words: readonly Word[]): Word {
  return { text: words.map((w) => w.text).join(" "), dynamic: words.some((w) => w.dynamic) };
}

function shellPayload(payload: Word): Word[] {
  return [{ text: "sh", dynamic: false }, { text: "-c", dynamic: false }, payload];
}

/** Runner names this module unwraps. */
export const RUNNERS: ReadonlySet<string> = new Set([
  "env",
  "sudo",
  "doas",
  "nohup",
  "setsid",
  "time",
  "exec",
  "command",
  "builtin",
  "timeout",
  "nice",
  "ionice",
  "stdbuf",
  "chrt",
  "taskset",
  "xargs",
  "watch",
  "flock",
  "coproc",
  "busybox",
  "su",
  "noglob",
]);

/**
 * Unwraps runners from the front of a command's words until the program that really runs.
 * @param argv - the command's words after quote removal, with their dynamic flags
 */
export function unwrapRunners(argv: readonly Word[]): UnwrapResult {
  const result: UnwrapResult = {
    wrappers: [],
    effective: [],
    lookupOnly: false,
    assignments: [],
    appendsArguments: false,
    problems: [],
    directories: [],
  };
  let words: Word[] = argv as Word[];
  let i = 0;
  for (let guard = 0; guard < 64; guard++) {
    const head = words[i];
    if (!head || head.dynamic) break;
    const name = basename(head.text);
    if (LOOKUP_PROGRAMS.has(name)) {
      result.lookupOnly = true;
      break;
    }
    if (!RUNNERS.has(name)) break;
    const start = i + 1;
    let next: number;
    switch (name) {
      case "env": {
        const scan = scanOptions(words, start, ENV_OPTIONS);
        if (scan.unknown.length) result.problems.push(unknownOption(name, scan.unknown));
        next = scan.next;
        const chdir = optionValue(scan, "-C", "--chdir");
        if (chdir) result.directories.push(chdir);
        const split = optionValue(scan, "-S", "--split-string");
        if (split) {
          if (split.dynamic) {
            result.problems.push({
              code: "shell.unparsed-payload",
              message: "env -S is given a dynamic string; the command it runs is unknown",
            });
          }
          const parts = split.dynamic ? { words: [split], dynamic: true } : splitEnvString(split.text);
          words = [...words.slice(0, next), ...parts.words, ...words.slice(next)];
          const rescanned = scanOptions(words, next, ENV_OPTIONS);
          next = rescanned.next;
          // the split string may hold options of its own: `env -S '-C dir cmd'`
          const inner = optionValue(rescanned, "-C", "--chdir");
          if (inner) result.directories.push(inner);
        }
        if (words[next]?.text === "-" && !words[next]?.dynamic) next++;
        next = takeAssignments(words, next, result);
        break;
      }
      case "sudo": {
        const scan = scanOptions(words, start, SUDO_OPTIONS);
        if (scan.unknown.length) result.problems.push(unknownOption(name, scan.unknown));
        const chdir = optionValue(scan, "-D", "--chdir");
        if (chdir) result.directories.push(chdir);
        if (hasOption(scan, "-l", "--list")) {
          result.lookupOnly = true;
          result.effective = words.slice(i);
          return result;
        }
        next = takeAssignments(words, scan.next, result);
        if (hasOption(scan, "-e", "--edit")) {
          result.wrappers.push(name);
          result.effective = [{ text: "sudoedit", dynamic: false }, ...words.slice(next)];
          return result;
        }
        if (
          hasOption(scan, "-v", "--validate", "-K", "--remove-timestamp", "-V", "--version", "-h", "--help")
        ) {
          if (next >= words.length) {
            result.wrappers.push(name);
            return result;
          }
        }
        if (next >= words.length && hasOption(scan, "-s", "--shell", "-i", "--login")) {
          result.problems.push(interactive("sudo"));
        }
        break;
      }
      case "doas": {
        const scan = scanOptions(words, start, DOAS_OPTIONS);
        if (scan.unknown.length) result.problems.push(unknownOption(name, scan.unknown));
        next = scan.next;
        if (next >= words.length && hasOption(scan, "-s")) result.problems.push(interactive("doas"));
        break;
      }
      case "nohup":
        next = scanOptions(words, start, NOHUP_OPTIONS).next;
        break;
      case "setsid":
      case "time":
      case "exec":
      case "timeout":
      case "nice":
      case "ionice":
      case "stdbuf":
      case "chrt":
      case "taskset":
      case "xargs":
      case "noglob":
      case "busybox":
      case "builtin": {
        const specs: Record<string, OptionSpec> = {
          setsid: SETSID_OPTIONS,
          time: TIME_OPTIONS,
          exec: EXEC_OPTIONS,
          timeout: TIMEOUT_OPTIONS,
          nice: NICE_OPTIONS,
          ionice: IONICE_OPTIONS,
          stdbuf: STDBUF_OPTIONS,
          chrt: CHRT_OPTIONS,
          taskset: TASKSET_OPTIONS,
          xargs: XARGS_OPTIONS,
        };
        const spec = specs[name];
        if (!spec) {
          next = start;
          if (name === "busybox" && words[next]?.text.startsWith("-")) {
            result.wrappers.push(name);
            return result;
          }
          break;
        }
        let from = start;
        if (name === "nice") {
          while (from < words.length && /^-\d+$|^--\d+$/.test((words[from] as Word).text)) from++;
        }
        const scan = scanOptions(words, from, spec);
        if (scan.unknown.length) result.problems.push(unknownOption(name, scan.unknown));
        next = scan.next;
        if (name === "timeout" && next < words.length) next++;
        if (name === "ionice" && hasOption(scan, "-p", "-P", "-u", "--pid", "--pgid", "--uid")) {
          result.wrappers.push(name);
          return result;
        }
        if (name === "chrt") {
          if (hasOption(scan, "-p", "--pid", "-m", "--max")) {
            result.wrappers.push(name);
            return result;
          }
          if (next < words.length && /^\d+$/.test((words[next] as Word).text)) next++;
        }
        if (name === "taskset") {
          if (hasOption(scan, "-p", "--pid")) {
            result.wrappers.push(name);
            return result;
          }
          if (next < words.length) next++;
        }
        if (name === "xargs") {
          result.wrappers.push(name);
          result.appendsArguments = true;
          if (next >= words.length) {
            result.effective = [{ text: "echo", dynamic: false }];
            return result;
          }
          words = words.slice(next);
          i = 0;
          continue;
        }
        break;
      }
      case "command": {
        const scan = scanOptions(words, start, COMMAND_OPTIONS);
        if (hasOption(scan, "-v", "-V")) {
          result.lookupOnly = true;
          result.effective = words.slice(i);
          return result;
        }
        next = scan.next;
        break;
      }
      case "watch": {
        const scan = scanOptions(words, start, WATCH_OPTIONS);
        if (scan.unknown.length) result.problems.push(unknownOption(name, scan.unknown));
        result.wrappers.push(name);
        const rest = words.slice(scan.next);
        if (rest.length === 0) return result;
        words = hasOption(scan, "-x", "--exec") ? rest : shellPayload(joinWords(rest));
        i = 0;
        continue;
      }
      case "flock": {
        const scan = scanOptions(words, start, FLOCK_OPTIONS);
        if (scan.unknown.length) result.problems.push(unknownOption(name, scan.unknown));
        result.wrappers.push(name);
        const command = optionValue(scan, "-c", "--command");
        if (command) {
          words = shellPayload(command);
          i = 0;
          continue;
        }
        let at = scan.next + 1;
        const after = words[at];
        if (after && !after.dynamic && (after.text === "-c" || after.text === "--command")) {
          const payload = words[at + 1];
          if (!payload) return result;
          words = shellPayload(payload);
          i = 0;
          continue;
        }
        if (after && after.text === "--") at++;
        if (at >= words.length) return result;
        words = words.slice(at);
        i = 0;
        continue;
      }
      case "coproc": {
        // `coproc cmd args`, or `coproc [NAME] { list; }` which a simple reading cannot follow.
        next = start;
        const first = words[next];
        const second = words[next + 1];
        const isGroup = (w: Word | undefined): boolean =>
          !!w && !w.dynamic && (w.text === "{" || w.text === "(");
        if (isGroup(first) || (first && /^[A-Za-z_][A-Za-z0-9_]*$/.test(first.text) && isGroup(second))) {
          result.problems.push({
            code: "shell.unknown-construct",
            message: "coproc with a compound command is not analysed exactly",
          });
          next += isGroup(first) ? 1 : 2;
        }
        break;
      }
      case "su": {
        result.wrappers.push(name);
        let command: Word | undefined;
        for (let k = start; k < words.length; k++) {
          const w = words[k] as Word;
          if (w.dynamic) continue;
          if (w.text === "-c" || w.text === "--command" || w.text === "--session-command") {
            command = words[k + 1];
            break;
          }
          if (w.text.startsWith("--command=")) {
            command = { text: w.text.slice("--command=".length), dynamic: false };
            break;
          }
          if (/^-[flmpP]*c$/.test(w.text)) {
            command = words[k + 1];
            break;
          }
        }
        if (!command) {
          result.problems.push(interactive("su"));
          return result;
        }
        words = shellPayload(command);
        i = 0;
        continue;
      }
      default:
        next = start;
    }
    result.wrappers.push(name);
    if (next >= words.length) {
      result.effective = [];
      return result;
    }
    i = next;
  }
  result.effective = i === 0 ? words.slice() : words.slice(i);
  return result;
}

function takeAssignments(words: readonly Word[], from: number, result: UnwrapResult): number {
  let i = from;
  while (i < words.length) {
    const word = words[i] as Word;
    const match = ASSIGNMENT.exec(word.text);
    if (!match) break;
    const name = match[1] as string;
    result.assignments.push({ name, value: word.dynamic ? null : word.text.slice(name.length + 1) });
    i++;
  }
  return i;
}
