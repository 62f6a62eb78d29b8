import { shellName } from "../shell/interpreters.js";
import type { Invocation } from "./argv.js";
import { finding } from "./codes.js";
import type { Finding } from "./types.js";

/**
 * Interpreters with inline-code flags. `letters` are short flags that take code; `valueLetters` take some
 * other value (so a cluster stops there); `longs` are long options that take code.
 */
interface Interpreter {
  letters: string;
  valueLetters: string;
  longs: string[];
  /** Subcommands that evaluate code (`deno eval`). */
  subcommands?: string[];
  /** Options end at the first operand (the script). Default true. */
  stopAtOperand?: boolean;
}

const PYTHON: Interpreter = { letters: "c", valueLetters: "mWXQ", longs: [] };
const NODE: Interpreter = {
  letters: "ep",
  valueLetters: "rC",
  longs: ["eval", "print"],
  stopAtOperand: false,
};
const RUBY: Interpreter = { letters: "e", valueLetters: "CEFIrxXW0", longs: [] };
const PERL: Interpreter = { letters: "eE", valueLetters: "IMmCdDxF0il", longs: [] };

const INTERPRETERS: Record<string, Interpreter> = {
  node: NODE,
  nodejs: NODE,
  "ts-node": NODE,
  tsx: NODE,
  bun: {
    letters: "ep",
    valueLetters: "r",
    longs: ["eval", "print"],
    subcommands: ["eval"],
    stopAtOperand: false,
  },
  deno: { letters: "", valueLetters: "", longs: ["eval"], subcommands: ["eval", "repl"] },
  ruby: RUBY,
  jruby: RUBY,
  perl: PERL,
  php: {
    letters: "rRBE",
    valueLetters: "cdzf",
    longs: ["run", "process-code", "process-begin", "process-end"],
  },
  lua: { letters: "e", valueLetters: "l", longs: [] },
  luajit: { letters: "e", valueLetters: "lj", longs: [] },
  rscript: { letters: "e", valueLetters: "", longs: ["expr"] },
  r: { letters: "e", valueLetters: "", longs: ["expr"] },
  osascript: { letters: "e", valueLetters: "ls", longs: [] },
  julia: { letters: "eE", valueLetters: "JCtp", longs: ["eval", "print"] },
  elixir: { letters: "e", valueLetters: "r", longs: ["eval"] },
  groovy: { letters: "e", valueLetters: "", longs: [] },
  tclsh: { letters: "", valueLetters: "", longs: [] },
};

function interpreterOf(name: string): Interpreter | undefined {
  if (/^(python|pypy)[0-9.]*$/.test(name) || name === "py") return PYTHON;
  return Object.hasOwn(INTERPRETERS, name) ? INTERPRETERS[name] : undefined;
}

/** True for a word that selects PowerShell's `-EncodedCommand` (any unique prefix, `-ec`, any dash or `/`). */
function isEncodedParameter(word: string): boolean {
  const name = powershellParameter(word);
  if (name === undefined) return false;
  return name === "ec" || (name.length >= 1 && "encodedcommand".startsWith(name)) || name === "encoded";
}

function powershellParameter(word: string): string | undefined {
  const m = /^(?:--?|\/)([A-Za-z][A-Za-z0-9]*)(?::.*)?$/.exec(word);
  return m ? m[1]!.toLowerCase() : undefined;
}

/** PowerShell parameters that take a value (so the next word is not a command). */
const PS_VALUE = [
  "executionpolicy",
  "ex",
  "ep",
  "file",
  "configurationname",
  "config",
  "inputformat",
  "if",
  "outputformat",
  "of",
  "o",
  "settingsfile",
  "settings",
  "version",
  "v",
  "workingdirectory",
  "wd",
  "windowstyle",
  "w",
  "custompipename",
  "psconsolefile",
  "encodedarguments",
  "ea",
  "configurationfile",
];

function classifyPowerShell(invocation: Invocation): Finding[] {
  const command = invocation.command;
  const args = invocation.args;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (isEncodedParameter(word)) {
      return [
        finding(
          "inline.encoded",
          `${invocation.name} ${word} runs a Base64-encoded command that cannot be inspected`,
          command,
          word,
        ),
      ];
    }
    const name = powershellParameter(word);
    if (name !== undefined) {
      if (
        name === "c" ||
        name === "cwa" ||
        (name.length >= 2 && ("command".startsWith(name) || "commandwithargs".startsWith(name)))
      ) {
        return [
          finding(
            "inline.code",
            `${invocation.name} ${word} runs PowerShell code given on the command line`,
            command,
            word,
          ),
        ];
      }
      if (name === "f" || "file".startsWith(name)) return [];
      if (PS_VALUE.some((p) => p === name || (name.length >= 2 && p.startsWith(name)))) i++;
      continue;
    }
    if (word === "-") return [];
    // Windows PowerShell runs positional words as a command; pwsh runs the first one as a script file.
    if (invocation.name === "powershell" || invocation.name === "powershell_ise") {
      return [finding("inline.code", `${invocation.name} runs its arguments as a command`, command, word)];
    }
    return [];
  }
  return [];
}

