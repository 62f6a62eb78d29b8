/**
 * A makefile read for what it runs, the way GNU make reads it, as far as that can be pinned without running make:
 * its logical lines, the files it includes, its variables (from the makefile, the command line, the environment
 * and make's built-in defaults), the recipe lines and the `$(shell …)`/`!=` commands, each with make's own `$`
 * references expanded. A reference whose value cannot be pinned (a function's result, an automatic variable, a
 * variable defined more than once) becomes {@link UNPINNED}, which the shell analysis sees as a word known only at
 * run time (and which stays recognisable inside quotes, see {@link namedByMake}).
 */

/** What an unpinned make reference expands to in the text handed to the shell analysis. */
export const UNPINNED = "${__slashi_make_unpinned}";

/** True when a word holds a make reference whose value could not be pinned. */
export function namedByMake(word: string): boolean {
  return word.includes("__slashi_make_unpinned");
}

/** Logical lines of a makefile: backslash-newline joined, comments cut, recipe lines (tab) left out. */
export function makefileLines(text: string): string[] {
  return text
    .replace(/\\\r?\n/g, " ")
    .split(/\r?\n/)
    .filter((line) => !line.startsWith("\t"))
    .map((line) => line.replace(/(^|[^\\])#.*$/, "$1"));
}

/** The words of the `include`/`-include`/`sinclude` lines, in order. */
export function includeWords(text: string): string[] {
  const out: string[] = [];
  for (const line of makefileLines(text)) {
    const match = /^\s*(?:-include|sinclude|include)\s+(.*)$/.exec(line);
    if (match)
      out.push(
        ...(match[1] ?? "")
          .trim()
          .split(/\s+/)
          .filter((w) => w !== ""),
      );
  }
  return out;
}

/** Why a makefile cannot be read for what it includes or runs, or `undefined`. */
export function makefileRefusal(text: string, file: string): string | undefined {
  for (const line of makefileLines(text)) {
    if (/\$[({]eval\b/.test(line))
      return `${file} uses $(eval …), which can include files only known when make runs`;
    if (/^\s*-?load\s/.test(line)) return `${file} loads a shared object (load)`;
    if (/^\s*\.RECIPEPREFIX\b/.test(line)) return `${file} changes the recipe prefix (.RECIPEPREFIX)`;
  }
  return undefined;
}

/** One variable as the makefiles define it. */
interface Defined {
  /** Every plain assignment's value (`=`, `:=`, `::=`, `:::=`), then `+=` appended to the last one. */
  values: string[];
  /** Only `?=`: used when neither the command line nor the environment sets it. */
  conditional?: string;
  /** Defined with `override`: the command line does not win. */
  override: boolean;
  /** Set per target or pattern, or by `!=`: its value depends on what runs. */
  varies: boolean;
}

/** The variables GNU make defines itself (`make -p`), as far as a recipe's program is concerned. */
const BUILT_IN: Readonly<Record<string, string>> = {
  CC: "cc",
  CXX: "g++",
  CPP: "$(CC) -E",
  FC: "f77",
  LD: "ld",
  AR: "ar",
  AS: "as",
  RM: "rm -f",
  MAKE: "make",
  SHELL: "/bin/sh",
  YACC: "yacc",
  LEX: "lex",
  MAKEINFO: "makeinfo",
  TEX: "tex",
  CO: "co",
  GET: "get",
};

/** Make's functions: a reference `$(name …)` calls one. */
const FUNCTIONS = new Set(
  (
    "subst patsubst strip findstring filter filter-out sort word wordlist words firstword lastword dir notdir " +
    "suffix basename addsuffix addprefix join wildcard realpath abspath error warning info shell origin flavor " +
    "foreach if or and call eval file value guile let intcmp"
  ).split(" "),
);

const ASSIGNMENT =
  /^\s*((?:override|export|private|\s)*)([^\s:#=!?+$()]+)\s*(:::=|::=|:=|\?=|\+=|!=|=)\s?(.*)$/;
const TARGET_ASSIGNMENT =
  /^[^=\t#]*[^:=]:(?!=)\s*(?:override\s+|export\s+|private\s+)*([^\s:#=!?+]+)\s*(?:[:!?+]*=)/;

/** What make knows when it expands a reference. */
export interface MakeScope {
  /** Definitions from the makefiles (and the files they include). */
  defined: Map<string, Defined>;
  /** `NAME=value` on make's command line. */
  overrides: Readonly<Record<string, string>>;
  /** The environment make runs with. */
  env: Readonly<Record<string, string | undefined>>;
  /** Commands make runs while it reads the makefile or expands a recipe (`$(shell …)`, `!=`), expanded. */
  shells: string[];
}

/** Every plain and `define` assignment of the makefiles' texts, with what make's command line sets. */
export function makeScope(
  texts: readonly string[],
  overrides: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>>,
): MakeScope {
  const defined = new Map<string, Defined>();
  const entry = (name: string): Defined => {
    let got = defined.get(name);
    if (!got) defined.set(name, (got = { values: [], override: false, varies: false }));
    return got;
  };
  const shellAssignments: string[] = [];
  for (const text of texts) {
    const lines = text.replace(/\\\r?\n/g, " ").split(/\r?\n/);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      if (line.startsWith("\t")) continue;
      const uncommented = line.replace(/(^|[^\\])#.*$/, "$1");
      const define = /^\s*((?:override|export|private|\s)*)define\s+([^\s:#=!?+]+)\s*(?:[:!?+]*=)?\s*$/.exec(
        uncommented,
      );
      if (define) {
        const body: string[] = [];
        for (i++; i < lines.length && !/^\s*endef\b/.test(lines[i] as string); i++)
          body.push(lines[i] as string);
        const got = entry(define[2] as string);
        got.values.push(body.join("\n"));
        got.override ||= (define[1] ?? "").includes("override");
        continue;
      }
      const target = TARGET_ASSIGNMENT.exec(uncommented);
      if (target) {
        entry(target[1] as string).varies = true;
        continue;
      }
      const match = ASSIGNMENT.exec(uncommented);
      if (!match) continue;
      const [, modifiers = "", name = "", op = "=", value = ""] = match;
      const got = entry(name);
      got.override ||= modifiers.includes("override");
      if (op === "?=") got.conditional = value.trim();
      else if (op === "!=") {
        got.varies = true;
        shellAssignments.push(value);
      } else if (op === "+=" && got.values.length > 0) {
        const last = got.values.length - 1;
        got.values[last] = `${got.values[last] as string} ${value.trim()}`;
      } else got.values.push(value.trim());
    }
  }
  const scope: MakeScope = { defined, overrides, env, shells: [] };
  for (const command of shellAssignments) scope.shells.push(expandMake(command, scope));
  return scope;
}

/** The value make gives a variable, or `undefined` when it cannot be pinned. */
function valueOf(name: string, scope: MakeScope): string | undefined {
  const got = scope.defined.get(name);
  if (got?.varies === true) return undefined;
  if (Object.hasOwn(scope.overrides, name) && got?.override !== true) return scope.overrides[name];
  if (got !== undefined && got.values.length > 1 && new Set(got.values).size > 1) return undefined;
  if (got !== undefined && got.values.length === 1) return got.values[0];
  const fromEnv = scope.env[name];
  // make takes SHELL from the makefile only, never from the environment.
  if (fromEnv !== undefined && name !== "SHELL" && name !== "MAKEFLAGS") return fromEnv;
  if (got?.conditional !== undefined) return got.conditional;
  return BUILT_IN[name] ?? "";
}

/** Index of the bracket that closes the one at `open`, or -1. */
function closing(text: string, open: number): number {
  const pair = text[open] === "(" ? ")" : "}";
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === text[open]) depth++;
    else if (text[i] === pair && --depth === 0) return i;
  }
  return -1;
}

/**
 * `text` with make's `$` references expanded as make would before handing a recipe line to the shell: `$$` is
 * `$`, a variable reference its value (expanded again), and {@link UNPINNED} for what cannot be pinned. The
 * commands of `$(shell …)` references are added to `scope.shells`.
 */
export function expandMake(text: string, scope: MakeScope, depth = 0): string {
  if (depth > 16) return UNPINNED;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (char !== "$") {
      out += char;
      continue;
    }
    const next = text[i + 1];
    if (next === undefined) break;
    if (next === "$") {
      out += "$";
      i++;
      continue;
    }
    if (next !== "(" && next !== "{") {
      // $@, $<, $^ … are automatic; $X is the variable X.
      out += /[@<^?*+|%]/.test(next)
        ? UNPINNED
        : expandMake(valueOf(next, scope) ?? UNPINNED, scope, depth + 1);
      i++;
      continue;
    }
    const end = closing(text, i + 1);
    if (end < 0) return `${out}${UNPINNED}`;
    const inner = text.slice(i + 2, end);
    i = end;
    const fn = /^([a-z-]+)[ \t]/.exec(inner);
    if (fn && FUNCTIONS.has(fn[1] as string)) {
      if (fn[1] === "shell") scope.shells.push(expandMake(inner.slice(fn[0].length), scope, depth + 1));
      out += UNPINNED;
      continue;
    }
    if (/[$:]/.test(inner) || /^[@<^?*+|%][DF]$/.test(inner)) {
      out += UNPINNED;
      continue;
    }
    const value = valueOf(inner, scope);
    out += value === undefined ? UNPINNED : expandMake(value, scope, depth + 1);
  }
  return out;
}

/**
 * The recipe lines of a makefile's text, each as the shell receives it (continuation lines joined, the `@`, `-`
 * and `+` prefixes dropped), not yet expanded: tab-led lines after a rule, and the recipe after `;` on a rule line.
 */
export function recipeLines(text: string): string[] {
  const out: string[] = [];
  const lines = text.split(/\r?\n/);
  let inDefine = false;
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i] as string;
    while (line.endsWith("\\") && i + 1 < lines.length)
      line = `${line}\n${(lines[++i] as string).replace(/^\t/, "")}`;
    if (/^\s*define\s/.test(line)) inDefine = true;
    if (inDefine) {
      if (/^\s*endef\b/.test(line)) inDefine = false;
      continue;
    }
    if (line.startsWith("\t")) {
      const body = line.slice(1).replace(/^[\s@+-]*/, "");
      if (body.trim() !== "" && !body.trimStart().startsWith("#")) out.push(body);
      continue;
    }
    const rule = /^([^=\t#;]*[^:=;]):(?!=)[^=;]*;(.*)$/.exec(line.replace(/(^|[^\\])#.*$/, "$1"));
    if (rule) {
      const body = (rule[2] ?? "").replace(/^[\s@+-]*/, "");
      if (body.trim() !== "") out.push(body);
    }
  }
  return out;
}

/** Shells a makefile's `SHELL` may name: recipe lines are read as POSIX shell text. */
const SYSTEM_SHELLS = new Set([
  "/bin/sh",
  "/bin/bash",
  "/usr/bin/bash",
  "/bin/dash",
  "/usr/bin/dash",
  "/usr/bin/sh",
]);

/** Why the recipe lines cannot be read as what runs (a `SHELL` or `.SHELLFLAGS` of the makefile), or `undefined`. */
export function recipeShellRefusal(scope: MakeScope, file: string): string | undefined {
  const shell = valueOf("SHELL", scope);
  if (shell === undefined || !SYSTEM_SHELLS.has(expandMake(shell, scope).trim()))
    return `${file} sets SHELL, the program that runs every recipe line`;
  if (scope.defined.has(".SHELLFLAGS")) {
    const flags = valueOf(".SHELLFLAGS", scope);
    if (flags === undefined || !/^-[a-z]*c$/.test(expandMake(flags, scope).trim()))
      return `${file} sets .SHELLFLAGS, which can make the shell load other files`;
  }
  if (scope.defined.has("PATH") || Object.hasOwn(scope.overrides, "PATH"))
    return `${file} sets PATH, so the programs its recipes run by name may be files of the repository`;
  return undefined;
}
