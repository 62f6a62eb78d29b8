/**
 * Making invisible and deceptive characters visible, so a confirmation prompt shows what will really run.
 *
 * Format: every such character becomes a token `⟨U+XXXX⟩` (uppercase hex, at least four digits; `⟨` is
 * U+27E8, `⟩` is U+27E9). A run of the same character becomes one token with a count: `⟨U+200B×40⟩`
 * (`×` is U+00D7). The token opener `⟨` is itself always written as `⟨U+27E8⟩`, so any `⟨` in the output starts
 * a token and the output can be read back without ambiguity. Plain ASCII spaces stay as they are, except a run
 * of {@link SPACE_RUN_THRESHOLD} or more (padding that pushes a payload out of view), which becomes
 * `⟨U+0020×N⟩`; with `edges: true`, leading and trailing spaces become tokens too. A combining mark that would
 * sit on an ASCII character, a space, a token or nothing becomes a token as well (`/` + U+0338 looks like another
 * character; NFD `e` + U+0301 shows as `e⟨U+0301⟩`); marks on other letters (Devanagari, Thai) stay as they are.
 */

/** A run of this many ASCII spaces or more is shown as one `⟨U+0020×N⟩` token. */
export const SPACE_RUN_THRESHOLD = 8;

/** Options for {@link makeVisible}. */
export interface MakeVisibleOptions {
  /** Also show leading and trailing ASCII spaces as tokens (useful where the text ends a line). Default `false`. */
  edges?: boolean;
}

/**
 * Single code points that look like something else: quotes and dashes that PowerShell reads as ASCII `'`,
 * `"` and `-`, and look-alikes of separators used in URLs and shell syntax (`/`, `.`, `:`, `;`, `|`).
 */
const LOOKALIKES = new Set<number>([
  // quotes, primes, apostrophes
  0x00b4, 0x02b9, 0x02ba, 0x02bb, 0x02bc, 0x02c8, 0x2018, 0x2019, 0x201a, 0x201b, 0x201c, 0x201d, 0x201e,
  0x201f, 0x2032, 0x2033, 0x2034, 0x2035, 0x2036, 0x2037, 0x2039, 0x203a, 0x275b, 0x275c, 0x275d, 0x275e,
  0x301d, 0x301e, 0x301f, 0xff02, 0xff07,
  // dashes and minus signs
  0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2015, 0x2043, 0x2212, 0x2e3a, 0x2e3b, 0xfe58, 0xfe63, 0xff0d,
  // slashes, dots, colons, semicolons, bars
  0x2024, 0x2044, 0x2215, 0x2216, 0x29f8, 0xfe68, 0xff0f, 0xff3c, 0xff0e, 0x037e, 0xff1b, 0x0589, 0x02d0,
  0xa789, 0x2236, 0xff1a, 0x01c0, 0x2223, 0xff5c, 0xffe8,
  // other fullwidth shell metacharacters
  0xff04, 0xff06, 0xff1c, 0xff1e, 0xff40,
  // blank-looking letters and symbols: Hangul fillers, braille blank, combining grapheme joiner
  0x115f, 0x1160, 0x3164, 0xffa0, 0x2800, 0x034f,
  // the token opener itself
  0x27e8,
]);

/** Control, format, separator, private-use and unassigned code points (engine's Unicode tables). */
const INVISIBLE_CLASS = /^[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}]$/u;
const SPACE_CLASS = /^\p{Zs}$/u;
const COMBINING_MARK = /^\p{M}$/u;

/**
 * Whether one code point is shown as a `⟨U+XXXX⟩` token by {@link makeVisible}: C0/C1 controls (tab, CR and LF
 * included), DEL, format characters (zero-width, bidi controls, BOM, soft hyphen, tag characters), line and
 * paragraph separators, every space other than U+0020, variation selectors, lone surrogates, private-use and
 * unassigned code points, and the look-alike quotes, dashes and separators.
 */
export function isDeceptiveCodePoint(cp: number): boolean {
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return true;
  if (cp < 0x7f) return false;
  if (cp >= 0xd800 && cp <= 0xdfff) return true; // lone surrogate
  if ((cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef)) return true; // variation selectors
  if (LOOKALIKES.has(cp)) return true;
  const ch = String.fromCodePoint(cp);
  return INVISIBLE_CLASS.test(ch) || SPACE_CLASS.test(ch);
}

/** The token for `count` copies of code point `cp`: `⟨U+202E⟩`, `⟨U+0020×12⟩`. */
export function visibleToken(cp: number, count = 1): string {
  const hex = cp.toString(16).toUpperCase().padStart(4, "0");
  return count > 1 ? `⟨U+${hex}×${count}⟩` : `⟨U+${hex}⟩`;
}

/**
 * Returns `text` with every invisible or deceptive character replaced by a visible token (see the module
 * description for the exact format). Letters, digits, ASCII punctuation and ordinary non-ASCII text (accents,
 * CJK, emoji without variation selectors) are kept as they are. Pure; never throws.
 * @param text - any string, including lone surrogates
 * @param options - {@link MakeVisibleOptions}
 * @returns a string that shows every character that matters
 */
export function makeVisible(text: string, options: MakeVisibleOptions = {}): string {
  const cps: number[] = [];
  for (const ch of text) cps.push(ch.codePointAt(0) ?? 0);
  let first = 0;
  let last = cps.length;
  let out = "";
  if (options.edges) {
    while (first < last && cps[first] === 0x20) first++;
    while (last > first && cps[last - 1] === 0x20) last--;
    if (first > 0) out += visibleToken(0x20, first);
  }
  let i = first;
  // A combining mark is shown as a token when it would sit on an ASCII character, on a token or on nothing.
  let markShowsAsToken = true;
  while (i < last) {
    const cp = cps[i] as number;
    let j = i + 1;
    while (j < last && cps[j] === cp) j++;
    const run = j - i;
    if (cp === 0x20) {
      out += run >= SPACE_RUN_THRESHOLD ? visibleToken(0x20, run) : " ".repeat(run);
      markShowsAsToken = true;
    } else if (
      isDeceptiveCodePoint(cp) ||
      (markShowsAsToken && COMBINING_MARK.test(String.fromCodePoint(cp)))
    ) {
      out += visibleToken(cp, run);
      markShowsAsToken = true;
    } else {
      out += String.fromCodePoint(cp).repeat(run);
      markShowsAsToken = cp < 0x80;
    }
    i = j;
  }
  if (options.edges && last < cps.length && last >= first) out += visibleToken(0x20, cps.length - last);
  return out;
}

/**
 * True when {@link makeVisible} would change `text`: it holds an invisible or deceptive character or a long run
 * of spaces. Hosts can use it to add a warning line ("this step contains hidden characters").
 */
export function hasInvisibleCharacters(text: string): boolean {
  return makeVisible(text) !== text;
}

const CONTROL_CLASS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * Returns `text` with control and format characters (C0 and C1 controls, DEL, ESC, zero-width and bidi marks,
 * line and paragraph separators) replaced by {@link visibleToken}s, keeping newlines. For a message made of
 * Slashi's own words with values inside (an error, a warning) where {@link makeVisible} would also turn the
 * message's own dashes and quotes into tokens. It does not show look-alikes, odd spaces or combining marks: text
 * a person approves goes through {@link makeVisible}.
 */
export function showControls(text: string): string {
  return text.replace(CONTROL_CLASS, (ch) => (ch === "\n" ? ch : visibleToken(ch.codePointAt(0) ?? 0)));
}
