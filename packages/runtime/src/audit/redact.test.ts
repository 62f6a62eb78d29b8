import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactAuditEntry } from "./audit-log.js";
import {
  redactLongSecrets,
  redactSecrets,
  redactValue,
  SECRET_MARKER,
  SHORT_SECRET_NOTE,
  SUBSTRING_REDACTION_MIN,
  textDigest,
  TOKEN_REDACTION_MIN,
  WITHHELD_TEXT,
} from "./redact.js";

/** Whether `value` stands in `text` as a token of its own (what {@link redactSecrets} replaces at any length). */
const standsAlone = (text: string, value: string): boolean =>
  text.split(/[\s"'`=:,;()[\]{}<>|&]+/).some((word) => word.replace(/[.!?]+$/, "") === value);

describe("redactSecrets", () => {
  it("leaves no secret in any text, whatever surrounds it (generated)", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.array(fc.string(), { minLength: 1, maxLength: 4 }),
        (secret, parts) => {
          const text = parts.join(secret);
          // the marker never re-creates the secret
          fc.pre(!(SECRET_MARKER + SECRET_MARKER + SHORT_SECRET_NOTE).includes(secret));
          const out = redactSecrets(text, [secret]);
          if (secret.length >= SUBSTRING_REDACTION_MIN) expect(out).not.toContain(secret);
          else if (secret.length >= TOKEN_REDACTION_MIN) {
            // free of the value, or withheld whole (the withheld words do not depend on it)
            if (out !== WITHHELD_TEXT) expect(out).not.toContain(secret);
          } else {
            // never alone, and the text says it may hold it inside a word
            expect(standsAlone(out, secret)).toBe(false);
            if (text !== "") expect(out.endsWith(` ${SHORT_SECRET_NOTE}`)).toBe(true);
          }
        },
      ),
    );
  });

  it("replaces a short value where it stands alone, at every length", () => {
    for (const value of ["%", "ab", "x1z", "pa55", "s3cr3t!"]) {
      const out = redactSecrets(`TOKEN=${value} -H "${value}" (${value}), then ${value}.`, [value]);
      expect(
        out.startsWith(
          `TOKEN=${SECRET_MARKER} -H "${SECRET_MARKER}" (${SECRET_MARKER}), then ${SECRET_MARKER}.`,
        ),
      ).toBe(true);
    }
  });

  it("replaces the longer of two overlapping secrets whole", () => {
    expect(redactSecrets("a=abcdefgh1234", ["abcdefgh", "abcdefgh1234"])).toBe(`a=${SECRET_MARKER}`);
    expect(redactSecrets("nothing here", [""])).toBe("nothing here");
  });

  it("walks arrays and objects, keeping keys and non-strings", () => {
    expect(
      redactValue({ argv: ["x", "s3cret!!"], n: 1, nested: { m: "is s3cret!!" } }, ["s3cret!!"]),
    ).toEqual({
      argv: ["x", SECRET_MARKER],
      n: 1,
      nested: { m: `is ${SECRET_MARKER}` },
    });
  });

  it("never cuts words apart for a short value", () => {
    // 1 to 3 characters: not looked for inside words, and the text says so whatever it holds
    expect(redactSecrets("deploy to prod", ["e"])).toBe(`deploy to prod ${SHORT_SECRET_NOTE}`);
    expect(redactSecrets("ls -la e", ["e"])).toBe(`ls -la ${SECRET_MARKER} ${SHORT_SECRET_NOTE}`);
    expect(redactSecrets("", ["e"])).toBe("");
    // 4 to 7 characters: replaced alone; found inside a word, the text is withheld whole
    expect(redactSecrets("user pass1 ok", ["pass1"])).toBe(`user ${SECRET_MARKER} ok`);
    expect(redactSecrets("user mypass1 ok", ["pass1"])).toBe(WITHHELD_TEXT);
    expect(redactSecrets("nothing here", ["pass1"])).toBe("nothing here");
    // the second net alone leaves short values to the positions that were already replaced
    expect(redactLongSecrets("deploy ⟪env:T⟫", ["e", "longer-value"])).toBe("deploy ⟪env:T⟫");
    expect(redactLongSecrets("x longer-value", ["e", "longer-value"])).toBe(`x ${SECRET_MARKER}`);
  });

  it("keeps the strings under a program's own keys, and redacts the free text that may quote a value", () => {
    const value = { status: "ran", steps: [{ command: "echo ⟪env:T⟫", message: "echo e" }], text: "ok" };
    expect(redactValue(value, ["e"], new Set(["status", "command"]))).toEqual({
      status: "ran",
      steps: [{ command: "echo ⟪env:T⟫", message: `echo ${SECRET_MARKER} ${SHORT_SECRET_NOTE}` }],
      text: `ok ${SHORT_SECRET_NOTE}`,
    });
  });
});

