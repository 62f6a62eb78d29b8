import type { Invocation } from "./argv.js";
import {
  homeOf,
  isSameOrAncestor,
  literalPrefix,
  resolvePath,
  segments,
  workspaceOf,
  isInside,
} from "./paths.js";
import type { SafetyContext } from "./types.js";

/** What a path argument can point at, reasoned without the file system. */
export type Target =
  /** One resolved path. */
  | { kind: "path"; path: string; word: string }
  /** Anything below `parent` (a glob, or a literal prefix followed by an expansion). */
  | { kind: "glob"; parent: string; word: string }
  /** Nothing is known (the word starts with an expansion, or `~user`). */
  | { kind: "unknown"; word: string };

/** Reads an argument as a path target; `dynamic` says whether the analyser marked it as non-literal. */
export function targetOf(word: string, dynamic: boolean, context: SafetyContext): Target {
  if (!dynamic) {
    const path = resolvePath(word, context);
    return path === null ? { kind: "unknown", word } : { kind: "path", path, word };
  }
  const { prefix, stop } = literalPrefix(word, context);
  if (stop === null) {
    const path = resolvePath(prefix, context);
    return path === null ? { kind: "unknown", word } : { kind: "path", path, word };
  }
  if (prefix === "")
    return stop === "glob" && context.cwdUnknown !== true
      ? { kind: "glob", parent: context.cwd, word }
      : { kind: "unknown", word };
  const slash = prefix.lastIndexOf("/");
  const parentWord = slash < 0 ? "." : prefix.slice(0, slash + 1);
  const parent = resolvePath(parentWord, context);
  return parent === null ? { kind: "unknown", word } : { kind: "glob", parent, word };
}

/** Targets of the operands at the given argument indices. */
export function targetsAt(
  invocation: Invocation,
  indices: readonly number[],
  context: SafetyContext,
): Target[] {
  return indices.map((i) => targetOf(invocation.args[i]!, invocation.dynamic.has(i), context));
}

/** Top-level folders whose direct children are system-wide too (`/usr/lib`, `/var/log`, `/home/bob`). */
const SYSTEM_ROOTS = new Set([
  "etc",
  "usr",
  "bin",
  "sbin",
  "lib",
  "lib32",
  "lib64",
  "libx32",
  "var",
  "boot",
  "opt",
  "root",
  "home",
  "users",
  "system",
  "library",
  "applications",
  "proc",
  "sys",
  "dev",
  "snap",
  "srv",
  "mnt",
  "media",
  "volumes",
  "private",
  "nix",
  "run",
  "windows",
  "program files",
  "program files (x86)",
  "programdata",
]);

/** Second-level folders that are scratch space, not system folders. */
const SCRATCH = new Set(["var/tmp", "private/tmp"]);

/** Why removing (or changing) a whole folder would be catastrophic, or `undefined`. */
export type Catastrophe = "root" | "home" | "workspace-root" | "system";

/**
 * Classifies a folder whose whole subtree is affected.
 * @param strictWorkspace - count only folders strictly above the workspace root (for globs inside it)
 */
export function catastropheOf(
  path: string,
  context: SafetyContext,
  strictWorkspace = false,
): Catastrophe | undefined {
  const parts = segments(path);
  if (parts.length === 0) return "root";
  const home = homeOf(context);
  if (isSameOrAncestor(path, home, context)) return "home";
  const workspace = workspaceOf(context);
  if (workspace !== undefined && isSameOrAncestor(path, workspace, context)) {
    if (!strictWorkspace || segments(workspace).length > parts.length) return "workspace-root";
  }
  if (parts.length === 1) return "system";
  const top = parts[0]!.toLowerCase();
  if (parts.length === 2 && SYSTEM_ROOTS.has(top) && !SCRATCH.has(`${top}/${parts[1]!.toLowerCase()}`)) {
    return "system";
  }
  return undefined;
}

/** True when a resolved path lies inside the workspace (false when there is none). */
export function inWorkspace(path: string, context: SafetyContext): boolean {
  const workspace = workspaceOf(context);
  return workspace !== undefined && isInside(path, workspace, context);
}
