/**
 * What a policy's `extends` entry names, and the error a person can act on when it names nothing: the file,
 * line and JSON path of the entry, and the closest preset or installed pack (a typo such as `"recommnded"`).
 */
import { SlashiError, SlashiErrorCode } from "../errors.js";
import type { SourceLocation } from "../errors.js";
import { PRESETS } from "./recommended.js";

/** Edit distance (insertions, deletions, substitutions, adjacent swaps). */
function distance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row.push(d);
    }
    rows.push(row);
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/**
 * The candidate closest to `word` when it is near enough to be a typo of it (at most a third of the word's
 * letters wrong, and at least two allowed), ignoring case; `undefined` when none is, or `word` is itself one of
 * them. It does not say whether a candidate exists anywhere: callers pass what they know.
 * @param word - what was written
 * @param candidates - the names it may have meant
 */
export function closestName(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  const lower = word.toLowerCase();
  for (const candidate of candidates) {
    if (candidate === word) return undefined;
    const d = distance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/**
 * True when an `extends` entry is written as a file path (`./team.json`, `../x.yml`, `.enkaidu/config.yml`,
 * `config/x.yml`, `/etc/…`, `~/…`, `C:\\…`) rather than a preset or pack name: it starts with `.`, a separator,
 * `~/` or a drive, or holds a separator without being a scoped name (`@scope/name`). No registry name does
 * any of these, so `enkaidu.yml` and `@acme/policy.yml` are names. It does not check that the file exists.
 */
export function isExtendsPath(entry: string): boolean {
  return /^(?:\.|[\\/]|~[\\/]|[A-Za-z]:[\\/])/.test(entry) || (!entry.startsWith("@") && /[\\/]/.test(entry));
}

/**
 * The error for an `extends` entry that names no built-in preset, no installed pack and no file: code
 * `PACK_NOT_FOUND`, data `extends` (the entry) and `suggestion` (the closest preset or installed pack, when one
 * is near), plus the location given. A name with no near match that looks like a pack gets the install command.
 * @param entry - the entry as written
 * @param installedPacks - names of the installed packs
 * @param location - where the entry is written (file, line, column, JSON path), as far as known
 */
export function unknownExtendsError(
  entry: string,
  installedPacks: readonly string[],
  location: SourceLocation = {},
): SlashiError {
  const suggestion = closestName(entry, [...PRESETS.keys(), ...installedPacks]);
  const presets = [...PRESETS.keys()].map((n) => `"${n}"`).join(", ");
  const hint =
    suggestion !== undefined
      ? `did you mean "${suggestion}"?`
      : isExtendsPath(entry)
        ? "check the path"
        : `presets: ${presets}; if it is a pack, install it with: slashi pack install ${entry}`;
  return new SlashiError(
    SlashiErrorCode.PACK_NOT_FOUND,
    `extends "${entry}", which is not a built-in preset, an installed pack or a policy file; ${hint}`,
    { ...location, extends: entry, pack: entry, ...(suggestion === undefined ? {} : { suggestion }) },
  );
}
