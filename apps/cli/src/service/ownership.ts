/**
 * Who may answer for this user: only a service whose socket sits in a directory this user owns and nobody
 * else can enter, and is itself owned by this user and closed to others. Node has no `SO_PEERCRED`, so the
 * checks are on the file system, made without following symbolic links, before every connection.
 */
import { chmodSync, lstatSync, mkdirSync, realpathSync, type Stats } from "node:fs";
import path from "node:path";

/** The facts of a file the checks look at (a subset of `fs.Stats`, so tests can build them). */
export type FileFacts = Pick<Stats, "uid" | "mode" | "isDirectory" | "isSocket" | "isSymbolicLink">;

/** Why a file cannot be trusted, or `undefined` when it can. */
export type Distrust = string | undefined;

/** The user id of this process (`undefined` where there are no user ids: no service there). */
export function currentUid(): number | undefined {
  return typeof process.getuid === "function" ? process.getuid() : undefined;
}

function common(facts: FileFacts, uid: number, what: string): Distrust {
  if (facts.isSymbolicLink()) return `${what} is a symbolic link`;
  if (facts.uid !== uid) return `${what} belongs to user ${facts.uid}, not ${uid}`;
  if ((facts.mode & 0o077) !== 0)
    return `${what} is open to other users (mode ${(facts.mode & 0o777).toString(8)})`;
  return undefined;
}

/** Whether a directory may hold this user's service socket: a real directory, owned by `uid`, mode `0700`. */
export function distrustDirectory(facts: FileFacts, uid: number): Distrust {
  if (!facts.isSymbolicLink() && !facts.isDirectory()) return "the service directory is not a directory";
  return common(facts, uid, "the service directory");
}

/** Whether a socket may answer for this user: a real socket, owned by `uid`, closed to other users. */
export function distrustSocket(facts: FileFacts, uid: number): Distrust {
  if (!facts.isSymbolicLink() && !facts.isSocket()) return "the service socket is not a socket";
  return common(facts, uid, "the service socket");
}

/**
 * Whether a directory above the service directory lets someone else swap it out: each one (after resolving
 * links) must belong to this user or root, and be closed to writes by others unless it is sticky (`/tmp`),
 * as OpenSSH's `StrictModes` asks of the directories above `authorized_keys`.
 */
export function distrustParent(facts: FileFacts, uid: number, where: string): Distrust {
  if (facts.uid !== uid && facts.uid !== 0) return `${where} belongs to user ${facts.uid}`;
  const sticky = (facts.mode & 0o1000) !== 0;
  if ((facts.mode & 0o022) !== 0 && !sticky)
    return `${where} can be written by other users (mode ${(facts.mode & 0o7777).toString(8)})`;
  return undefined;
}

/** Checks every directory above `dir`, from its resolved parent up to `/`. */
export function checkParents(dir: string, uid: number): Distrust {
  let current: string;
  try {
    current = realpathSync(path.dirname(dir));
  } catch {
    return "missing";
  }
  for (;;) {
    let facts: Stats;
    try {
      facts = lstatSync(current);
    } catch {
      return "missing";
    }
    const bad = distrustParent(facts, uid, current);
    if (bad !== undefined) return bad;
    const up = path.dirname(current);
    if (up === current) return undefined;
    current = up;
  }
}

/**
 * Makes the service directory (mode `0700`) when it is missing and checks it. An existing directory of this
 * user that others can enter is closed (`chmod 0700`) first; one of another user, or a link, is refused.
 * @returns why the directory cannot be used, or `undefined`
 */
export function prepareDirectory(dir: string, uid: number): Distrust {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const parents = checkParents(dir, uid);
  if (parents !== undefined) return parents;
  let facts = lstatSync(dir);
  if (!facts.isSymbolicLink() && facts.isDirectory() && facts.uid === uid && (facts.mode & 0o077) !== 0) {
    chmodSync(dir, 0o700);
    facts = lstatSync(dir);
  }
  return distrustDirectory(facts, uid);
}

/**
 * Checks the service directory as it is now, without making it.
 * @returns why it cannot be used, `"missing"` when there is none, or `undefined` when it may be
 */
export function checkDirectory(dir: string, uid: number): Distrust {
  try {
    return distrustDirectory(lstatSync(dir), uid) ?? checkParents(dir, uid);
  } catch {
    return "missing";
  }
}

/**
 * Checks the directory and the socket in it, as they are now.
 * @returns why the socket must not be used, `"missing"` when there is none, or `undefined` when it may be
 */
export function checkSocket(dir: string, socket: string, uid: number): Distrust {
  const badDir = checkDirectory(dir, uid);
  if (badDir !== undefined) return badDir;
  try {
    return distrustSocket(lstatSync(socket), uid);
  } catch {
    return "missing";
  }
}
