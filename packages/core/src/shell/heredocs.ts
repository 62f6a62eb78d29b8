/**
 * Heredocs read the way the shell reads them, ahead of the grammar. tree-sitter-bash reads two heredocs opened
 * on one line by separate commands (`cat <<'A'; cat <<B`) as one body, so a quoted body counts as unquoted. This
 * reader follows bash's rules (which dash and zsh share for what it accepts): the delimiters of a line are
 * collected in order, their bodies start after the newline that ends the line (a newline inside quotes or inside
 * a `$(…)` opened on the line does not end it), a delimiter with any quoted part makes its body data, `<<-`
 * strips leading tabs, and an unquoted body joins a line ending in a backslash to the next before comparing it
 * with the delimiter. Where the shells differ or the reader does not follow the construct, it says so instead of
 * guessing.
 */
import type { Language } from "web-tree-sitter";
import { bashParserOrThrow } from "./parser.js";
import { SNode } from "./snode.js";

/** One heredoc as the shell reads it. Offsets are into the script. */
export interface HeredocRead {
  /** Where `<<` (or `<<-`) starts. */
  opStart: number;
  /** Where the delimiter word ends. */
  opEnd: number;
  /** `<<-`: leading tabs of the body lines and of the terminator line are removed. */
  strip: boolean;
  /** Some part of the delimiter word was quoted: the body is data, nothing in it expands. */
  quoted: boolean;
  /** The delimiter word as written (`'EOF'`). */
  word: string;
  /** The delimiter after quote removal (`EOF`). */
  delimiter: string;
  /** Where the body starts (the line after the opener line, or after the previous body). */
  bodyStart: number;
  /** Where the delimiter starts on the terminator line (after its stripped tabs). */
  endStart: number;
  /** Where the terminator line ends, its newline included (or the end of the script). */
  lineEnd: number;
  /** The text the command reads: the body's lines, with leading tabs removed for `<<-`. */
  body: string;
}

/** What {@link readHeredocs} found: every heredoc, or why it cannot be sure of them. */
export type HeredocReading =
  | { readonly heredocs: readonly HeredocRead[]; readonly unsure?: undefined }
  | { readonly heredocs?: undefined; readonly unsure: string };

type FrameKind = "cmd" | "dq" | "param" | "bt" | "arith";

interface Frame {
  kind: FrameKind;
  /** For `cmd`: opened by `(`, `$(`, `<(` or `>(` (closes at `)`); the script itself has none. */
  paren: boolean;
  /** For `arith`: the text that closes it (`))` or `]`) and the parentheses open inside it. */
  close?: string;
  open?: number;
}

interface Pending {
  read: Omit<HeredocRead, "bodyStart" | "endStart" | "lineEnd" | "body">;
  frame: Frame;
}

const METACHAR = /[ \t\n;&|()<>]/;
const TOKEN_BOUNDARY = /[ \t\n;&|()<>]/;

class Unsure extends Error {}

function unsure(why: string): never {
  throw new Unsure(why);
}

/**
 * Finds every heredoc of a script, in the order the shell reads their bodies.
 * @returns the heredocs, or `unsure` with the reason when the reader cannot tell what the shells do (an
 *   unterminated body, a heredoc inside backticks, a delimiter that expands or that the shells read differently)
 */
export function readHeredocs(src: string): HeredocReading {
  try {
    return { heredocs: new Reader(src).read() };
  } catch (error) {
    if (error instanceof Unsure) return { unsure: error.message };
    throw error;
  }
}

class Reader {
  private readonly found: HeredocRead[] = [];
  private readonly pending: Pending[] = [];
  private readonly stack: Frame[] = [{ kind: "cmd", paren: false }];
  private i = 0;
  /** A `[` is open in the word being read (`a[1<<2]=x`: bash reads a subscript, zsh a heredoc). */
  private bracket = false;
  /** A construct the reader does not follow closely was seen: any heredoc makes the reading unsure. */
  private doubt: string | undefined;

  /** Where a body's own `"`s are (`body` mode: the text is the inside of an unquoted heredoc body). */
  private readonly quotes: number[] = [];

  constructor(
    private readonly src: string,
    private readonly mode: "script" | "body" = "script",
  ) {
    if (mode === "body") this.stack[0] = { kind: "dq", paren: false };
  }

  /** In `body` mode: the offsets of the body's own `"`s, or undefined when the reader is unsure of the body. */
  topLevelQuotes(): number[] | undefined {
    try {
      this.read();
    } catch (error) {
      if (error instanceof Unsure) return undefined;
      throw error;
    }
    return this.stack.length === 1 && this.found.length === 0 ? this.quotes : undefined;
  }

