import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactSecrets, redactValue, SECRET_MARKER, textDigest } from "./redact.js";

describe("redactSecrets", () => {
  it("leaves no secret in any text, whatever surrounds it (generated)", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.array(fc.string(), { minLength: 1, maxLength: 4 }),
        (secret, parts) => {
          const text = parts.join(secret);
          // the marker never re-creates the secret
          fc.pre(!(SECRET_MARKER + SECRET_MARKER).includes(secret));
          expect(redactSecrets(text, [secret])).not.toContain(secret);
        },
      ),
    );
  });

  it("replaces the longer of two overlapping secrets whole", () => {
    expect(redactSecrets("a=abcdef", ["abc", "abcdef"])).toBe(`a=${SECRET_MARKER}`);
    expect(redactSecrets("nothing here", [""])).toBe("nothing here");
  });

  it("walks arrays and objects, keeping keys and non-strings", () => {
    expect(redactValue({ argv: ["x", "s3cret!"], n: 1, nested: { m: "is s3cret!" } }, ["s3cret!"])).toEqual({
      argv: ["x", SECRET_MARKER],
      n: 1,
      nested: { m: `is ${SECRET_MARKER}` },
    });
  });
});

describe("textDigest", () => {
  it("is the SHA-256 of the UTF-8 bytes", () => {
    expect(textDigest("abc")).toBe("sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(textDigest("é")).not.toBe(textDigest("e\u0301"));
  });
});
