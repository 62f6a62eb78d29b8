/**
 * fish, PowerShell and cmd: no full parser. A conservative tokenizer accepts only plain words separated by
 * spaces or tabs; anything that could quote, expand, chain, redirect or substitute makes the analysis
 * incomplete with a `shell.unsupported-syntax` finding, so a decision can never be `allow` on a guess.
 */
import { unwrapRunners } from "./runners.js";
import type { ExtractedCommand, ShellAnalysis, ShellLanguage } from "./types.js";

/**
 * Characters with a meaning in each dialect (quotes, expansions, operators, comments, escapes).
 * PowerShell also treats typographic quotes (U+2018-U+201E) and dashes (U+2013-U+2015) as syntax; those and
 * every other non-ASCII character are refused by the ASCII check.
 */
const UNSAFE: Record<Exclude<ShellLanguage, "bash">, RegExp> = {
  powershell: /[$`(){};|&<>@'"#,[\]]/,
  cmd: /[%!^&|<>()";]/,
  fish: /[$()|;&<>*?{}'"\\#~[\]`]/,
};

const NOT_PLAIN_ASCII = /[^\x20-\x7e\t]/;

function unsupported(language: ShellLanguage, reason: string): ShellAnalysis {
  return {
    language,
    commands: [],
    findings: [
      {
        code: "shell.unsupported-syntax",
        severity: "ask",
        message: `${language} ${reason}: Slashi analyses only plain words in this dialect`,
      },
    ],
    incomplete: true,
  };
}

/**
 * Analyses a fish, PowerShell or cmd command line with a plain-word tokenizer.
 * @param script - the command line
 * @param language - `fish`, `powershell` or `cmd`
 */
export function analyzeDialect(script: string, language: ShellLanguage): ShellAnalysis {
  if (language === "bash") throw new TypeError("analyzeDialect does not handle bash");
  const unsafe = UNSAFE[language];
  if (!unsafe) return unsupported(language, "is not a known dialect");
  const trimmed = script.replace(/^[ \t]+|[ \t]+$/g, "");
  if (trimmed === "") return { language, commands: [], findings: [], incomplete: false };
  if (NOT_PLAIN_ASCII.test(trimmed)) {
    return unsupported(language, "text contains a line break, a control character or a non-ASCII character");
  }
  const bad = unsafe.exec(trimmed);
  if (bad) return unsupported(language, `text uses the character ${JSON.stringify(bad[0])}`);
  const argv = trimmed.split(/[ \t]+/);
  let effective = argv;
  let wrappers: string[] = [];
  let lookupOnly = false;
  if (language === "fish") {
    const unwrapped = unwrapRunners(argv.map((text) => ({ text, dynamic: false })));
    effective = unwrapped.effective.map((w) => w.text);
    wrappers = unwrapped.wrappers;
    lookupOnly = unwrapped.lookupOnly;
  }
  const command: ExtractedCommand = {
    text: trimmed,
    argv,
    dynamic: [],
    assignments: [],
    redirects: [],
    wrappers,
    effective,
    staticProgram: true,
    context: wrappers.length ? ["wrapped"] : [],
    lookupOnly,
    effectiveDynamic: [],
    tildes: [],
  };
  return { language, commands: [command], findings: [], incomplete: false };
}