  read(): HeredocRead[] {
    const src = this.src;
    while (this.i < src.length) {
      const frame = this.stack[this.stack.length - 1] as Frame;
      switch (frame.kind) {
        case "cmd":
          this.inCommand(frame);
          break;
        case "dq":
          this.inDoubleQuotes();
          break;
        case "param":
          this.inParameter();
          break;
        case "bt":
          this.inBackticks();
          break;
        case "arith":
          this.inArithmetic(frame);
          break;
      }
    }
    if (this.pending.length > 0) unsure("a heredoc has no body: the script ends on its opener line");
    if (this.found.length > 0 && this.doubt !== undefined) unsure(this.doubt);
    if (this.found.length > 0 && this.stack.length > 1) unsure("the script ends inside an open construct");
    return this.found;
  }

  private at(offset: number): string {
    return this.src[this.i + offset] ?? "";
  }

  private startsWith(text: string): boolean {
    return this.src.startsWith(text, this.i);
  }

  /** True when the character before the current one ends a token (a `#` there starts a comment). */
  private atTokenStart(): boolean {
    return this.i === 0 || TOKEN_BOUNDARY.test(this.src[this.i - 1] as string);
  }

  /** Skips `'…'` from its opening quote. */
  private skipSingleQuoted(): void {
    const close = this.src.indexOf("'", this.i + 1);
    if (close < 0) unsure("an unterminated single quote");
    this.i = close + 1;
  }

  /** Skips `$'…'` from its `$`. */
  private skipAnsiC(): void {
    let j = this.i + 2;
    while (j < this.src.length && this.src[j] !== "'") j += this.src[j] === "\\" ? 2 : 1;
    if (j >= this.src.length) unsure("an unterminated $'…' string");
    this.i = j + 1;
  }

  /** `$(`, `$((`, `${`, `$[`, `$'` and `$"` from the `$`; returns false when the `$` opens nothing. */
  private dollar(): boolean {
    const next = this.at(1);
    if (next === "(" && this.at(2) === "(") {
      this.stack.push({ kind: "arith", paren: false, close: "))", open: 0 });
      this.i += 3;
    } else if (next === "(") {
      this.stack.push({ kind: "cmd", paren: true });
      this.i += 2;
    } else if (next === "{") {
      this.stack.push({ kind: "param", paren: false });
      this.i += 2;
    } else if (next === "[") {
      this.stack.push({ kind: "arith", paren: false, close: "]", open: 0 });
      this.i += 2;
    } else if (next === "'" && this.stack[this.stack.length - 1]?.kind !== "dq") {
      this.skipAnsiC();
    } else if (next === '"' && this.stack[this.stack.length - 1]?.kind !== "dq") {
      this.stack.push({ kind: "dq", paren: false });
      this.i += 2;
    } else {
      return false;
    }
    return true;
  }

  private inCommand(frame: Frame): void {
    const c = this.src[this.i] as string;
    if (c === "\\") {
      this.i += 2;
      return;
    }
    if (c === "'") {
      this.skipSingleQuoted();
      return;
    }
    if (c === '"') {
      this.stack.push({ kind: "dq", paren: false });
      this.i++;
      return;
    }
    if (c === "`") {
      this.stack.push({ kind: "bt", paren: false });
      this.i++;
      return;
    }
    if (c === "$" && this.dollar()) return;
    if (c === "#" && this.atTokenStart()) {
      const end = this.src.indexOf("\n", this.i);
      this.i = end < 0 ? this.src.length : end;
      return;
    }
    if (c === "\n") {
      this.bracket = false;
      this.newline(frame);
      return;
    }
    if (c === "(" && this.at(1) === "(") {
      this.stack.push({ kind: "arith", paren: false, close: "))", open: 0 });
      this.i += 2;
      return;
    }
    if (c === "(") {
      this.stack.push({ kind: "cmd", paren: true });
      this.bracket = false;
      this.i++;
      return;
    }
    if (c === ")") {
      this.bracket = false;
      this.i++;
      if (!frame.paren) return; // a `case` pattern's `)` at the top level
      if (this.pending.some((p) => p.frame === frame))
        unsure("a heredoc opened inside parentheses has no body before they close");
      this.stack.pop();
      return;
    }
    if (c === "<" && this.at(1) === "<") {
      if (this.at(2) === "<") {
        this.i += 3;
        return;
      }
      this.opener(frame);
      return;
    }
    if (c === "[") this.bracket = true;
    else if (c === "]") this.bracket = false;
    else if (METACHAR.test(c)) this.bracket = false;
    else if (frame.paren && this.atTokenStart() && /^case[ \t\n]/.test(this.src.slice(this.i, this.i + 5))) {
      // `case` patterns end in `)`, which the reader would take for the end of the parentheses
      this.doubt ??= "a case statement inside parentheses";
    }
    this.i++;
  }