describe("redactAuditEntry", () => {
  it("keeps the template, the placeholder argv and the codes, and redacts a reason that may quote a value", () => {
    const entry = {
      event: "run" as const,
      host: "cli" as const,
      text: "deploy --region ${env:R}",
      argv: ["deploy", "--region", "⟪env:R⟫"],
      expandedDigest: textDigest("deploy --region e"),
      reasons: [
        { code: "network.fetch", severity: "ask", message: "deploy reaches the network" },
        { code: "x", message: "plain" },
      ],
      warning: "ran in the cordon",
    };
    expect(redactAuditEntry(entry, ["e"])).toEqual({
      ...entry,
      reasons: [
        {
          code: "network.fetch",
          severity: "ask",
          message: `deploy reaches the network ${SHORT_SECRET_NOTE}`,
        },
        { code: "x", message: `plain ${SHORT_SECRET_NOTE}` },
      ],
      warning: `ran in the cordon ${SHORT_SECRET_NOTE}`,
    });
    expect(redactAuditEntry(entry, ["reach"]).reasons?.[0]?.message).toBe(WITHHELD_TEXT);
  });

  it("does not depend on a secret value whatever its length, beyond the digest (generated)", () => {
    // The same command expanded with two values of a secret: every record field but the digest is the same.
    const record = (value: string): unknown => {
      const { expandedDigest, ...rest } = redactAuditEntry(
        {
          event: "decision" as const,
          host: "mcp" as const,
          text: "curl -H ${env:K} https://example.com",
          argv: ["curl", "-H", "⟪env:K⟫", "https://example.com"],
          expandedDigest: textDigest(`curl -H ${value} https://example.com`),
          reasons: [{ code: "network", message: `curl sends ${value} to example.com` }],
        },
        [value],
      );
      expect(expandedDigest).toMatch(/^sha256:/);
      return rest;
    };
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 12 }),
        fc.string({ minLength: 1, maxLength: 12 }),
        (a, b) => {
          // the same treatment: anywhere, alone or withheld, alone and noted
          const treatment = (v: string): number =>
            v.length >= SUBSTRING_REDACTION_MIN ? 2 : v.length >= TOKEN_REDACTION_MIN ? 1 : 0;
          fc.pre(treatment(a) === treatment(b));
          const texts = ["curl -H ${env:K} https://example.com", "⟪env:K⟫", SECRET_MARKER];
          // a value that is part of the record's own words shows in them by coincidence, not by leaking
          fc.pre(
            ![a, b].some((v) => texts.some((t) => t.includes(v)) || "curl sends  to example.com".includes(v)),
          );
          expect(record(a)).toEqual(record(b));
        },
      ),
    );
  });
});

describe("textDigest", () => {
  it("is the SHA-256 of the UTF-8 bytes", () => {
    expect(textDigest("abc")).toBe("sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(textDigest("é")).not.toBe(textDigest("e\u0301"));
  });
});
