/**
 * Shells and interpreters: where a shell's `-c` payload sits, and whether a program reads its program text
 * from standard input (`curl … | sh`, `python - <<EOF`).
 */
import { basename, type Word } from "./options.js";
import type { ShellLanguage } from "./types.js";

/** The POSIX family: their `-c` text and script files are POSIX shell text. */
const POSIX_SHELLS: ReadonlySet<string> = new Set([
  "sh",
  "bash",
  "rbash",
  "zsh",
  "rzsh",
  "dash",
  "ksh",
  "ksh93",
  "mksh",
  "lksh",
  "oksh",
  "pdksh",
  "ash",
  "yash",
  "posh",
  "bosh",
]);

/**
 * Every Unix shell Slashi knows by name: the POSIX family, fish and the C shells. A program with one of these
 * names runs its `-c` text and its script file as shell code, so whatever reads a command's programs (the
 * analysis here, the runtime's approval binding) takes its shells from this one list.
 */
export const UNIX_SHELLS: readonly string[] = [...POSIX_SHELLS, "fish", "csh", "tcsh"];

const UNIX_SHELL_SET: ReadonlySet<string> = new Set(UNIX_SHELLS);

const POWERSHELLS: ReadonlySet<string> = new Set(["pwsh", "powershell", "pwsh.exe", "powershell.exe"]);

/**
 * The name in {@link UNIX_SHELLS} a program word stands for, or `undefined` when it is not a Unix shell. Reads
 * the base name in lower case, without `.exe`, and without a version the name carries (`/usr/bin/zsh5` →
 * `zsh`, `bash5.2` → `bash`, `bash-5.2` → `bash`; a listed name such as `ksh93` is kept as it is).
 */
export function shellName(program: string): string | undefined {
  const name = basename(program.replace(/\\/g, "/"))
    .toLowerCase()
    .replace(/\.exe$/, "");
  if (UNIX_SHELL_SET.has(name)) return name;
  const unversioned = name.replace(/-?\d+(\.\d+)*$/, "");
  return unversioned !== name && UNIX_SHELL_SET.has(unversioned) ? unversioned : undefined;
}

/** True for `sh`, `bash`, `zsh`, `dash`, `ksh`… (by base name, any directory, with a version: `bash5.2`). */
export function isPosixShell(program: string): boolean {
  const name = shellName(program);
  return name !== undefined && POSIX_SHELLS.has(name);
}

/** True for any shell Slashi recognises: {@link UNIX_SHELLS} (with versions), PowerShell and cmd. */
export function isShell(program: string): boolean {
  if (shellName(program) !== undefined) return true;
  const name = basename(program).toLowerCase();
  return POWERSHELLS.has(name) || name === "cmd" || name === "cmd.exe";
}

/** A shell's inline payload. */
export interface ShellPayload {
  /** The dialect the payload is written in. */
  language: ShellLanguage;
  /** The payload word. */
  payload: Word;
  /** An encoded payload (`pwsh -EncodedCommand`) that cannot be read. */
  encoded?: boolean;
  /** The option is there but the payload word is not (`xargs bash -c` supplies it at run time). */
  missing?: boolean;
}

const BASH_VALUED_SHORT = new Set(["o", "O"]);
const BASH_VALUED_LONG = new Set(["--rcfile", "--init-file"]);

/**
 * Finds the inline payload of a shell invocation: `bash -c 'x'`, `sh -lc 'x'`, `bash -e -c 'x'`,
 * `zsh -xc 'x'`, `fish -c 'x'`, `pwsh -Command x`, `cmd /c x`.
 * @param argv - the effective words, starting with the shell
 * @returns the payload, or `undefined` when the shell runs no inline payload
 */
export function findShellPayload(argv: readonly Word[]): ShellPayload | undefined {
  const head = argv[0];
  if (!head || head.dynamic) return undefined;
  const name = basename(head.text).toLowerCase();
  const shell = shellName(name);
  if (shell === "fish") return fishPayload(argv);
  if (shell !== undefined && POSIX_SHELLS.has(shell)) return posixPayload(argv);
  if (POWERSHELLS.has(name)) return powershellPayload(argv);
  if (name === "cmd" || name === "cmd.exe") return cmdPayload(argv);
  return undefined;
}

function posixPayload(argv: readonly Word[]): ShellPayload | undefined {
  let command = false;
  let i = 1;
  for (; i < argv.length; i++) {
    const w = argv[i] as Word;
    const t = w.text;
    if (w.dynamic) break;
    if (t === "--" || t === "-") {
      i++;
      break;
    }
    if (t.startsWith("--")) {
      if (BASH_VALUED_LONG.has(t)) i++;
      continue;
    }
    if ((t[0] === "-" || t[0] === "+") && t.length > 1) {
      for (let j = 1; j < t.length; j++) {
        const letter = t[j] as string;
        if (letter === "c") command = true;
        if (BASH_VALUED_SHORT.has(letter)) {
          if (j === t.length - 1) i++;
          break;
        }
      }
      continue;
    }
    break;
  }
  if (!command) return undefined;
  const payload = argv[i];
  return payload
    ? { language: "bash", payload }
    : { language: "bash", payload: { text: "", dynamic: false }, missing: true };
}

function fishPayload(argv: readonly Word[]): ShellPayload | undefined {
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] as Word;
    if (w.dynamic) continue;
    if (w.text === "-c" || w.text === "--command" || w.text === "-C" || w.text === "--init-command") {
      return { language: "fish", payload: argv[i + 1] ?? { text: "", dynamic: false } };
    }
    if (w.text.startsWith("--command=") || w.text.startsWith("--init-command=")) {
      return { language: "fish", payload: { text: w.text.slice(w.text.indexOf("=") + 1), dynamic: false } };
    }
  }
  return undefined;
}

