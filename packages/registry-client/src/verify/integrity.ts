/**
 * Subresource-integrity strings as npm registries publish them in `dist.integrity` (`sha512-<base64>`), and the
 * check that a tarball's bytes match them before anything is unpacked.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { SlashiError, SlashiErrorCode } from "@slashi/core";

/** The `dist.integrity` and `dist.shasum` of a tarball. */
export interface TarballDigests {
  /** `sha512-<base64>`. */
  integrity: string;
  /** SHA-1 in hex (npm's legacy `shasum`). */
  shasum: string;
}

/** Computes the digests a registry lists for a tarball. */
export function tarballDigests(bytes: Uint8Array): TarballDigests {
  return {
    integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}`,
    shasum: createHash("sha1").update(bytes).digest("hex"),
  };
}

/**
 * The sha512 digests of an SRI string (several hashes may be listed, separated by spaces; options after `?` are
 * ignored). Other algorithms are skipped: sha1 alone is not accepted as proof of content.
 */
export function sha512Digests(integrity: string): Buffer[] {
  const out: Buffer[] = [];
  for (const token of integrity.trim().split(/\s+/)) {
    const match = /^sha512-([A-Za-z0-9+/]+={0,2})(?:\?.*)?$/.exec(token);
    if (!match) continue;
    const digest = Buffer.from(match[1] as string, "base64");
    if (digest.length === 64) out.push(digest);
  }
  return out;
}

/**
 * Checks a tarball against the listing's `dist.integrity`.
 * @param bytes - the downloaded tarball
 * @param integrity - `dist.integrity` from the packument
 * @param label - `name@version`, for the message
 * @throws SlashiError `PACK_INTEGRITY` when the listing has no sha512 integrity or the bytes do not match it
 */
export function verifyIntegrity(bytes: Uint8Array, integrity: unknown, label: string): void {
  const expected = typeof integrity === "string" ? sha512Digests(integrity) : [];
  if (expected.length === 0) {
    throw new SlashiError(
      SlashiErrorCode.PACK_INTEGRITY,
      `${label}: the registry lists no sha512 integrity for this version, so its content cannot be checked`,
      { pack: label },
    );
  }
  const actual = createHash("sha512").update(bytes).digest();
  if (!expected.some((digest) => timingSafeEqual(digest, actual))) {
    throw new SlashiError(
      SlashiErrorCode.PACK_INTEGRITY,
      `${label}: the downloaded tarball does not match the registry's dist.integrity ` +
        `(expected ${String(integrity)}, got sha512-${actual.toString("base64")}); nothing was installed`,
      { pack: label, expected: integrity, actual: `sha512-${actual.toString("base64")}` },
    );
  }
}
