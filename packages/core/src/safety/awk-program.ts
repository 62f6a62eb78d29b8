/** What an awk program does beyond reading input and printing, read conservatively. */
export interface AwkProgramInfo {
  /** Runs commands: `system()`, `cmd | getline`, `print | "cmd"`, `|&` coprocesses, `@load`. */
  executes: boolean;
  /** Writes files: `print > "f"`, `printf >> "f"`. */
  writes: boolean;
}

/** Tokens after which a `/` starts a regular expression rather than a division. */
const REGEX_AFTER = new Set([
  "",
  "(",
  ",",
  "{",
  "}",
  ";",
  "\n",
  "!",
  "~",
  "&&",
  "||",
  "?",
  ":",
  "=",
  "==",
  "!=",
  "<",
  ">",
  "+",
  "-",
  "*",
  "%",
  "^",
  "in",
  "print",
  "printf",
  "return",
]);

/**
 * Scans an awk program with a small lexer that skips strings, regular expressions and comments, then looks
 * for `system(`, `|` (pipes to and from commands), `|&`, `@load`/`@include`, and `>`/`>>` inside a
 * `print`/`printf` statement outside parentheses.
 */
export function readAwkProgram(program: string): AwkProgramInfo {
  const info: AwkProgramInfo = { executes: false, writes: false };
  let i = 0;
  let last = "";
  let depth = 0;
  let inPrint = false;
  const n = program.length;
  while (i < n) {
    const c = program[i]!;
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    if (c === "\\" && program[i + 1] === "\n") {
      i += 2;
      continue;
    }
    if (c === "#") {
      while (i < n && program[i] !== "\n") i++;
      continue;
    }
    if (c === '"') {
      i++;
      while (i < n && program[i] !== '"') i += program[i] === "\\" ? 2 : 1;
      i++;
      last = "string";
      continue;
    }
    if (c === "/" && REGEX_AFTER.has(last)) {
      i++;
      while (i < n && program[i] !== "/" && program[i] !== "\n") {
        if (program[i] === "\\") i++;
        else if (program[i] === "[") {
          i++;
          while (i < n && program[i] !== "]" && program[i] !== "\n") i += program[i] === "\\" ? 2 : 1;
        }
        i++;
      }
      i++;
      last = "regex";
      continue;
    }
    if (/[A-Za-z_@]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_]/.test(program[j]!)) j++;
      const word = program.slice(i, j);
      i = j;
      if (word === "@load" || word === "@include" || word === "@namespace")
        info.executes ||= word !== "@namespace";
      if (word === "system") {
        let k = i;
        while (k < n && (program[k] === " " || program[k] === "\t")) k++;
        if (program[k] === "(") info.executes = true;
      }
      if ((word === "print" || word === "printf") && depth === 0) inPrint = true;
      last = word;
      continue;
    }
    if (c === "|") {
      if (program[i + 1] === "|") {
        i += 2;
        last = "||";
        continue;
      }
      info.executes = true;
      i += program[i + 1] === "&" ? 2 : 1;
      last = "|";
      continue;
    }
    if (c === ">") {
      if (inPrint && depth === 0) info.writes = true;
      i += program[i + 1] === ">" || program[i + 1] === "=" ? 2 : 1;
      last = ">";
      continue;
    }
    if (c === "(") depth++;
    if (c === ")") depth = Math.max(0, depth - 1);
    if (c === ";" || c === "\n" || c === "{" || c === "}") {
      inPrint = false;
      depth = c === ";" || c === "\n" ? depth : 0;
    }
    const two = program.slice(i, i + 2);
    if (["&&", "==", "!=", "<=", "+=", "-=", "*=", "/=", "%=", "^=", "++", "--"].includes(two)) {
      last = two;
      i += 2;
      continue;
    }
    last = /[0-9.]/.test(c) ? "number" : c;
    i++;
  }
  return info;
}
