/**
 * Decoding of bash ANSI-C quoted strings (`$'…'`).
 */

const SIMPLE_ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

function isHex(c: string | undefined): boolean {
  return c !== undefined && /^[0-9a-fA-F]$/.test(c);
}

function isOctal(c: string | undefined): boolean {
  return c !== undefined && c >= "0" && c <= "7";
}

function codePointText(code: number): string {
  return code > 0x10ffff ? "\ufffd" : String.fromCodePoint(code);
}

/**
 * Decodes the body of an ANSI-C quoted string the way bash does: `\n`, `\t`, `\e`, `\xHH`, `\uHHHH`,
 * `\UHHHHHHHH`, `\NNN` (octal), `\cX` (control character) and the quote escapes. Unknown escapes stay as
 * written (`\z` → `\z`). Like bash, the value ends at a NUL character (`$'r\0m'` → `r`).
 * @param body - the text between `$'` and the closing `'`
 * @returns the decoded value
 */
export function decodeAnsiC(body: string): string {
  let out = "";
  let i = 0;
  while (i < body.length) {
    const c = body[i] as string;
    if (c !== "\\" || i + 1 >= body.length) {
      out += c;
      i++;
      continue;
    }
    const e = body[i + 1] as string;
    i += 2;
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      out += simple;
      continue;
    }
    if (isOctal(e)) {
      let digits = e;
      while (digits.length < 3 && isOctal(body[i])) digits += body[i++];
      const code = parseInt(digits, 8) & 0xff;
      if (code === 0) return out;
      out += String.fromCharCode(code);
      continue;
    }
    if (e === "x" || e === "u" || e === "U") {
      const max = e === "x" ? 2 : e === "u" ? 4 : 8;
      let digits = "";
      while (digits.length < max && isHex(body[i])) digits += body[i++];
      if (digits === "") {
        out += `\\${e}`;
        continue;
      }
      const code = parseInt(digits, 16);
      if (code === 0) return out;
      out += e === "x" ? String.fromCharCode(code) : codePointText(code);
      continue;
    }
    if (e === "c") {
      const target = body[i];
      if (target === undefined) {
        out += "\\c";
        continue;
      }
      i++;
      let control: string;
      if (target === "\\" && body[i] === "\\") {
        i++;
        control = "\x1c";
      } else if (target === "?") {
        control = "\x7f";
      } else {
        control = String.fromCharCode(target.toUpperCase().charCodeAt(0) & 0x1f);
      }
      if (control === "\0") return out;
      out += control;
      continue;
    }
    out += `\\${e}`;
  }
  return out;
}
