import { constants } from "node:fs";
import { access, realpath, stat } from "node:fs/promises";
import path from "node:path";

/** Result of checking that a managed policy file can only have been written by an administrator. */
export interface ManagedPolicyCheck {
  /** The path that was checked. */
  path: string;
  /** The file exists. */
  exists: boolean;
  /** The file may be used as the managed layer. */
  usable: boolean;
  /** Ownership and permissions were verified (false on Windows, where ACLs are not inspected). */
  verified: boolean;
  /** Why the file is ignored or unverified, in plain words (absent when usable and verified). */
  warning?: string;
}

/** What the check needs to know about the process; tests pass their own. */
export interface ManagedPolicyCheckOptions {
  /** Operating system (default `process.platform`). */
  platform?: NodeJS.Platform;
}

const GROUP_OR_OTHER_WRITE = 0o022;

/**
 * Checks that a managed policy file is owned by root and writable by nobody else, and that the same holds for
 * every directory above it (otherwise the file could be swapped). A file that fails is IGNORED, with a
 * warning: a policy an ordinary user (or an agent running as that user) can plant must not act as the
 * administrator's layer.
 *
 * POSIX rules, for the file (after resolving symlinks) and each directory from it up to `/`, and for the
 * directories of the path as written: owner uid 0, no group or other write bit, and, when this process is not
 * root, not writable by this process (`access(W_OK)`, which also sees ACLs). When this process runs as root,
 * a root-owned file is fine.
 *
 * Windows: ACLs are not inspected; an existing file is used with `verified: false` and a warning.
 */
export async function checkManagedPolicy(
  file: string,
  options: ManagedPolicyCheckOptions = {},
): Promise<ManagedPolicyCheck> {
  const platform = options.platform ?? process.platform;
  const uid = process.geteuid?.() ?? -1;
  let real: string;
  try {
    real = await realpath(file);
  } catch {
    return { path: file, exists: false, usable: false, verified: false };
  }
  if (platform === "win32") {
    return {
      path: file,
      exists: true,
      usable: true,
      verified: false,
      warning: `managed policy ${file}: ownership cannot be verified on Windows; make sure only administrators can write it`,
    };
  }
  const fileStat = await stat(real);
  if (!fileStat.isFile()) {
    return ignored(file, `managed policy ${file} is not a regular file`);
  }
  const problem =
    (await ownershipProblem(real, uid, "file")) ??
    (await ancestorsProblem(path.dirname(real), uid)) ??
    (await ancestorsProblem(path.dirname(path.resolve(file)), uid));
  if (problem) return ignored(file, `managed policy ${file} is ignored: ${problem}`);
  return { path: file, exists: true, usable: true, verified: true };
}

function ignored(file: string, warning: string): ManagedPolicyCheck {
  return { path: file, exists: true, usable: false, verified: false, warning };
}

async function ancestorsProblem(dir: string, uid: number): Promise<string | undefined> {
  let current = dir;
  for (;;) {
    const problem = await ownershipProblem(current, uid, "directory");
    if (problem) return problem;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

async function ownershipProblem(target: string, uid: number, what: string): Promise<string | undefined> {
  let info;
  try {
    info = await stat(target);
  } catch {
    return `${what} ${target} cannot be inspected`;
  }
  if (info.uid !== 0) return `${what} ${target} is owned by uid ${info.uid}, not root`;
  // A sticky, world-writable directory (/tmp) still lets anyone create entries in it: refuse it too.
  if ((info.mode & GROUP_OR_OTHER_WRITE) !== 0) {
    return `${what} ${target} is writable by group or others (mode ${(info.mode & 0o7777).toString(8)})`;
  }
  if (uid !== 0) {
    try {
      await access(target, constants.W_OK);
      return `${what} ${target} is writable by the current user`;
    } catch {
      // not writable: good
    }
  }
  return undefined;
}
