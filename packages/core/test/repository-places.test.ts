// Besides its config, a git directory keeps the URLs it fetched and pulled: `FETCH_HEAD` names the last fetch's
// source, the reflogs keep `pull <url>` and `fetch <url>` messages, and a git directory may have any name
// (`git --git-dir=store`, `git clone --bare … store`). Real git fetches from a source whose name holds a canary
// token; the property: a line that prints the token is not `allow`. A git directory that is not named `*.git` is
// recognised through the file-system port (what a folder holds), as the runtime gives `decide`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "@slashi/test-utils";
import {
  decide,
  loadShellParser,
  RECOMMENDED_POLICY,
  RECOMMENDED_PRESET_NAME,
  resolvePolicy,
  type DecideContext,
  type FileSystemPort,
  type ResolvedPolicy,
} from "../src/index.js";

const BASH = ["/bin/bash", "/usr/bin/bash"].find((p) => existsSync(p));
const GIT = spawnSync("git", ["--version"]).status === 0;
const scratch = tempDir("slashi-git-places-");
const base = scratch.dir;
const home = join(base, "home");
const workspace = join(home, "project");
const TOKEN = "CANARYFETCHTOKEN0123456789";
const source = join(base, `mirror-${TOKEN}`);

const ENV = {
  PATH: "/usr/local/bin:/usr/bin:/bin",
  HOME: home,
  LC_ALL: "C",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_TERMINAL_PROMPT: "0",
  GIT_AUTHOR_NAME: "dev",
  GIT_AUTHOR_EMAIL: "dev@example.invalid",
  GIT_COMMITTER_NAME: "dev",
  GIT_COMMITTER_EMAIL: "dev@example.invalid",
};

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync("git", args, { cwd, env: ENV, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
}

/** The Node file system as a port (the runtime's does the same, with more care for missing parts). */
const fsPort: FileSystemPort = {
  realpath: (path) => {
    try {
      return realpathSync(path);
    } catch {
      return undefined;
    }
  },
  readdir: (path) => {
    try {
      return readdirSync(path);
    } catch {
      return undefined;
    }
  },
};

let policy: ResolvedPolicy;
const context: DecideContext = {
  cwd: workspace,
  workspaceRoot: workspace,
  home,
  shell: "bash",
  workspaceTrusted: true,
};

beforeAll(async () => {
  await loadShellParser();
  policy = resolvePolicy([
    { kind: "builtin", source: `preset:${RECOMMENDED_PRESET_NAME}`, document: RECOMMENDED_POLICY },
  ]);
  if (!GIT) return;
  mkdirSync(source, { recursive: true });
  git(source, "init", "-q", "-b", "main");
  // tracked secret files: reading them back by object name prints the token as `cat` would
  mkdirSync(join(source, "keys"));
  for (const file of ["id_rsa", ".npmrc", "keys/server.key", ".env"])
    writeFileSync(join(source, file), `${TOKEN}\n`);
  git(source, "add", "-A");
  git(source, "commit", "-q", "-m", "one");
  mkdirSync(home, { recursive: true });
  // the reflog keeps `clone: from <source>`, FETCH_HEAD the source of the last fetch
  git(home, "clone", "-q", source, workspace);
  git(workspace, "fetch", "-q", source);
  // a bare repository under a name git does not give away
  git(workspace, "clone", "-q", "--bare", source, "store");
});

afterAll(() => scratch.remove());

function printed(line: string): string {
  const r = spawnSync(BASH as string, ["--norc", "--noprofile", "-c", line], {
    cwd: workspace,
    env: ENV,
    timeout: 5000,
    encoding: "utf8",
    input: "",
  });
  return `${r.stdout ?? ""}${r.stderr ?? ""}`;
}

const READERS = [
  "cat P",
  "head -n 20 P",
  "grep -h . P",
  "sed -n p P",
  "awk 1 P",
  "tail P",
  "cat < P",
  "grep -r . P",
];
const PLACES = [
  ".git/FETCH_HEAD",
  ".git/logs/HEAD",
  ".git/logs/refs/heads/main",
  ".git/logs",
  "./.git/../.git/FETCH_HEAD",
  ".git/FETCH_HEA?",
  ".git/log*/HEAD",
  ".g*/FETCH_HEAD",
  "store/config",
  "store/packed-refs",
  "store",
  "st*/config",
  "./store/../store/config",
];

describe.skipIf(BASH === undefined || !GIT)("what a git directory keeps of the URLs it fetched", () => {
  it.each([
    "cat .git/FETCH_HEAD",
    "cat .git/logs/HEAD",
    "grep -r mirror .git/logs",
    "git log -g --format=%gs",
    "git log --walk-reflogs --oneline",
    "git reflog",
    "git reflog show HEAD",
    "git --no-pager reflog",
  ])("%s prints the token and is not allowed", (line) => {
    expect(printed(line)).toContain(TOKEN);
    expect(decide(line, policy, context).decision).not.toBe("allow");
  });

  it.each(["cat store/config", "grep -r . store", "cat ./store/config", "cat st*/config"])(
    "%s prints the token; through the port it is not allowed",
    (line) => {
      expect(printed(line)).toContain(TOKEN);
      expect(decide(line, policy, { ...context, fs: fsPort }).decision).not.toBe("allow");
    },
  );

  it("never allows printing a tracked secret file by object name (`<rev>:<path>`)", () => {
    const call = fc.constantFrom("show", "cat-file -p", "cat-file blob", "-C . show", "--no-pager show");
    const rev = fc.constantFrom("HEAD", "main", "HEAD~0", "@", "", ":0", "HEAD^{commit}", "origin/main");
    const path = fc.constantFrom("id_rsa", "./id_rsa", "./keys/../id_rsa", ".npmrc", "keys/server.key", ".env");
    fc.assert(
      fc.property(
        call,
        rev,
        path,
        fc.constantFrom("", " | head -n 5", " > /dev/null; cat README"),
        (c, r, p, tail) => {
          const line = `git ${c} ${r}:${p}${tail}`;
          if (!tail.includes("/dev/null")) expect(printed(line), line).toContain(TOKEN);
          expect(decide(line, policy, context).decision, line).not.toBe("allow");
        },
      ),
      { numRuns: 80 },
    );
  });

  it.each(["cat .git/HEAD", "cat store/HEAD", "git log --oneline -1", "ls store", "git status --short"])(
    "%s stays allowed",
    (line) => {
      expect(printed(line)).not.toContain(TOKEN);
      expect(decide(line, policy, { ...context, fs: fsPort }).decision).toBe("allow");
    },
  );

  it("never allows a generated read that prints the token", () => {
    fc.assert(
      fc.property(fc.constantFrom(...READERS), fc.constantFrom(...PLACES), (reader, path) => {
        const line = reader.replace("P", path);
        if (decide(line, policy, { ...context, fs: fsPort }).decision !== "allow") return;
        expect(printed(line), line).not.toContain(TOKEN);
      }),
      { numRuns: 120 },
    );
  });
});
