/**
 * What an audit record, an error or a screen may say about a command without carrying a secret. A value that came
 * from a secret-bearing source (`${env:…}`, `${config:…}`, `${clipboard}`) is replaced where the expansion put it
 * (the host records the unexpanded template, the line and argv expanded with placeholders, and a digest of the full
 * text); searching texts for the values is only a second net: long values anywhere, short ones where they stand as a
 * token of their own ({@link redactSecrets} says which length gets which treatment).
 */
import { createHash } from "node:crypto";

/** What replaces a secret value in an audit record. */
export const SECRET_MARKER = "⟪secret⟫";

/**
 * `sha256:` + hex of the UTF-8 bytes of a text, or of the bytes given. The same digest over the same bytes wherever
 * it is taken (audit records, approval bindings), so a record can prove what ran without storing it.
 */
export function textDigest(text: string | Uint8Array): string {
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

/**
 * Secret values of at least this many UTF-16 code units are searched for and replaced wherever they occur in a text,
 * inside words too. Shorter values are replaced only where they stand as a token of their own
 * ({@link redactSecrets}); where a secret value landed is known by position instead (a step expanded with
 * placeholders, core's `redactedExpansionContext`).
 */
export const SUBSTRING_REDACTION_MIN = 8;

/**
 * Secret values shorter than this (1 to 3 characters) are never looked for inside a word of a free text: they
 * would be found in unrelated words everywhere. They are replaced where they stand as a token of their own, and a
 * free text redacted with one is marked with {@link SHORT_SECRET_NOTE}, whether or not it holds it.
 */
export const TOKEN_REDACTION_MIN = 4;

/** What replaces a free text (a reason, a warning, an error) that holds a secret value inside a word. */
export const WITHHELD_TEXT = "⟪withheld: may quote a secret value⟫";

/**
 * What a free text redacted with a secret value of fewer than {@link TOKEN_REDACTION_MIN} characters ends with: the
 * value is hidden where it stands alone, but not looked for inside words, so the text may still hold it there.
 */
export const SHORT_SECRET_NOTE = "⟪may hold a secret value too short to search for⟫";

const distinct = (secrets: readonly string[]): string[] => [...new Set(secrets)].filter((s) => s !== "");

const longestFirst = (secrets: readonly string[]): string[] =>
  distinct(secrets).sort((a, b) => b.length - a.length);

/**
 * `text` with every occurrence of every secret value of {@link SUBSTRING_REDACTION_MIN} or more characters
 * replaced by {@link SECRET_MARKER}, longest values first (a secret that contains another is replaced whole).
 * Shorter values are left alone: this is the second net over text whose secret positions were already replaced
 * (an argv or a line shown with placeholders), not a way to hide a short value. For free text use
 * {@link redactSecrets}.
 * @param text - any text
 * @param secrets - the values to hide
 */
export function redactLongSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of longestFirst(secrets).filter((s) => s.length >= SUBSTRING_REDACTION_MIN))
    out = out.split(secret).join(SECRET_MARKER);
  return out;
}

/** What may stand before a token of its own: the start, white space, a quote, an assignment or a bracket. */
const BEFORE_TOKEN = "(?<=^|[\\s\"'`=:,;()[\\]{}<>|&])";
/** What may follow a token of its own: the end, the same characters, or the end of a sentence. */
const AFTER_TOKEN = "(?=$|[\\s\"'`=:,;()[\\]{}<>|&.!?])";

/** Where `secret` stands as a token of its own in a text. */
function tokenPattern(secret: string): RegExp {
  return new RegExp(`${BEFORE_TOKEN}${secret.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}${AFTER_TOKEN}`, "gu");
}

/**
 * A free text (a reason's message, a warning, an error, a command's output) without the secret values, by length:
 * - values of {@link SUBSTRING_REDACTION_MIN} characters or more are replaced by {@link SECRET_MARKER} wherever
 *   they occur;
 * - shorter values are replaced where they stand as a token of their own (between the start or end, white space,
 *   quotes, `=`, `:`, `,`, `;`, brackets, `|`, `&`; a sentence's end after it): `TOKEN=abc`, `"abc"`, `-H abc`;
 * - a value of {@link TOKEN_REDACTION_MIN} to 7 characters still found inside a word makes the whole text
 *   {@link WITHHELD_TEXT}, since where it came from cannot be told;
 * - a value of 1 to 3 characters is never looked for inside words (it would be found in unrelated ones): the text
 *   ends with {@link SHORT_SECRET_NOTE}, whatever it holds, so what is shown does not depend on the value.
 * Empty values are ignored (they carry nothing), and so is an empty text.
 * @param text - any text
 * @param secrets - the values to hide
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = redactLongSecrets(text, secrets);
  const short = longestFirst(secrets).filter((s) => s.length < SUBSTRING_REDACTION_MIN);
  for (const secret of short) out = out.replace(tokenPattern(secret), SECRET_MARKER);
  if (short.some((s) => s.length >= TOKEN_REDACTION_MIN && out.includes(s))) return WITHHELD_TEXT;
  return text !== "" && short.some((s) => s.length < TOKEN_REDACTION_MIN)
    ? `${out} ${SHORT_SECRET_NOTE}`
    : out;
}

/**
 * A deep copy of a JSON-like value with {@link redactSecrets} applied to every string in it (keys are kept). The strings under a key of `ownWords` (at any depth: a
 * status, a code, a verdict, a line built with placeholders) go through {@link redactLongSecrets} only, so a
 * one-character value does not withhold the words a program reads the value by. For an audit entry use
 * `redactAuditEntry`.
 * @param value - strings, numbers, booleans, null, arrays and plain objects
 * @param secrets - the values to hide
 * @param ownWords - keys whose strings hold no value from outside but the line's placeholders
 */
export function redactValue<T>(
  value: T,
  secrets: readonly string[],
  ownWords: ReadonlySet<string> = new Set(),
): T {
  const walk = (v: unknown, own: boolean): unknown => {
    if (typeof v === "string") return own ? redactLongSecrets(v, secrets) : redactSecrets(v, secrets);
    if (Array.isArray(v)) return v.map((item: unknown) => walk(item, own));
    if (typeof v === "object" && v !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v)) out[k] = walk(item, own || ownWords.has(k));
      return out;
    }
    return v;
  };
  return walk(value, false) as T;
}
