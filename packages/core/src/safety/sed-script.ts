/** What a sed script does beyond printing, read conservatively. */
export interface SedScriptInfo {
  /** The script runs shell commands (`e`, `s///e`). */
  executes: boolean;
  /** Files the script writes (`w file`, `W file`, `s///w file`). */
  writes: string[];
  /** Files the script reads (`r file`, `R file`). */
  reads: string[];
  /** The script could not be read with confidence; treat it as able to do anything. */
  unparsed: boolean;
}

const NO_ARGUMENT = new Set(["=", "d", "D", "g", "G", "h", "H", "n", "N", "p", "P", "x", "z", "F"]);

/**
 * Reads a sed script (GNU syntax, a superset of POSIX) command by command: addresses, `s` and `y` with any
 * delimiter, text commands, labels, blocks. Anything it does not recognise marks the script `unparsed`.
 */
export function readSedScript(script: string): SedScriptInfo {
  const info: SedScriptInfo = { executes: false, writes: [], reads: [], unparsed: false };
  const s = script;
  let i = 0;
  const len = s.length;
  const skipSpace = (): void => {
    while (i < len && (s[i] === " " || s[i] === "\t")) i++;
  };
  const toLineEnd = (): string => {
    const start = i;
    while (i < len && s[i] !== "\n") i++;
    return s.slice(start, i);
  };
  /** Reads a delimited part starting after the opening delimiter; false when unterminated. */
  const delimited = (delim: string): boolean => {
    while (i < len) {
      const c = s[i]!;
      if (c === "\\") {
        i += 2;
        continue;
      }
      if (c === "\n" && delim !== "\n") return false;
      if (c === "[" && delim !== "[") {
        // bracket expression: a delimiter inside it is literal in GNU sed
        let j = i + 1;
        if (s[j] === "^") j++;
        if (s[j] === "]") j++;
        while (j < len && s[j] !== "]" && s[j] !== "\n") j++;
        if (j < len && s[j] === "]") {
          i = j + 1;
          continue;
        }
      }
      i++;
      if (c === delim) return true;
    }
    return false;
  };
  const address = (): boolean => {
    const c = s[i];
    if (c === undefined) return true;
    if (/[0-9]/.test(c)) {
      while (i < len && /[0-9~]/.test(s[i]!)) i++;
      return true;
    }
    if (c === "$") {
      i++;
      return true;
    }
    if (c === "/" || c === "\\") {
      let delim = "/";
      if (c === "\\") {
        delim = s[i + 1] ?? "";
        if (delim === "" || delim === "\n") return false;
        i++;
      }
      i++;
      if (!delimited(delim)) return false;
      while (i < len && (s[i] === "I" || s[i] === "M")) i++;
      return true;
    }
    return true;
  };
  while (i < len) {
    skipSpace();
    const c0 = s[i];
    if (c0 === undefined) break;
    if (c0 === ";" || c0 === "\n" || c0 === "}") {
      i++;
      continue;
    }
    if (c0 === "#") {
      toLineEnd();
      continue;
    }
    if (!address()) return { ...info, unparsed: true };
    skipSpace();
    if (s[i] === ",") {
      i++;
      skipSpace();
      if (s[i] === "+" || s[i] === "~") i++;
      if (!address()) return { ...info, unparsed: true };
      skipSpace();
    }
    while (s[i] === "!") {
      i++;
      skipSpace();
    }
    const cmd = s[i];
    if (cmd === undefined) return { ...info, unparsed: true };
    i++;
    if (cmd === "{" || cmd === "}") continue;
    if (NO_ARGUMENT.has(cmd)) continue;
    switch (cmd) {
      case "s": {
        const delim = s[i];
        if (delim === undefined || delim === "\n" || delim === "\\") return { ...info, unparsed: true };
        i++;
        if (!delimited(delim) || !delimited(delim)) return { ...info, unparsed: true };
        // flags
        while (i < len) {
          const f = s[i]!;
          if (/[gpiImM0-9]/.test(f)) {
            i++;
          } else if (f === "e") {
            info.executes = true;
            i++;
          } else if (f === "w") {
            i++;
            skipSpace();
            info.writes.push(toLineEnd());
          } else break;
        }
        break;
      }
      case "y": {
        const delim = s[i];
        if (delim === undefined || delim === "\n" || delim === "\\") return { ...info, unparsed: true };
        i++;
        if (!delimited(delim) || !delimited(delim)) return { ...info, unparsed: true };
        break;
      }
      case "a":
      case "i":
      case "c": {
        // one-liner text (GNU) or `a\` followed by lines ending with backslash
        for (;;) {
          const line = toLineEnd();
          const continued = /\\$/.test(line);
          if (i < len) i++;
          if (!continued || i >= len) break;
        }
        break;
      }
      case "e":
        info.executes = true;
        toLineEnd();
        break;
      case "w":
      case "W":
        skipSpace();
        info.writes.push(toLineEnd());
        break;
      case "r":
      case "R":
        skipSpace();
        info.reads.push(toLineEnd());
        break;
      case "b":
      case "t":
      case "T":
      case ":":
        while (i < len && s[i] !== ";" && s[i] !== "\n") i++;
        break;
      case "q":
      case "Q":
      case "l":
      case "L":
        skipSpace();
        while (i < len && /[0-9]/.test(s[i]!)) i++;
        break;
      case "v":
        while (i < len && s[i] !== ";" && s[i] !== "\n") i++;
        break;
      default:
        return { ...info, unparsed: true };
    }
  }
  return info;
}
