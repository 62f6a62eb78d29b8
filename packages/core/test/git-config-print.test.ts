// A repository's configuration can hold a token (CI checkouts keep theirs in `http.extraHeader`, a remote URL
// can carry one, `url.<base>.insteadOf` names one). Generated git calls are run by real git under bash in a
// temporary repository whose config holds a canary token in those places; the property: when the call prints
// the token, `decide` is not `allow`. A fixed list of calls that do print it keeps the test able to fail.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
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
  type ResolvedPolicy,
} from "../src/index.js";

const BASH = ["/bin/bash", "/usr/bin/bash"].find((p) => existsSync(p));
const GIT = spawnSync("git", ["--version"]).status === 0;
const scratch = tempDir("slashi-git-config-");
const base = scratch.dir;
const home = join(base, "home");
const workspace = join(home, "project");
const TOKEN = "CANARYGITTOKEN0123456789";

const ENV = {
  PATH: "/usr/local/bin:/usr/bin:/bin",
  HOME: home,
  LC_ALL: "C",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_TERMINAL_PROMPT: "0",
  GIT_ASKPASS: "/bin/false",
};

function git(...args: string[]): void {
  const r = spawnSync("git", args, { cwd: workspace, env: ENV, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
}

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
  mkdirSync(workspace, { recursive: true });
  git("init", "-q", "-b", "main");
  git("config", "user.name", "dev");
  git("config", "user.email", "dev@example.invalid");
  git("config", "http.https://example.invalid/.extraheader", `AUTHORIZATION: basic ${TOKEN}`);
  git("remote", "add", "origin", `https://x-access-token:${TOKEN}@example.invalid/r.git`);
  git("config", `url.https://${TOKEN}@example.invalid/.insteadOf`, "https://mirror.invalid/");
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

/** How git is started: its global options and runners in front. */
const PREFIXES = ["git", "git --no-pager", "git -C .", "git --git-dir=.git", "env git", "command git"];
const KEYS = [
  "user.name",
  "User.Email",
  "core.bare",
  "remote.origin.url",
  "Remote.Origin.URL",
  "http.https://example.invalid/.extraheader",
  "http.extraheader",
  "url.https://mirror.invalid/.insteadof",
];
const CONFIG_OPTIONS = [
  "",
  "--get",
  "--get-all",
  "--get-regexp",
  "--get-urlmatch",
  "-l",
  "--list",
  "-z -l",
  "--null --get",
  "--show-origin --get",
  "--local --get",
  "--includes --list",
  "--name-only --get-regexp",
  "--type=bool --get",
  "--ge",
];
/** `git config` reads: options, an optional `get`/`list` verb, a key (or a pattern). */
const configCall = fc
  .tuple(
    fc.constantFrom(...CONFIG_OPTIONS),
    fc.constantFrom("", "get", "list"),
    fc.constantFrom(...KEYS, "."),
  )
  .map(([options, verb, key]) => ["config", verb, options, key].filter((w) => w !== "").join(" "));
const OTHER_CALLS = [
  "remote",
  "remote -v",
  "remote --verbose",
  "remote -v show",
  "remote get-url origin",
  "remote get-url --all origin",
  "remote show -n origin",
  "ls-remote --get-url",
  "ls-remote --get-url origin",
  "var -l",
  "var GIT_AUTHOR_IDENT",
  "log --oneline -1",
  "status --short",
];
const gitCall = fc
  .tuple(
    fc.constantFrom(...PREFIXES),
    fc.oneof(configCall, fc.constantFrom(...OTHER_CALLS)),
    fc.constantFrom("", " | head -n 50", " 2>&1"),
  )
  .map(([prefix, call, tail]) => `${prefix} ${call}${tail}`);

describe.skipIf(BASH === undefined || !GIT)("git calls that print the repository config", () => {
  it.each([
    "git config --list",
    "git config --get remote.origin.url",
    "git config remote.origin.url",
    "git config --get-regexp extraheader",
    "git remote -v",
    "git remote get-url origin",
    "git ls-remote --get-url",
    "git var -l",
    "cat .git/config",
    "grep -r . .git",
  ])("%s prints the token and is not allowed", (line) => {
    expect(printed(line)).toContain(TOKEN);
    expect(decide(line, policy, context).decision).not.toBe("allow");
  });

  it.each(["git config --get user.name", "git remote", "git log --oneline -1", "git status --short"])(
    "%s stays allowed",
    (line) => {
      expect(printed(line)).not.toContain(TOKEN);
      expect(decide(line, policy, context).decision).toBe("allow");
    },
  );

  it("never allows a generated git call that prints the token", () => {
    fc.assert(
      fc.property(gitCall, (line) => {
        const verdict = decide(line, policy, context).decision;
        if (verdict !== "allow") return;
        expect(printed(line), line).not.toContain(TOKEN);
      }),
      { numRuns: 150 },
    );
  });
});