  private inDoubleQuotes(): void {
    const c = this.src[this.i] as string;
    if (c === "\\") this.i += 2;
    else if (c === '"') {
      if (this.stack.length === 1) this.quotes.push(this.i);
      else this.stack.pop();
      this.i++;
    } else if (c === "`") {
      this.stack.push({ kind: "bt", paren: false });
      this.i++;
    } else if (c !== "$" || !this.dollar()) this.i++;
  }

  private inParameter(): void {
    const c = this.src[this.i] as string;
    const inQuotes = this.stack[this.stack.length - 2]?.kind === "dq";
    if (c === "\\") this.i += 2;
    else if (c === "}") {
      this.stack.pop();
      this.i++;
    } else if (c === "'") {
      if (inQuotes) this.doubt ??= "a single quote inside ${…} inside double quotes";
      this.skipSingleQuoted();
    } else if (c === '"') {
      this.stack.push({ kind: "dq", paren: false });
      this.i++;
    } else if (c === "`") {
      this.stack.push({ kind: "bt", paren: false });
      this.i++;
    } else if (c === "{") {
      this.doubt ??= "a brace inside ${…}";
      this.i++;
    } else if (c !== "$" || !this.dollar()) this.i++;
  }

  private inBackticks(): void {
    const c = this.src[this.i] as string;
    if (c === "\\") this.i += 2;
    else if (c === "`") {
      this.stack.pop();
      this.i++;
    } else if (c === "'") this.skipSingleQuoted();
    else if (c === "<" && this.at(1) === "<" && this.at(2) !== "<") {
      unsure("a heredoc inside backticks");
    } else this.i++;
  }

  private inArithmetic(frame: Frame): void {
    const c = this.src[this.i] as string;
    const open = frame.open ?? 0;
    if (frame.close === "]" && this.startsWith("<<")) {
      // `$[1<<2]`: bash and zsh shift; dash has no `$[` and opens a heredoc
      unsure("`<<` inside $[…], a heredoc for dash");
    }
    if (c === "\\") this.i += 2;
    else if (c === "'") this.skipSingleQuoted();
    else if (c === '"') {
      this.stack.push({ kind: "dq", paren: false });
      this.i++;
    } else if (c === "`") {
      this.stack.push({ kind: "bt", paren: false });
      this.i++;
    } else if (c === "$" && this.dollar()) return;
    else if (c === "(" || c === "[") {
      frame.open = open + 1;
      this.i++;
    } else if ((c === ")" || c === "]") && open > 0) {
      frame.open = open - 1;
      this.i++;
    } else if (frame.close !== undefined && this.startsWith(frame.close)) {
      this.stack.pop();
      this.i += frame.close.length;
    } else if (c === ")" || c === "]") {
      this.doubt ??= "unbalanced parentheses in arithmetic";
      this.stack.pop();
      this.i++;
    } else this.i++;
  }

