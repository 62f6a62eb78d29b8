// Real git repositories for the tests of what is bound to a repository's identity (trust, approvals): one made
// with a commit, and the same path taken over by another repository the way a person does it (deleted and cloned
// again, or a fresh `git init`).
import { execFileSync } from "node:child_process";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Runs git in `cwd` with a fixed committer and no user or system config; returns its output. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
  });
}

/** Makes `dir` (and its parents) a git repository with one commit; returns `dir`. */
export function gitRepository(dir: string): string {
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q");
  writeFileSync(path.join(dir, "README"), "one\n");
  git(dir, "add", "README");
  git(dir, "commit", "-q", "-m", "one");
  return dir;
}

/**
 * Puts another repository at `dir`: the folder is moved aside to `<dir>.old` (so no inode is reused) and the
 * repository cloned back at the same path, as `rm -rf dir && git clone URL dir` leaves it.
 */
export function recloneAt(dir: string): void {
  renameSync(dir, `${dir}.old`);
  git(path.dirname(dir), "clone", "-q", `${dir}.old`, dir);
}
