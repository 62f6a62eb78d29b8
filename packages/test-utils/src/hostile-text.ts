// Text a repository, a command line or a file could hand a host, and a check that a prompt shows none of it raw.
// Every host's prompt and print functions are tested with it: generated text holding C0/C1 controls, ESC
// sequences and bidi marks must reach the screen only as visible tokens.
import fc from "fast-check";

/** Pieces that change what a terminal or a dialog shows when printed raw. */
const HOSTILE_PIECES = [
  "\u001b[2K\r", // erase the line and return: hides what came before
  "\u001b[31m",
  "\u001b]0;title\u0007", // OSC: sets the window title
  "\u001b]8;;https://example.com\u001b\\", // OSC 8 hyperlink, ST-terminated
  "\u009b1A", // C1 CSI: cursor up
  "\u0085",
  "\u0008\u0008\u0008", // backspaces
  "\r",
  "\t",
  "\u0000",
  "\u007f",
  "\u202e", // right-to-left override
  "\u2066",
  "\u2069",
  "\u200f",
  "\u061c",
];

/** Strings mixing ordinary characters with {@link HOSTILE_PIECES}, never empty of them. */
export function hostileText(): fc.Arbitrary<string> {
  const plain = fc.string({
    unit: fc.constantFrom("a", "b", "z", "-", ".", "/", " ", "1", "é"),
    maxLength: 6,
  });
  const hostile = fc.constantFrom(...HOSTILE_PIECES);
  return fc
    .tuple(plain, hostile, fc.array(fc.oneof(plain, hostile), { maxLength: 4 }))
    .map(([head, piece, rest]) => `${head}${piece}${rest.join("")}`);
}

/** C0 controls other than newline, DEL, C1 controls, and the bidi marks and isolates. */
function isRaw(cp: number): boolean {
  return (
    (cp < 0x20 && cp !== 0x0a) ||
    (cp >= 0x7f && cp <= 0x9f) ||
    cp === 0x061c ||
    cp === 0x200e ||
    cp === 0x200f ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2066 && cp <= 0x2069)
  );
}

/**
 * The control characters and bidi marks `shown` holds raw (a newline is allowed: prompts are multi-line), as
 * `U+XXXX` strings so a failing test prints them readably. Empty when the text is safe to show.
 */
export function rawControls(shown: string): string[] {
  const found: string[] = [];
  for (const ch of shown) {
    const cp = ch.codePointAt(0) ?? 0;
    if (isRaw(cp)) found.push(`U+${cp.toString(16).padStart(4, "0")}`);
  }
  return found;
}
