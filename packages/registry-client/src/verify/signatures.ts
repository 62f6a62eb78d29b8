/**
 * npm registry signatures: a registry that signs publishes its public keys at `/-/npm/v1/keys` and, per version,
 * `dist.signatures: [{ keyid, sig }]`, an ECDSA P-256 / SHA-256 signature over `${name}@${version}:${integrity}`.
 */
import { createPublicKey, verify } from "node:crypto";
import { SlashiError, SlashiErrorCode } from "@slashi/core";

/** One key of `/-/npm/v1/keys`. */
export interface RegistryKey {
  /** Key id, such as `SHA256:jl3bwswu80PjjokCgh0o2w5c2U4LhQAE57gj9cz1kzA`. */
  keyid: string;
  /** Algorithm, `ecdsa-sha2-nistp256`. */
  keytype?: string;
  /** Signature scheme, `ecdsa-sha2-nistp256`. */
  scheme?: string;
  /** Base64 of the DER SubjectPublicKeyInfo. */
  key: string;
  /** ISO time after which the key no longer signs, or `null`. */
  expires?: string | null;
}

/** One entry of `dist.signatures`. */
export interface DistSignature {
  /** Which key signed. */
  keyid: string;
  /** Base64 DER ECDSA signature. */
  sig: string;
}

/** What signature checking found for one version. */
export type SignatureStatus = { status: "verified"; keyid: string } | { status: "unsigned"; reason: string };

/** The message a registry signs for one version. */
export function signedMessage(name: string, version: string, integrity: string): string {
  return `${name}@${version}:${integrity}`;
}

function fail(message: string, data: Record<string, unknown>): never {
  throw new SlashiError(SlashiErrorCode.PACK_INTEGRITY, message, data);
}

/**
 * Verifies a version's registry signature.
 *
 * - The registry publishes no keys (`keys` undefined, as on verdaccio): `unsigned`, with the reason, and a
 *   version that nonetheless carries signatures is refused (they cannot be checked).
 * - The registry publishes keys: the version must carry a signature by one of them that verifies; a missing,
 *   unknown-key, expired-at-publish or wrong signature is refused.
 * @param input - name, version, integrity, the version's `dist.signatures`, the registry's keys and publish time
 * @throws SlashiError `PACK_INTEGRITY` when a signature is required and does not verify
 */
export function verifySignature(input: {
  name: string;
  version: string;
  integrity: string;
  signatures: unknown;
  keys: readonly RegistryKey[] | undefined;
  publishedAt?: string;
}): SignatureStatus {
  const label = `${input.name}@${input.version}`;
  const signatures = Array.isArray(input.signatures) ? (input.signatures as DistSignature[]) : [];
  if (input.keys === undefined || input.keys.length === 0) {
    if (signatures.length > 0)
      fail(`${label}: the version is signed but the registry publishes no keys to check the signature`, {
        pack: label,
      });
    return { status: "unsigned", reason: "the registry publishes no signing keys (/-/npm/v1/keys)" };
  }
  if (signatures.length === 0)
    fail(`${label}: the registry signs its packages but this version carries no signature`, { pack: label });
  const message = Buffer.from(signedMessage(input.name, input.version, input.integrity));
  const published = input.publishedAt === undefined ? undefined : Date.parse(input.publishedAt);
  const problems: string[] = [];
  for (const signature of signatures) {
    const key = input.keys.find((k) => k.keyid === signature?.keyid);
    if (!key) {
      problems.push(`no registry key has id ${String(signature?.keyid)}`);
      continue;
    }
    if (
      key.expires &&
      published !== undefined &&
      !Number.isNaN(published) &&
      published >= Date.parse(key.expires)
    ) {
      problems.push(`key ${key.keyid} had expired when this version was published`);
      continue;
    }
    let ok: boolean;
    try {
      const publicKey = createPublicKey({ key: Buffer.from(key.key, "base64"), format: "der", type: "spki" });
      ok = verify("sha256", message, publicKey, Buffer.from(String(signature.sig), "base64"));
    } catch {
      ok = false;
    }
    if (ok) return { status: "verified", keyid: key.keyid };
    problems.push(`the signature by key ${key.keyid} does not verify`);
  }
  return fail(`${label}: registry signature check failed (${problems.join("; ")}); nothing was installed`, {
    pack: label,
  });
}
