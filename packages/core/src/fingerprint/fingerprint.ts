import { SlashiError, SlashiErrorCode } from "../errors.js";
import type { CommandDefinition } from "../steps/types.js";
import { FINGERPRINT_FORMAT, canonicalCommand } from "./canonical.js";
import { sha256Hex } from "./sha256.js";

/** A command fingerprint: `slashi-fp-1:sha256:<64 lowercase hex digits>`. */
export type Fingerprint = string;

const FINGERPRINT = /^([a-z0-9-]+):sha256:([0-9a-f]{64})$/;

/**
 * The fingerprint of a command: `slashi-fp-1:sha256:` + the SHA-256 (hex) of {@link canonicalCommand}. Any
 * change of any character of the definition (a look-alike letter, a zero-width space, NFC vs NFD), any step
 * added, removed, reordered or retyped gives another fingerprint; key order and formatting of the source JSON
 * do not matter.
 * @throws SlashiError `INVALID_STEP` when the definition is not plain JSON data
 */
export function fingerprintCommand(def: CommandDefinition): Fingerprint {
  return fingerprintOfCanonical(canonicalCommand(def));
}

/** The fingerprint of an already canonical command document (as stored in an approval record). */
export function fingerprintOfCanonical(canonical: string): Fingerprint {
  return `${FINGERPRINT_FORMAT}:sha256:${sha256Hex(canonical)}`;
}

/** The parts of a fingerprint string. */
export interface ParsedFingerprint {
  /** Format version, such as `slashi-fp-1`. */
  format: string;
  /** The 64 hex digits. */
  sha256: string;
}

/**
 * Splits a fingerprint into its format version and digest.
 * @throws SlashiError `INVALID_FINGERPRINT` when it is malformed, or of a format version this core does not know
 */
export function parseFingerprint(fingerprint: string): ParsedFingerprint {
  const m = typeof fingerprint === "string" ? FINGERPRINT.exec(fingerprint) : null;
  if (!m) throw new SlashiError(SlashiErrorCode.INVALID_FINGERPRINT, "the fingerprint is malformed");
  if (m[1] !== FINGERPRINT_FORMAT) {
    throw new SlashiError(SlashiErrorCode.INVALID_FINGERPRINT, `unknown fingerprint format ${m[1]}`, {
      format: m[1],
    });
  }
  return { format: m[1], sha256: m[2] as string };
}

/**
 * True only for a well-formed fingerprint of the current format. A fingerprint of another (older or newer)
 * format never matches anything: the command asks again (requirement 8).
 */
export function isCurrentFingerprint(fingerprint: unknown): fingerprint is Fingerprint {
  if (typeof fingerprint !== "string") return false;
  const m = FINGERPRINT.exec(fingerprint);
  return m !== null && m[1] === FINGERPRINT_FORMAT;
}

/**
 * Whether an approved fingerprint covers the current one: both must be of the current format and identical.
 */
export function fingerprintsMatch(approved: unknown, current: unknown): boolean {
  return isCurrentFingerprint(approved) && isCurrentFingerprint(current) && approved === current;
}