function powershellPayload(argv: readonly Word[]): ShellPayload | undefined {
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] as Word;
    if (w.dynamic) continue;
    const t = w.text.toLowerCase();
    if (!t.startsWith("-") && !t.startsWith("/")) {
      return undefined;
    }
    const option = t.replace(/^[-/]+/, "");
    if (option === "e" || option === "ec" || (option.length >= 2 && "encodedcommand".startsWith(option))) {
      return { language: "powershell", payload: argv[i + 1] ?? { text: "", dynamic: false }, encoded: true };
    }
    if (option === "c" || (option.length >= 2 && "command".startsWith(option))) {
      const rest = argv.slice(i + 1);
      return {
        language: "powershell",
        payload: { text: rest.map((r) => r.text).join(" "), dynamic: rest.some((r) => r.dynamic) },
      };
    }
    if (
      ["executionpolicy", "ex", "ep", "file", "f", "workingdirectory", "wd", "configurationname"].includes(
        option,
      )
    ) {
      i++;
    }
  }
  return undefined;
}

function cmdPayload(argv: readonly Word[]): ShellPayload | undefined {
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] as Word;
    if (w.dynamic) continue;
    const t = w.text.toLowerCase();
    if (t === "/c" || t === "/k" || t === "/r") {
      const rest = argv.slice(i + 1);
      return {
        language: "cmd",
        payload: { text: rest.map((r) => r.text).join(" "), dynamic: rest.some((r) => r.dynamic) },
      };
    }
  }
  return undefined;
}

const PYTHON = /^(python[0-9.]*|pypy[0-9.]*)$/;
const INTERPRETER_INLINE: ReadonlyMap<string, RegExp> = new Map([
  ["node", /^-(e|p|-eval|-print)$|^--(eval|print)=/],
  ["nodejs", /^-(e|p|-eval|-print)$|^--(eval|print)=/],
  ["perl", /^-[a-zA-Z]*[eE]/],
  ["ruby", /^-[a-zA-Z]*e/],
  ["php", /^-[a-zA-Z]*r/],
  ["lua", /^-[a-zA-Z]*e/],
  ["osascript", /^-e$/],
]);

/**
 * True when a program reads the program text it runs from standard input: a shell with no script and no
 * `-c` (or with `-s`), `python`/`python -`, `node`, `perl`, `ruby`, `php`, `osascript` with no script.
 * @param argv - the effective words
 */
export function readsProgramFromStdin(argv: readonly Word[]): boolean {
  const head = argv[0];
  if (!head || head.dynamic) return false;
  const name = basename(head.text).toLowerCase();
  const shell = shellName(name);
  if (shell !== undefined && (POSIX_SHELLS.has(shell) || shell === "fish")) {
    if (findShellPayload(argv)) return false;
    return scriptOperand(argv, (t) => t === "-s" || /^-[a-zA-Z]*s[a-zA-Z]*$/.test(t));
  }
  if (POWERSHELLS.has(name)) {
    const lower = argv.slice(1).map((w) => w.text.toLowerCase());
    const c = lower.findIndex((t) => t === "-c" || t === "-command");
    return c >= 0 ? lower[c + 1] === "-" : lower.length === 0;
  }
  if (name === "source" || name === ".") {
    const target = argv[1]?.text;
    return (
      target === "/dev/stdin" || target === "-" || target === "/proc/self/fd/0" || target === "/dev/fd/0"
    );
  }
  if (PYTHON.test(name)) {
    for (let i = 1; i < argv.length; i++) {
      const t = (argv[i] as Word).text;
      if (t === "-") return true;
      if (t === "-c" || t === "-m" || /^-[A-Za-z]*[cm]/.test(t)) return false;
      if (t === "-W" || t === "-X" || t === "-Q") {
        i++;
        continue;
      }
      if (!t.startsWith("-")) return t === "/dev/stdin";
    }
    return true;
  }
  const inline = INTERPRETER_INLINE.get(name);
  if (inline) {
    for (let i = 1; i < argv.length; i++) {
      const t = (argv[i] as Word).text;
      if (t === "-" || t === "/dev/stdin") return true;
      if (inline.test(t)) return false;
      if (name === "node" && (t === "-r" || t === "--require" || t === "--import")) {
        i++;
        continue;
      }
      if (!t.startsWith("-")) return false;
    }
    return true;
  }
  return false;
}

function scriptOperand(argv: readonly Word[], readsStdin: (option: string) => boolean): boolean {
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] as Word;
    const t = w.text;
    if (w.dynamic) return false;
    if (readsStdin(t)) return true;
    if (t === "-" || t === "/dev/stdin") return true;
    if (t === "--") return i + 1 >= argv.length || argv[i + 1]?.text === "/dev/stdin";
    if (t.startsWith("--")) {
      if (BASH_VALUED_LONG.has(t)) i++;
      continue;
    }
    if ((t[0] === "-" || t[0] === "+") && t.length > 1) {
      if (/[oO]$/.test(t)) i++;
      continue;
    }
    return false;
  }
  return true;
}

const DOWNLOADERS: ReadonlySet<string> = new Set([
  "curl",
  "wget",
  "wget2",
  "fetch",
  "aria2c",
  "http",
  "https",
  "xh",
  "xhs",
  "lwp-request",
  "lwp-download",
  "GET",
]);

/** True for programs that download from the network to their output (`curl`, `wget`, `fetch`…). */
export function isDownloader(program: string): boolean {
  return DOWNLOADERS.has(basename(program));
}