/** Inline code: interpreters given code on the command line, encoded PowerShell, shells with computed `-c`. */
export function classifyInline(invocation: Invocation): Finding[] {
  const name = invocation.name;
  const command = invocation.command;
  if (name === "pwsh" || name === "powershell" || name === "pwsh-preview" || name === "powershell_ise") {
    return classifyPowerShell(invocation);
  }
  if (name === "cmd") {
    const switchIndex = invocation.args.findIndex((w) => /^\/[ck]$/i.test(w) || /^\/[ck]\S/i.test(w));
    return switchIndex >= 0
      ? [
          finding(
            "inline.code",
            "cmd /c runs a command line that is passed as text",
            command,
            invocation.args[switchIndex],
          ),
        ]
      : [];
  }
  if (shellName(name) !== undefined) {
    for (const [i, word] of invocation.args.entries()) {
      if (!word.startsWith("-") || word === "--" || word === "-") break;
      if (/^-[A-Za-z]*c[A-Za-z]*$/.test(word)) {
        const payload = i + 1;
        if (payload >= invocation.args.length || invocation.dynamic.has(payload)) {
          return [
            finding(
              "inline.shell-dynamic",
              `${name} ${word} runs a script computed at run time`,
              command,
              word,
            ),
          ];
        }
        return [];
      }
    }
    return [];
  }
  const interpreter = interpreterOf(name);
  if (interpreter === undefined) return [];
  const out: Finding[] = [];
  const args = invocation.args;
  let sawOperand = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === "--") break;
    if (!word.startsWith("-") || word === "-") {
      const first = !sawOperand;
      sawOperand = true;
      if (first && interpreter.subcommands?.includes(word.toLowerCase())) {
        out.push(
          finding("inline.code", `${name} ${word} runs code given on the command line`, command, word),
        );
        break;
      }
      if (interpreter.stopAtOperand === false) continue;
      break;
    }
    if (word.startsWith("--")) {
      const long = word.slice(2).split("=")[0]!;
      if (interpreter.longs.some((l) => long === l || (long.length >= 2 && l.startsWith(long)))) {
        out.push(
          finding("inline.code", `${name} ${word} runs code given on the command line`, command, word),
        );
        break;
      }
      continue;
    }
    let consumedNext = false;
    for (let j = 1; j < word.length; j++) {
      const letter = word[j]!;
      if (interpreter.letters.includes(letter)) {
        out.push(
          finding("inline.code", `${name} ${word} runs code given on the command line`, command, word),
        );
        return withInPlace(invocation, out);
      }
      if (interpreter.valueLetters.includes(letter)) {
        if (j === word.length - 1 && !(name === "perl" && "il0".includes(letter))) consumedNext = true;
        break;
      }
    }
    if (consumedNext) i++;
  }
  return withInPlace(invocation, out);
}

/** The perl/ruby `-i` flag as written (`-pi`, `-i.bak`), when the command edits files in place. */
export function inPlaceFlag(invocation: Invocation): string | undefined {
  const interpreter = invocation.name === "perl" ? PERL : invocation.name === "ruby" ? RUBY : undefined;
  if (interpreter === undefined) return undefined;
  for (const word of invocation.args) {
    if (word === "--" || !word.startsWith("-") || word.startsWith("--")) {
      if (word.startsWith("--")) continue;
      return undefined;
    }
    for (const letter of word.slice(1)) {
      if (letter === "i") return word;
      if (interpreter.letters.includes(letter) || interpreter.valueLetters.includes(letter)) break;
    }
  }
  return undefined;
}

/** perl/ruby `-i` edits files in place. */
function withInPlace(invocation: Invocation, out: Finding[]): Finding[] {
  const flag = inPlaceFlag(invocation);
  if (flag !== undefined) {
    out.push(
      finding(
        "tool.in-place-edit",
        `${invocation.name} ${flag} rewrites files in place`,
        invocation.command,
        flag,
      ),
    );
  }
  return out;
}
