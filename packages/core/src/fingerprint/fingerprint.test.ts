import { describe, expect, it } from "vitest";
import type { CommandDefinition, Step } from "../steps/types.js";
import {
  fingerprintCommand,
  fingerprintsMatch,
  isCurrentFingerprint,
  parseFingerprint,
} from "./fingerprint.js";

const base: CommandDefinition = {
  name: "ship",
  description: "Commit and push",
  steps: [
    { type: "terminal", command: 'git commit -am "${args}"' },
    { type: "notify", message: "Pushed" },
  ],
};
const fp = fingerprintCommand(base);
const variant = (steps: Step[], extra: Partial<CommandDefinition> = {}): string =>
  fingerprintCommand({ ...base, ...extra, steps });

describe("fingerprintCommand", () => {
  it("has the versioned sha256 form", () => {
    expect(fp).toMatch(/^slashi-fp-1:sha256:[0-9a-f]{64}$/);
  });

  it("ignores key order and formatting of the source JSON", () => {
    const reordered = JSON.parse(
      '{"steps":[{"command":"git commit -am \\"${args}\\"","type":"terminal"},{"message":"Pushed","type":"notify"}],\n\n "description":"Commit and push","name":"ship"}',
    );
    expect(fingerprintCommand(reordered)).toBe(fp);
  });

  it("changes with any one character, look-alike, zero-width or normalisation form", () => {
    const command = 'git commit -am "${args}"';
    const edits = [
      command.replace("commit", "cоmmit"),
      command.replace("git", "gi\u200bt"),
      `${command} `,
      command.replace('"', "\u201c"),
    ];
    for (const edit of edits)
      expect(variant([{ type: "terminal", command: edit }, base.steps[1] as Step])).not.toBe(fp);
    const nfc = fingerprintCommand({ name: "x", steps: [{ type: "insert", text: "caf\u00e9" }] });
    const nfd = fingerprintCommand({ name: "x", steps: [{ type: "insert", text: "cafe\u0301" }] });
    expect(nfc).not.toBe(nfd);
  });

  it("changes when a step is added, removed, reordered or retyped", () => {
    const [a, b] = base.steps as [Step, Step];
    expect(variant([a, b, { type: "wait", ms: 1 }])).not.toBe(fp);
    expect(variant([a])).not.toBe(fp);
    expect(variant([b, a])).not.toBe(fp);
    expect(variant([a, { type: "insert", text: "Pushed" }])).not.toBe(fp);
  });

  it("changes with the description, name, argument hint or any extra field", () => {
    expect(fingerprintCommand({ ...base, description: "Commit and push!" })).not.toBe(fp);
    expect(fingerprintCommand({ ...base, name: "ship2" })).not.toBe(fp);
    expect(fingerprintCommand({ ...base, args: "<msg>" })).not.toBe(fp);
    expect(fingerprintCommand({ ...base, when: "always" } as CommandDefinition)).not.toBe(fp);
  });

  it("treats a number written as 18 or 18.0 as the same", () => {
    const a = fingerprintCommand(JSON.parse('{"name":"f","steps":[{"type":"wait","ms":18}]}'));
    const b = fingerprintCommand(JSON.parse('{"name":"f","steps":[{"type":"wait","ms":18.0}]}'));
    expect(a).toBe(b);
  });
});

describe("fingerprint versions", () => {
  it("accepts only the current format", () => {
    const hex = fp.slice("slashi-fp-1:sha256:".length);
    expect(isCurrentFingerprint(fp)).toBe(true);
    expect(isCurrentFingerprint(`slashi-fp-2:sha256:${hex}`)).toBe(false);
    expect(isCurrentFingerprint(`sha256:${hex}`)).toBe(false);
    expect(isCurrentFingerprint(`${fp}0`)).toBe(false);
    expect(isCurrentFingerprint(fp.toUpperCase())).toBe(false);
    expect(isCurrentFingerprint(undefined)).toBe(false);
  });

  it("never matches a fingerprint of an unknown format, even with the same digest", () => {
    const hex = fp.slice("slashi-fp-1:sha256:".length);
    expect(fingerprintsMatch(fp, fp)).toBe(true);
    expect(fingerprintsMatch(`slashi-fp-0:sha256:${hex}`, fp)).toBe(false);
  });

  it("parses a current fingerprint and rejects others with INVALID_FINGERPRINT", () => {
    expect(parseFingerprint(fp)).toEqual({ format: "slashi-fp-1", sha256: fp.slice(19) });
    expect(() => parseFingerprint("slashi-fp-9:sha256:" + "0".repeat(64))).toThrow(
      /unknown fingerprint format/,
    );
    expect(() => parseFingerprint("nope")).toThrow(/malformed/);
  });
});
