/**
 * What an audit record, an error or a screen may say about a command without carrying a secret. A value that came
 * from a secret-bearing source (`${env:…}`, `${config:…}`, `${clipboard}`) is replaced where the expansion put it
 * (the host records the unexpanded template, the line and argv expanded with placeholders, and a digest of the full
 * text); searching texts for the values is only a second net, for values long enough to be found without cutting
 * unrelated words ({@link SUBSTRING_REDACTION_MIN}), and a free text that still holds a shorter one is withheld.
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
 * Secret values shorter than this many UTF-16 code units are never searched for and replaced inside a text: a
 * one-character or common short value would cut unrelated words apart (and hiding nothing if skipped). Where a
 * secret value landed is known by position instead (a step expanded with placeholders, core's
 * `redactedExpansionContext`); {@link redactSecrets} withholds a whole free text that contains a shorter value.
 */
export const SUBSTRING_REDACTION_MIN = 8;

/** What replaces a free text (a reason, a warning, an error) that may quote a short secret value. */
export const WITHHELD_TEXT = "⟪withheld: may quote a secret value⟫";

const distinct = (secrets: readonly string[]): string[] => [...new Set(secrets)].filter((s) => s !== "");

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
  for (const secret of distinct(secrets)
    .filter((s) => s.length >= SUBSTRING_REDACTION_MIN)
    .sort((a, b) => b.length - a.length))
    out = out.split(secret).join(SECRET_MARKER);
  return out;
}

/**
 * A free text (a reason's message, a warning, an error) without any secret value: values of
 * {@link SUBSTRING_REDACTION_MIN} characters or more are replaced by {@link SECRET_MARKER}; when a shorter value
 * still occurs anywhere in what is left, the whole text is {@link WITHHELD_TEXT}, since where it came from in the
 * text cannot be told. Empty values are ignored (they carry nothing).
 * @param text - any text
 * @param secrets - the values to hide
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  const out = redactLongSecrets(text, secrets);
  return distinct(secrets).some((s) => s.length < SUBSTRING_REDACTION_MIN && out.includes(s))
    ? WITHHELD_TEXT
    : out;
}

/**
 * A deep copy of a JSON-like value with {@link redactSecrets} applied to every string in it (keys are kept): a
 * string holding a short secret value is withheld whole. The strings under a key of `ownWords` (at any depth: a
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
