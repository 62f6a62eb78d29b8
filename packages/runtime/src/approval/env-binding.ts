/**
 * What the environment a command runs with adds to its "Always allow" binding. Each set variable of core's
 * `CODE_LOADING_VARIABLES` is bound by its value and, where the value names files, by those files' bytes, so a
 * change of either asks again; a variable whose code cannot be pinned that way refuses the binding (the
 * command asks every time and the prompt names the variable). By the kind of value:
 * - `code`: the value;
 * - `file`, `files`, `startup-dir`: the value and each file's bytes (a missing file is bound as missing); a file
 *   named without a directory is refused (a program may look it up by name);
 * - `search-path`: the value, when every entry is an absolute directory outside the repository; an empty or
 *   relative entry, an expansion, or one inside the repository (where the repository puts code by name) is
 *   refused. The files in those directories are not read;
 * - `options`: the value, read by the program's own option rules (core's `interpreterLaunch`), and the files its
 *   options load; an option that loads code found by the program's own rules is refused;
 * - `unpinned`: refused.
 */
import path from "node:path";
import { codeLoadingVariable, interpreterLaunch } from "@slashi/core/internal";
import { textDigest } from "../audit/redact.js";

/** The environment a command runs with: name → value (`undefined` or empty: not set). */
export type BindingEnv = Readonly<Record<string, string | undefined>>;

/**
 * Reads a file for the binding: its bytes (a string stands for its UTF-8 bytes), `undefined` when it does not
 * exist, or why it was refused (a FIFO, a device, too large). A refused file is never treated as missing.
 */
export type ReadText = (file: string) => string | Uint8Array | undefined | { refused: string };

/** One bound variable: its name, value, and each file it names with its digest (`missing` when absent). */
export type BoundVariable = [name: string, value: string, files: [file: string, digest: string][]];

/** Where the command runs: its directory, and the root of the repository around it. */
export interface EnvSite {
  /** Absolute working directory. */
  cwd: string;
  /** Root of the repository (workspace) it runs in. */
  root: string;
}

/**
 * The set variables of `env` that are on core's `CODE_LOADING_VARIABLES` list, sorted by name. Empty values
 * count as not set.
 */
export function codeLoadingVariables(env: BindingEnv): string[] {
  return Object.keys(env)
    .filter((name) => env[name] !== undefined && env[name] !== "" && codeLoadingVariable(name) !== undefined)
    .sort();
}

/** The word an options value is read in front of, standing for the script. */
const SCRIPT = "\u0000script";

type Why = { refused: string };

function fileDigest(file: string, read: ReadText): string | Why {
  const got = read(file);
  if (got === undefined) return "missing";
  if (typeof got === "string" || got instanceof Uint8Array) return textDigest(got);
  return { refused: `${file} is refused (${got.refused})` };
}

function boundFiles(names: readonly string[], site: EnvSite, read: ReadText): [string, string][] | Why {
  const out: [string, string][] = [];
  for (const name of names) {
    if (!name.includes("/"))
      return { refused: `names ${name} without a directory, which is looked up by name` };
    const file = path.resolve(site.cwd, name);
    const digest = fileDigest(file, read);
    if (typeof digest !== "string") return digest;
    out.push([file, digest]);
  }
  return out;
}

function searchPath(value: string, site: EnvSite): Why | undefined {
  for (const entry of value.split(/[:;]/)) {
    const dir = entry.includes("?") ? path.dirname(entry.slice(0, entry.indexOf("?")) + "x") : entry;
    if (dir === "") return { refused: "has an empty entry, which stands for the working directory" };
    if (/[$`]/.test(dir)) return { refused: `has the entry ${entry}, expanded when the program runs` };
    if (!path.isAbsolute(dir)) return { refused: `has the relative entry ${entry}` };
    const inside = path.relative(site.root, path.resolve(dir));
    if (!inside.startsWith("..") && !path.isAbsolute(inside))
      return { refused: `has the entry ${entry} inside the repository, where code is found by name` };
  }
  return undefined;
}

function options(value: string, program: string, site: EnvSite, read: ReadText): [string, string][] | Why {
  if (/["'\\]/.test(value)) return { refused: "is quoted or escaped in a way Slashi does not read" };
  const words = value
    .trim()
    .split(/\s+/)
    .filter((w) => w !== "");
  const launch = interpreterLaunch(program, [...words, SCRIPT]);
  if ("refused" in launch) return { refused: `gives ${program} options: ${launch.refused}` };
  if (launch.script !== SCRIPT) return { refused: `names ${launch.script}, which ${program} runs` };
  return boundFiles(
    launch.loads.map((load) => (load.file.includes("/") ? load.file : `./${load.file}`)),
    site,
    read,
  );
}

function boundVariable(name: string, value: string, site: EnvSite, read: ReadText): BoundVariable | Why {
  const entry = codeLoadingVariable(name);
  const files = ((): [string, string][] | Why => {
    switch (entry?.value) {
      case "code":
        return [];
      case "file":
        return boundFiles([value], site, read);
      case "files":
        return boundFiles(
          value.split(/[:\s]+/).filter((f) => f !== ""),
          site,
          read,
        );
      case "startup-dir":
        return boundFiles([path.join(path.resolve(site.cwd, value), entry.of ?? "")], site, read);
      case "search-path":
        return searchPath(value, site) ?? [];
      case "options":
        return options(value, entry.of ?? "", site, read);
      default:
        return { refused: "loads code found by rules Slashi does not follow" };
    }
  })();
  if (!Array.isArray(files)) return files;
  return [name, value, files];
}

/**
 * The code-loading variables of `env`, each bound by value and by the files it names, sorted by name; or why one
 * cannot be bound, naming it.
 */
export function environmentBinding(
  env: BindingEnv,
  site: EnvSite,
  read: ReadText,
): BoundVariable[] | { refused: string } {
  const out: BoundVariable[] = [];
  for (const name of codeLoadingVariables(env)) {
    const bound = boundVariable(name, env[name] as string, site, read);
    if (!Array.isArray(bound))
      return {
        refused: `the environment sets ${name}, which ${bound.refused}: what it runs may load code the approval cannot bind; it asks every time`,
      };
    out.push(bound);
  }
  return out;
}
