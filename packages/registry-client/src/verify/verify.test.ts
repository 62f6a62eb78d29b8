import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SlashiErrorCode, isSlashiError } from "@slashi/core";
import type { SlashiError } from "@slashi/core";
import { sha512Digests, tarballDigests, verifyIntegrity } from "./integrity.js";
import { signedMessage, verifySignature } from "./signatures.js";
import type { RegistryKey } from "./signatures.js";

function failure(fn: () => unknown): SlashiError {
  try {
    fn();
  } catch (error) {
    if (isSlashiError(error)) return error;
    throw error;
  }
  throw new Error("expected a SlashiError");
}

const bytes = Buffer.from("tarball bytes");
const { integrity, shasum } = tarballDigests(bytes);

describe("verifyIntegrity", () => {
  it("computes npm's integrity and shasum", () => {
    expect(integrity).toBe(`sha512-${createHash("sha512").update(bytes).digest("base64")}`);
    expect(shasum).toBe(createHash("sha1").update(bytes).digest("hex"));
  });

  it("accepts bytes that match and an SRI list holding the match", () => {
    expect(() => verifyIntegrity(bytes, integrity, "p@1.0.0")).not.toThrow();
    expect(() => verifyIntegrity(bytes, `sha1-AAAA ${integrity}`, "p@1.0.0")).not.toThrow();
  });

  it("refuses bytes changed by one bit", () => {
    const tampered = Buffer.from(bytes);
    tampered[0] = (tampered[0] as number) ^ 1;
    const error = failure(() => verifyIntegrity(tampered, integrity, "p@1.0.0"));
    expect(error.code).toBe(SlashiErrorCode.PACK_INTEGRITY);
    expect(error.message).toContain("does not match");
  });

  it("refuses a listing without a sha512 integrity", () => {
    expect(failure(() => verifyIntegrity(bytes, undefined, "p@1.0.0")).code).toBe(
      SlashiErrorCode.PACK_INTEGRITY,
    );
    const sha1Only = `sha1-${createHash("sha1").update(bytes).digest("base64")}`;
    expect(failure(() => verifyIntegrity(bytes, sha1Only, "p@1.0.0")).message).toContain("no sha512");
  });

  it("ignores malformed SRI tokens", () => {
    expect(sha512Digests("sha512-short sha512-!!!")).toEqual([]);
  });
});

describe("verifySignature", () => {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const key: RegistryKey = {
    keyid: "SHA256:test",
    keytype: "ecdsa-sha2-nistp256",
    scheme: "ecdsa-sha2-nistp256",
    key: publicKey.export({ format: "der", type: "spki" }).toString("base64"),
    expires: null,
  };
  const sig = (message: string): string =>
    sign("sha256", Buffer.from(message), privateKey).toString("base64");
  const base = { name: "@acme/pack", version: "1.0.0", integrity };

  it("verifies a signature over name@version:integrity", () => {
    const signatures = [{ keyid: key.keyid, sig: sig(signedMessage(base.name, base.version, integrity)) }];
    expect(verifySignature({ ...base, signatures, keys: [key] })).toEqual({
      status: "verified",
      keyid: key.keyid,
    });
  });

  it("refuses a signature over another version", () => {
    const signatures = [{ keyid: key.keyid, sig: sig(signedMessage(base.name, "1.0.1", integrity)) }];
    const error = failure(() => verifySignature({ ...base, signatures, keys: [key] }));
    expect(error.code).toBe(SlashiErrorCode.PACK_INTEGRITY);
    expect(error.message).toContain("does not verify");
  });

  it("refuses an unsigned version when the registry publishes keys", () => {
    expect(failure(() => verifySignature({ ...base, signatures: undefined, keys: [key] })).message).toContain(
      "carries no signature",
    );
  });

  it("refuses a signature by an unknown key", () => {
    const signatures = [
      { keyid: "SHA256:other", sig: sig(signedMessage(base.name, base.version, integrity)) },
    ];
    expect(failure(() => verifySignature({ ...base, signatures, keys: [key] })).message).toContain(
      "no registry key",
    );
  });

  it("refuses a key that had expired at publish time", () => {
    const signatures = [{ keyid: key.keyid, sig: sig(signedMessage(base.name, base.version, integrity)) }];
    const expired = { ...key, expires: "2020-01-01T00:00:00.000Z" };
    const error = failure(() =>
      verifySignature({ ...base, signatures, keys: [expired], publishedAt: "2024-01-01T00:00:00.000Z" }),
    );
    expect(error.message).toContain("expired");
  });

  it("reports unsigned when the registry publishes no keys", () => {
    expect(verifySignature({ ...base, signatures: undefined, keys: undefined })).toMatchObject({
      status: "unsigned",
    });
  });
});