  /** `<<` or `<<-` and its delimiter word. */
  private opener(frame: Frame): void {
    if (this.bracket) unsure("`<<` inside a word with an open `[` (a subscript in bash, a heredoc in zsh)");
    const opStart = this.i;
    this.i += 2;
    const strip = this.at(0) === "-";
    if (strip) this.i++;
    while (this.at(0) === " " || this.at(0) === "\t") this.i++;
    const wordStart = this.i;
    let delimiter = "";
    let quoted = false;
    const src = this.src;
    while (this.i < src.length && !METACHAR.test(src[this.i] as string)) {
      const c = src[this.i] as string;
      if (c === "'") {
        const close = src.indexOf("'", this.i + 1);
        if (close < 0) unsure("an unterminated quote in a heredoc delimiter");
        delimiter += src.slice(this.i + 1, close);
        quoted = true;
        this.i = close + 1;
      } else if (c === '"') {
        const close = src.indexOf('"', this.i + 1);
        if (close < 0) unsure("an unterminated quote in a heredoc delimiter");
        const inner = src.slice(this.i + 1, close);
        if (/[$`\\\n]/.test(inner)) unsure("a heredoc delimiter with expansions or escapes in double quotes");
        delimiter += inner;
        quoted = true;
        this.i = close + 1;
      } else if (c === "\\") {
        const next = src[this.i + 1];
        if (next === undefined || next === "\n") unsure("a heredoc delimiter continued on the next line");
        delimiter += next;
        quoted = true;
        this.i += 2;
      } else if (c === "$" || c === "`") {
        unsure("a heredoc delimiter with `$` or a backtick, which the shells read differently");
      } else {
        delimiter += c;
        this.i++;
      }
    }
    if (delimiter === "" || delimiter.includes("\n"))
      unsure("a heredoc with an empty or multi-line delimiter");
    this.pending.push({
      read: { opStart, opEnd: this.i, strip, quoted, word: src.slice(wordStart, this.i), delimiter },
      frame,
    });
  }

  /** A newline that ends a command line: the pending heredocs' bodies follow, in order. */
  private newline(frame: Frame): void {
    this.i++;
    if (this.pending.length === 0) return;
    // a newline inside a `$(…)` opened on the line ends no line of the enclosing script
    if (!this.pending.some((p) => p.frame === frame)) return;
    if (this.pending.some((p) => p.frame !== frame))
      unsure("heredocs opened inside and outside $(…) or parentheses on one line");
    for (const { read } of this.pending.splice(0)) this.found.push(this.body(read));
  }

  /** Reads one body from the current offset up to and including its terminator line. */
  private body(read: Pending["read"]): HeredocRead {
    const src = this.src;
    const bodyStart = this.i;
    const lines: string[] = [];
    let pos = bodyStart;
    while (pos < src.length || pos === bodyStart) {
      let nl = src.indexOf("\n", pos);
      if (nl < 0) nl = src.length;
      let line = src.slice(pos, nl);
      let next = nl + 1;
      if (!read.quoted) {
        // an unquoted body joins a line ending in an odd number of backslashes to the next
        while (/(?:^|[^\\])(?:\\\\)*\\$/.test(line) && nl < src.length) {
          if (read.strip) unsure("a `<<-` body line continued with a backslash");
          let following = src.indexOf("\n", next);
          if (following < 0) following = src.length;
          line = line.slice(0, -1) + src.slice(next, following);
          nl = following;
          next = following + 1;
        }
      }
      const tabs = read.strip ? (/^\t*/.exec(line)?.[0].length ?? 0) : 0;
      if (line.slice(tabs) === read.delimiter) {
        this.i = Math.min(next, src.length);
        return {
          ...read,
          bodyStart,
          endStart: pos + tabs,
          lineEnd: this.i,
          body: lines.join(""),
        };
      }
      if (nl >= src.length) break;
      lines.push(`${src.slice(pos + tabs, nl)}\n`);
      pos = next;
    }
    unsure(`the heredoc delimited by ${read.delimiter} has no terminator line`);
  }
}

/**
 * The script with every heredoc opener made the plain redirect `<&0` (padded with spaces) and every body and
 * terminator line blanked, newlines kept: the grammar reads the rest of the script at the same offsets.
 */
export function maskHeredocs(src: string, reads: readonly HeredocRead[]): string {
  const chars = src.split("");
  for (const read of reads) {
    for (let k = read.opStart; k < read.opEnd; k++)
      chars[k] = k - read.opStart < 3 ? ("<&0"[k - read.opStart] as string) : " ";
    for (let k = read.bodyStart; k < read.lineEnd; k++) if (chars[k] !== "\n") chars[k] = " ";
  }
  return chars.join("");
}

/**
 * The body of an unquoted heredoc as a tree of its own, for the substitutions in it. An unquoted body expands as
 * the inside of double quotes does, except that `"` means itself, so it is parsed as a double-quoted string with
 * its own `"`s escaped. (tree-sitter-bash's heredoc body misses a `$(…)` at the start of an indented line.)
 * @returns the string node and the text it was parsed from; `error` when the body cannot be read with certainty
 */
export function parseHeredocBody(body: string): { body: SNode | undefined; src: string; error: boolean } {
  const quotes = new Reader(body, "body").topLevelQuotes();
  if (quotes === undefined) return { body: undefined, src: body, error: true };
  let inner = "";
  let from = 0;
  for (const at of quotes) {
    inner += `${body.slice(from, at)}\\"`;
    from = at + 1;
  }
  inner += body.slice(from);
  const src = `: "${inner}"`;
  const parser = bashParserOrThrow();
  const tree = parser.parse(src);
  if (!tree) return { body: undefined, src, error: true };
  try {
    const root = SNode.copy(tree, src, parser.language as Language);
    const command = root.namedChildren[0];
    const string = command?.namedChildren.find((c) => c.type === "string");
    return { body: string, src, error: tree.rootNode.hasError || root.namedChildren.length !== 1 };
  } finally {
    tree.delete();
  }
}
