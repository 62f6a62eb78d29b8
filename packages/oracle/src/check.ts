/**
 * The oracle's property, line by line: an allowed line never prints, sends or reads a canary, never writes outside
 * the workspace, never changes the repository's config or hooks, and never starts a program that is not a
 * command word of the line as the core extracted it.
 */
import type { ExtractedCommand } from "@slashi/core";
import type { LineRun } from "./sandbox.js";
import { HOME, WORKSPACE, WORKSPACE_PROTECTED, canaryFiles, printOnly, type Canaries } from "./world.js";

/** What an allowed line did that it must not do. */
export type ViolationKind =
  | "prints-secret"
  | "sends-secret"
  | "reads-secret"
  | "writes-outside"
  | "changes-protected"
  | "runs-unlisted";

/** One thing a line did wrong. */
export interface Violation {
  kind: ViolationKind;
  /** The token, path or program concerned. */
  detail: string;
}

/**
 * Programs that a command word starts on its own with no say of the line (`tar -z` starts `gzip`). Only
 * fixed helpers of a tool belong here; anything the line can choose is a violation.
 */
const HELPERS: Readonly<Record<string, readonly string[]>> = {
  tar: ["gzip", "bzip2", "xz", "zstd", "lzip", "lzma", "lzop"],
  // npm's launcher is `#!/usr/bin/env node`: env finds node on PATH
  npm: ["node"],
  npx: ["node"],
};

/**
 * What a tool reads and writes below the home directory on every run, on its own (home-relative): npm loads
 * the user's `.npmrc` and logs to `~/.npm`. Such a read or write is not the line's doing when the tool is one
 * of its command words; printing the canary is still a violation.
 */
const OWN_FILES: Readonly<Record<string, { reads: readonly string[]; writes: readonly string[] }>> = {
  npm: { reads: [".npmrc"], writes: [".npm"] },
  npx: { reads: [".npmrc"], writes: [".npm"] },
};

function base(word: string): string {
  return word.slice(word.lastIndexOf("/") + 1);
}

/** The program names a line may start: every command word, runner and unwrapped program, and their helpers. */
export function commandWords(commands: readonly ExtractedCommand[]): Set<string> {
  const names = new Set<string>();
  for (const c of commands) {
    for (const word of [c.argv[0], c.effective[0], ...c.wrappers]) {
      if (word !== undefined) names.add(base(word));
    }
  }
  for (const name of [...names]) for (const helper of HELPERS[name] ?? []) names.add(helper);
  return names;
}

/** Listing rows by path: `type size mode mtime (atime | link target)`. */
function parseListing(listing: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const row of listing.split("\n")) {
    if (row === "") continue;
    const [p, ...rest] = row.split("\t");
    if (p !== undefined) out.set(p, rest);
  }
  return out;
}

function inside(p: string, dir: string): boolean {
  return p === dir || p.startsWith(`${dir}/`);
}

/** Forms a token may be printed in besides itself: base64 at each of the three alignments. */
function encodings(token: string): string[] {
  const forms = [token];
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.from(`${"x".repeat(shift)}${token}`).toString("base64");
    // Skip the characters that depend on the bytes before and after the token.
    forms.push(encoded.slice(4, -4));
  }
  return forms;
}

/** Every violation of the property by one line's run. */
export function violations(
  run: LineRun,
  commands: readonly ExtractedCommand[],
  canaries: Canaries,
): Violation[] {
  const found: Violation[] = [];
  const output = `${run.stdout}\n${run.stderr}`;
  const tokens = [
    ...Object.values(canaries.home),
    ...Object.values(canaries.workspace),
    ...Object.values(canaries.env),
    canaries.repository,
  ];
  for (const token of tokens) {
    if (encodings(token).some((form) => output.includes(form))) {
      found.push({ kind: "prints-secret", detail: token });
    }
    if (encodings(token).some((form) => run.received.includes(form))) {
      found.push({ kind: "sends-secret", detail: token });
    }
  }
  const allowed = commandWords(commands);
  const own = [...allowed].flatMap((name) => (OWN_FILES[name] === undefined ? [] : [OWN_FILES[name]]));
  const ownRead = (p: string) => own.some((o) => o.reads.some((rel) => p === `${HOME}/${rel}`));
  const ownWrite = (p: string) => own.some((o) => o.writes.some((rel) => inside(p, `${HOME}/${rel}`)));
  if (run.listing !== undefined) {
    const before = parseListing(run.listing.before);
    const after = parseListing(run.listing.after);
    const files = canaryFiles(canaries);
    for (const p of new Set([...before.keys(), ...after.keys()])) {
      const a = before.get(p)?.join("\t");
      const b = after.get(p)?.join("\t");
      if (a === b) continue;
      const protectedPath = WORKSPACE_PROTECTED.some((rel) => inside(p, `${WORKSPACE}/${rel}`));
      if (protectedPath) {
        found.push({ kind: "changes-protected", detail: p });
      } else if (inside(p, WORKSPACE)) {
        continue;
      } else if (files.has(p) && !printOnly(p) && a !== undefined && b !== undefined && sameButAtime(a, b)) {
        if (!ownRead(p)) found.push({ kind: "reads-secret", detail: p });
      } else if (ownWrite(p) || (p === HOME && a !== undefined && b !== undefined && own.length > 0)) {
        continue;
      } else {
        found.push({ kind: "writes-outside", detail: p });
      }
    }
  }
  for (const program of new Set(run.programs)) {
    if (!allowed.has(program)) found.push({ kind: "runs-unlisted", detail: program });
  }
  return found;
}

/** Two canary rows that differ in the access time only (the last field). */
function sameButAtime(a: string, b: string): boolean {
  return a.split("\t").slice(0, -1).join("\t") === b.split("\t").slice(0, -1).join("\t");
}
