/**
 * What an audit record may say about a command without carrying a secret: values that came from a
 * secret-bearing source (`${env:…}`, `${config:…}`, `${clipboard}`) are replaced by a marker in every text the
 * record holds, and the full text is kept only as a digest.
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
 * `text` with every occurrence of every secret value replaced by {@link SECRET_MARKER}; longest values first, so a
 * secret that contains another is replaced whole. Empty values are ignored (they carry nothing).
 * @param text - any text
 * @param secrets - the values to hide
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of [...new Set(secrets)].filter((s) => s !== "").sort((a, b) => b.length - a.length))
    out = out.split(secret).join(SECRET_MARKER);
  return out;
}

/**
 * A deep copy of a JSON-like value with {@link redactSecrets} applied to every string in it (keys are kept).
 * @param value - strings, numbers, booleans, null, arrays and plain objects
 * @param secrets - the values to hide
 */
export function redactValue<T>(value: T, secrets: readonly string[]): T {
  if (typeof value === "string") return redactSecrets(value, secrets) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => redactValue(v, secrets)) as T;
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactValue(v, secrets);
    return out as T;
  }
  return value;
}
