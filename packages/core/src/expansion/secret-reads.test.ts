import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { quote } from "../quoting/quote.js";
import type { TerminalStep } from "../steps/types.js";
import { expandStep, type ExpansionContext } from "./expand.js";
import { redactedExpansionContext, secretPlaceholder, trackSecretReads } from "./secret-reads.js";

const step = (command: string): TerminalStep => ({ type: "terminal", command });

describe("secret reads", () => {
  it("records every secret value a step expands with, raw and quoted, and never an editor value", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((s) => !s.includes("\0")),
        fc.string({ minLength: 1 }).filter((s) => !s.includes("\0")),
        (secret, setting) => {
          const base: ExpansionContext = {
            source: "user",
            values: { args: "plain-args" },
            env: (name) => (name === "TOKEN" ? secret : undefined),
            config: (key) => (key === "deploy.key" ? { v: setting } : undefined),
            dialect: "posix",
          };
          const reads = trackSecretReads(base);
          const out = expandStep(
            step("deploy ${args} --token ${q:env:TOKEN} --key ${config:deploy.key}"),
            reads.context,
          );
          const values = reads.values();
          expect(values).toContain(secret);
          expect(values).toContain(JSON.stringify({ v: setting }));
          expect(values).not.toContain("plain-args");
          // ${q:env:…} inserts the quoted form, which is recorded too
          expect(values).toContain(quote(secret, "posix"));
          expect(out.command).toContain(quote(secret, "posix"));
        },
      ),
    );
  });

  it("expands to placeholders instead of values, and fails where the host has no value", () => {
    const base: ExpansionContext = {
      source: "user",
      values: {},
      env: (name) => (name === "TOKEN" ? "s3cret" : undefined),
      clipboard: "clip-secret",
      dialect: "posix",
    };
    const shown = expandStep(
      step("x ${env:TOKEN} ${q:env:TOKEN} ${clipboard}"),
      redactedExpansionContext(base),
    );
    expect(shown.command).toBe(`x ${secretPlaceholder("env", "TOKEN")} '⟪env:TOKEN⟫' ⟪clipboard⟫`);
    expect(() => expandStep(step("x ${env:UNSET}"), redactedExpansionContext(base))).toThrow();
  });
});
