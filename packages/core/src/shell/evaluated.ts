/**
 * Words bash evaluates as code although they read as data. Array subscripts, arithmetic (`$((…))`, `((…))`,
 * `let`, `[[ a -eq b ]]`, `${x:offset:length}`, `declare -i` values) and variable names given to builtins
 * (`test -v`, `printf -v`, `read`, `unset`, `declare -n`…) are evaluated, and a `$(…)` or backtick inside them
 * runs, even when the text came from single quotes or from a variable. Such a word is safe only when it is a
 * plain literal: an identifier, an integer, or arithmetic with no `$`, backtick, quote, `[` or `\`.
 */
import type { SNode } from "./snode.js";
import { basename } from "./options.js";
import type { ExtractedCommand } from "./types.js";

/** Identifiers, integers (with bases), operators, parentheses and white space: arithmetic that runs nothing. */
const PLAIN_ARITHMETIC = /^[A-Za-z0-9_\s+\-*/%<>=!&|^~?:,()#;]*$/;

/** Glob characters: a loop item or array element holding one takes file names as values. */
const GLOB = /[*?[]/;

/**
 * Variables bash fills from data rather than from text the line spells: the last argument of the previous
 * command (`$_`), what `read`/`select`/`mapfile` read, `[[ =~ ]]` captures, `getopts` values, the arguments and
 * text of the running command. Read inside arithmetic, their values are evaluated as code.
 */
export const DATA_VARIABLES: ReadonlySet<string> = new Set([
  "_",
  "REPLY",
  "MAPFILE",
  "BASH_REMATCH",
  "OPTARG",
  "BASH_ARGV",
  "BASH_COMMAND",
  "BASH_EXECUTION_STRING",
  "BASH_SOURCE",
  "FUNCNAME",
  "COPROC",
  "DIRSTACK",
  "READLINE_LINE",
  "COMP_LINE",
  "COMP_WORDS",
  "COMPREPLY",
]);

/**
 * The {@link DATA_VARIABLES} bash fills only inside constructs outside the POSIX subset: `[[ =~ ]]` captures,
 * `coproc`, programmable completion and `bind -x`. A POSIX shell never fills them (dash has none of these), and
 * under a POSIX shell the constructs ask on their own (`shell.dialect-syntax`), so arithmetic reading them there
 * reads an empty or plain value.
 */
export const BASH_SYNTAX_DATA_VARIABLES: ReadonlySet<string> = new Set([
  "BASH_REMATCH",
  "COPROC",
  "READLINE_LINE",
  "COMP_LINE",
  "COMP_WORDS",
  "COMPREPLY",
]);

/** A variable name bash accepts. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `[[ … ]]` operators that evaluate both operands arithmetically. */
const ARITHMETIC_TESTS: ReadonlySet<string> = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);

/** Unary test operators whose operand is a variable name, subscript evaluated (`-v 'a[$(cmd)]'`). */
const NAME_TESTS: ReadonlySet<string> = new Set(["-v", "-R"]);

/** True when `text` is arithmetic that evaluates no subscript, expansion or substitution. */
export function isPlainArithmetic(text: string): boolean {
  return PLAIN_ARITHMETIC.test(text);
}

/** {@link isPlainArithmetic}, recording the names the arithmetic reads. */
function plainArithmetic(text: string, names: Set<string>): boolean {
  if (!PLAIN_ARITHMETIC.test(text)) return false;
  arithmeticNames(text, names);
  return true;
}

/** True when `text` is a plain variable name (no subscript). */
export function isPlainName(text: string): boolean {
  return IDENTIFIER.test(text);
}

/** The evaluated words of a parsed script. */
export interface EvaluatedWords {
  /** One description per evaluated word that is not a plain literal, in source order. */
  problems: string[];
  /**
   * Variable names read inside plain arithmetic: bash evaluates their values as arithmetic too, so a value
   * with a subscript set earlier in the line (`x='a[$(cmd)]'; echo $((x))`) runs code.
   */
  names: Set<string>;
  /**
   * Variables given values that are not plain arithmetic by a loop (`for x in 'a[$(cmd)]'`) or an expansion
   * (`${x:='a[$(cmd)]'}`).
   */
  assigned: Set<string>;
  /**
   * Variables set other than by an assignment word: by an expansion (`${name=…}`, `${name:=…}`, zsh's
   * `${name::=…}`) or as a loop variable (`for name in …`).
   */
  otherAssigned: Set<string>;
  /**
   * For variables given plain arithmetic values (a loop over `b c`, `${x:=b}`): the names those values read.
   * Arithmetic evaluates a name's value as arithmetic, so a name read through another one counts as read.
   */
  valueNames: Map<string, Set<string>>;
}

/** Finds the words of a parsed script that bash evaluates (arithmetic, subscripts, `${!…}`, `[[ … ]]`). */
export function evaluatedNodes(root: SNode): EvaluatedWords {
  const out: EvaluatedWords = {
    problems: [],
    names: new Set(),
    assigned: new Set(),
    otherAssigned: new Set(),
    valueNames: new Map(),
  };
  visit(root, out, false);
  return out;
}

/** Adds the identifiers of plain arithmetic to `names`. */
export function arithmeticNames(text: string, names: Set<string>): void {
  for (const m of text.matchAll(/(?<![0-9A-Za-z_#])[A-Za-z_][A-Za-z0-9_]*/g)) names.add(m[0]);
}

function visit(node: SNode, out: EvaluatedWords, inExpansion: boolean): void {
  const problem = nodeProblem(node, inExpansion, out.names, out.assigned);
  if (problem !== undefined) out.problems.push(problem);
  const type = node.type;
  if (type === "heredoc_body" && node.namedChildren.length === 0) return;
  const expansion = type === "expansion";
  if (expansion) {
    const assigns = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?:{0,2}=(.*)\}$/s.exec(node.text);
    if (assigns) {
      out.otherAssigned.add(assigns[1]!);
      if (!PLAIN_ARITHMETIC.test(assigns[2]!)) out.assigned.add(assigns[1]!);
      else addValueNames(out.valueNames, assigns[1]!, assigns[2]!);
    }
  } else if (type === "for_statement") {
    const variable = node.namedChildren[0];
    if (variable?.type === "variable_name") {
      out.otherAssigned.add(variable.text);
      for (const item of node.namedChildren.slice(1)) {
        if (item.type !== "do_group" && item.type !== "comment") {
          addValueNames(out.valueNames, variable.text, item.text);
        }
      }
    }
  }
  for (const child of node.children) if (child.isNamed) visit(child, out, expansion);
}

/** Records the names a plain arithmetic `value` given to `name` reads. */
export function addValueNames(map: Map<string, Set<string>>, name: string, value: string): void {
  let names = map.get(name);
  if (names === undefined) map.set(name, (names = new Set()));
  arithmeticNames(value, names);
}

/**
 * The names arithmetic reads, directly or through the plain values given to them (`x=b; $((x))` evaluates
 * `b`'s value too).
 */
export function namesReadThrough(
  read: ReadonlySet<string>,
  valueNames: ReadonlyMap<string, ReadonlySet<string>>,
): Set<string> {
  const out = new Set(read);
  const queue = [...read];
  while (queue.length) {
    for (const next of valueNames.get(queue.pop() as string) ?? []) {
      if (out.has(next)) continue;
      out.add(next);
      queue.push(next);
    }
  }
  return out;
}

function nodeProblem(
  node: SNode,
  inExpansion: boolean,
  names: Set<string>,
  assigned: Set<string>,
): string | undefined {
  const plain = (t: string): boolean => plainArithmetic(t, names);
  const text = node.text;
  switch (node.type) {
    case "arithmetic_expansion": {
      const inner = text.startsWith("$((") ? text.slice(3, -2) : text.slice(2, -1);
      return plain(inner) ? undefined : `the arithmetic ${text} is evaluated as code`;
    }
    case "compound_statement":
      if (!text.startsWith("((")) return undefined;
      return plain(text.slice(2, text.endsWith("))") ? -2 : undefined))
        ? undefined
        : `the arithmetic command ${text} is evaluated as code`;
    case "c_style_for_statement": {
      for (const child of node.namedChildren) {
        if (child.type === "do_group" || child.type === "compound_statement") continue;
        if (!plain(child.text)) return `the arithmetic of the loop header ${child.text} is evaluated as code`;
      }
      return undefined;
    }
    case "subscript": {
      if (inExpansion) return undefined;
      const open = text.indexOf("[");
      const value = open < 0 ? "" : text.slice(open + 1, text.lastIndexOf("]"));
      return plain(value) ? undefined : `the array subscript in ${text} is evaluated as code`;
    }
    case "array":
      for (const element of node.namedChildren) {
        const index = compoundIndex(element.text);
        if (index !== undefined && !plain(index)) {
          return `the array subscript in ${element.text} is evaluated as code`;
        }
      }
      return undefined;
    case "expansion":
      return expansionProblem(text, names);
    case "test_command":
      return conditionalProblem(node, names, text.startsWith("[["));
    case "for_statement": {
      const [variable, ...items] = node.namedChildren.filter(
        (k) => k.type !== "do_group" && k.type !== "comment",
      );
      // `select` sets its variable and REPLY from what it reads; a glob item takes file names as values
      if (variable && (text.startsWith("select") || items.some((k) => !isLiteralItem(k.text)))) {
        assigned.add(variable.text);
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** A loop item or array element whose values are its own text: plain arithmetic and no glob. */
export function isLiteralItem(text: string): boolean {
  return PLAIN_ARITHMETIC.test(text) && !GLOB.test(text);
}

/** The index of a compound-assignment element `[index]=value`, if it is one. */
function compoundIndex(text: string): string | undefined {
  if (!text.startsWith("[")) return undefined;
  const end = closingBracket(text, 0);
  if (end < 0) return text;
  return /^\+?=/.test(text.slice(end + 1)) ? text.slice(1, end) : undefined;
}

/** Index of the `]` closing the `[` at `open`, or -1. */
function closingBracket(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "[") depth++;
    else if (c === "]" && --depth === 0) return i;
  }
  return -1;
}

/**
 * `${!name}` (indirection), `${a[index]}` and `${#a[index]}` (subscripts), `${x:offset:length}` (arithmetic).
 * `${!prefix*}`, `${!prefix@}` and `${!a[@]}` list names or keys and evaluate nothing.
 */
function expansionProblem(text: string, names: Set<string>): string | undefined {
  const plain = (t: string): boolean => plainArithmetic(t, names);
  let body = text.slice(2, text.endsWith("}") ? -1 : undefined);
  if (body.startsWith("!")) {
    if (/^![A-Za-z_][A-Za-z0-9_]*(?:[*@]|\[[*@]\])$/.test(body)) return undefined;
    return `the indirect expansion ${text} evaluates a variable's value as a name`;
  }
  if (body.startsWith("#") && body.length > 1) body = body.slice(1);
  const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])/.exec(body);
  if (!name) return undefined;
  let rest = body.slice(name[0].length);
  if (rest.startsWith("[")) {
    const end = closingBracket(rest, 0);
    if (end < 0) return `the array subscript in ${text} is evaluated as code`;
    const index = rest.slice(1, end);
    if (index !== "@" && index !== "*" && !plain(index)) {
      return `the array subscript in ${text} is evaluated as code`;
    }
    rest = rest.slice(end + 1);
  }
  if (rest.startsWith(":") && !/^:[-=?+]/.test(rest) && !plain(rest.slice(1))) {
    return `the offset or length in ${text} is evaluated as code`;
  }
  return undefined;
}

/**
 * `[[ a -eq b ]]` evaluates both operands; `[[ -v name ]]` and `[ -v name ]` evaluate the name's subscript.
 * @param arithmetic - the brackets are `[[`, whose comparisons are arithmetic (`[`'s only take integers)
 */
function conditionalProblem(node: SNode, names: Set<string>, arithmetic: boolean): string | undefined {
  const plain = (t: string): boolean => plainArithmetic(t, names);
  const stack: SNode[] = [node];
  while (stack.length) {
    const n = stack.pop() as SNode;
    const kids = n.namedChildren;
    const operator = kids.find((k) => k.type === "test_operator");
    if (arithmetic && n.type === "binary_expression" && operator && ARITHMETIC_TESTS.has(operator.text)) {
      for (const operand of kids) {
        if (operand !== operator && !plain(operand.text)) {
          return `the operand ${operand.text} of ${operator.text} is evaluated as arithmetic`;
        }
      }
    }
    if (n.type === "unary_expression") {
      const op = n.namedChildren[0];
      const operand = n.namedChildren[1];
      if (op && NAME_TESTS.has(op.text) && !(operand && isPlainName(operand.text))) {
        return `the operand of ${op.text} in ${node.text} is evaluated as a name`;
      }
    }
    for (const child of n.namedChildren) stack.push(child);
  }
  return undefined;
}

/** Builtins that store input in the variables they are given (`read x`, `printf -v x`, `mapfile a`…). */
export const SETS_NAMES: ReadonlySet<string> = new Set([
  "read",
  "mapfile",
  "readarray",
  "printf",
  "getopts",
  "wait",
]);

/** Builtin options that take a value (the value is not a name), per builtin. */
const VALUE_OPTIONS: Readonly<Record<string, string>> = {
  read: "dinNptu",
  mapfile: "dnOsuc",
  readarray: "dnOsuc",
};

/**
 * Finds an argument of a builtin that bash evaluates as a name or as arithmetic and that is not a plain
 * literal: `test -v`/`[ -v`, `let`, `printf -v`, `read` names and `-a`, `mapfile`/`readarray` (and their
 * `-C` callback, which is code), `unset`, `wait -p`, `getopts`, and the names and values of `declare`,
 * `typeset`, `local`, `export` and `readonly`.
 * @returns a description, or undefined when every such word is plain
 */
export function evaluatedArgument(cmd: ExtractedCommand, names: Set<string>): string | undefined {
  const words = cmd.effective;
  const head = words[0];
  if (head === undefined || !cmd.staticProgram || cmd.lookupOnly) return undefined;
  const dynamic = new Set(cmd.effectiveDynamic ?? []);
  const program = basename(head);
  const plainName = (k: number): boolean => !dynamic.has(k) && isPlainName(words[k] ?? "");
  const plainWord = (k: number): boolean => !dynamic.has(k) && plainArithmetic(words[k] ?? "", names);
  const name = (k: number): string => `${program} evaluates ${words[k] ?? "its argument"} as a variable name`;
  switch (program) {
    case "test":
    case "[":
      for (let k = 1; k < words.length - 1; k++) {
        if (!dynamic.has(k) && NAME_TESTS.has(words[k] as string) && !plainName(k + 1)) return name(k + 1);
      }
      return undefined;
    case "let":
      for (let k = 1; k < words.length; k++) {
        if (!plainWord(k)) return `let evaluates ${words[k] ?? ""} as arithmetic`;
      }
      return undefined;
    case "printf":
      return nameOptions(words, dynamic, "v", "v", plainName, name);
    case "wait":
      return nameOptions(words, dynamic, "p", "p", plainName, name);
    case "read":
    case "mapfile":
    case "readarray":
      return readNames(program, words, dynamic, plainName, name);
    case "unset":
      for (let k = 1; k < words.length; k++) {
        if ((words[k] as string).startsWith("-") && !dynamic.has(k)) continue;
        if (!plainName(k)) return name(k);
      }
      return undefined;
    case "getopts":
      return words.length > 2 && !plainName(2) ? name(2) : undefined;
    case "declare":
    case "typeset":
    case "local":
    case "export":
    case "readonly":
      return declarationProblem(program, words, dynamic, names);
    default:
      return undefined;
  }
}

/** Options whose value is a name (`printf -v NAME`, `-vNAME`, `wait -p NAME`), clusters included. */
function nameOptions(
  words: readonly string[],
  dynamic: ReadonlySet<number>,
  letters: string,
  nameLetters: string,
  plainName: (k: number) => boolean,
  name: (k: number) => string,
): string | undefined {
  for (let k = 1; k < words.length; k++) {
    const w = words[k] as string;
    if (w === "--" || !w.startsWith("-") || w === "-") return undefined;
    if (dynamic.has(k)) return name(k);
    for (let j = 1; j < w.length; j++) {
      if (!letters.includes(w[j] as string)) continue;
      const glued = w.slice(j + 1);
      if (glued) {
        if (nameLetters.includes(w[j] as string) && !isPlainName(glued)) return name(k);
      } else if (nameLetters.includes(w[j] as string) && !plainName(k + 1)) {
        return name(k + 1);
      } else {
        k++;
      }
      break;
    }
  }
  return undefined;
}

/** `read [-a NAME] [NAME…]`, `mapfile [-C callback] [NAME]`: every name plain, no callback. */
function readNames(
  program: string,
  words: readonly string[],
  dynamic: ReadonlySet<number>,
  plainName: (k: number) => boolean,
  name: (k: number) => string,
): string | undefined {
  const values = VALUE_OPTIONS[program === "read" ? "read" : "mapfile"] as string;
  let k = 1;
  for (; k < words.length; k++) {
    const w = words[k] as string;
    if (w === "--") {
      k++;
      break;
    }
    if (!w.startsWith("-") || w === "-") break;
    if (dynamic.has(k)) return name(k);
    for (let j = 1; j < w.length; j++) {
      const letter = w[j] as string;
      if (program !== "read" && letter === "C") return `${program} -C runs a callback command`;
      if (letter === "a" && program === "read") {
        const glued = w.slice(j + 1);
        if (glued ? !isPlainName(glued) : !plainName(k + 1)) return name(glued ? k : k + 1);
        if (!glued) k++;
        break;
      }
      if (values.includes(letter)) {
        if (j === w.length - 1) k++;
        break;
      }
    }
  }
  for (; k < words.length; k++) if (!plainName(k)) return name(k);
  return undefined;
}

/**
 * `declare`/`typeset`/`local`/`readonly`/`export`: a name with a subscript is evaluated; under `-i` the values
 * are arithmetic, under `-n` a name, under `-a`/`-A` a value may be a compound assignment.
 */
function declarationProblem(
  program: string,
  words: readonly string[],
  dynamic: ReadonlySet<number>,
  names: Set<string>,
): string | undefined {
  let flags = "";
  for (let k = 1; k < words.length; k++) {
    const w = words[k] as string;
    if (/^[-+][A-Za-z]+$/.test(w)) {
      flags += w.slice(1);
      continue;
    }
    const eq = w.search(/\+?=/);
    const target = eq < 0 ? w : w.slice(0, eq);
    if (!isPlainName(target) || (dynamic.has(k) && eq < 0)) {
      return `${program} evaluates ${w} as a variable name`;
    }
    if (eq < 0) continue;
    const value = w.slice(w.indexOf("=", eq) + 1);
    if (program === "export") continue;
    const typed = /[inaA]/.test(flags);
    if (value.startsWith("(") || (typed && (dynamic.has(k) || !plainArithmetic(value, names)))) {
      return `${program} -${flags} evaluates the value of ${target}`;
    }
    if (flags.includes("n") && !isPlainName(value))
      return `${program} -n makes ${target} a reference to ${value}`;
  }
  return undefined;
}
