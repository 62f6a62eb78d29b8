// A repository's configuration can hold a token (CI checkouts keep theirs in `http.extraHeader`, a remote URL
// can carry one, `url.<base>.insteadOf` names one). Generated git calls are run by real git under bash in a
// temporary repository whose config holds a canary token in those places; the property: when the call prints
// the token, `decide` is not `allow`. A fixed list of calls that do print it keeps the test able to fail.
// Besides its config, a git directory keeps the URLs it fetched and pulled (`FETCH_HEAD`, the reflogs), may
// have any name (`git clone --bare … store`, recognised through the file-system port by what it holds), and
// git prints tracked files by object name (`git show HEAD:id_rsa`): the repository pulls from a source whose
// path holds the token and tracks secret files holding it.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { diskPort, requireTool, scratchDir } from "@slashi/test-utils";
import { decide, loadShellParser, type FileSystemPort } from "../src/index.js";
import { recommendedPolicy, trustedContext } from "./decide-setup.js";

const BASH = requireTool("bash", "git calls against real bash and git");
const GIT = requireTool("git", "git calls against real bash and git") !== undefined;
const base = scratchDir("slashi-git-config-");
const home = join(base, "home");
const workspace = join(home, "project");
const TOKEN = "CANARYGITTOKEN0123456789";
const source = join(base, `mirror-${TOKEN}`);

const ENV = {
  PATH: "/usr/local/bin:/usr/bin:/bin",
  HOME: home,
  LC_ALL: "C",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_TERMINAL_PROMPT: "0",
  GIT_ASKPASS: "/bin/false",
};

function git(...args: string[]): void {
  gitIn(workspace, ...args);
}

function gitIn(cwd: string, ...args: string[]): void {
  const r = spawnSync("git", args, { cwd, env: ENV, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
}

/** The local disk as a port. */
const fsPort: FileSystemPort = diskPort();

const policy = recommendedPolicy();
const context = trustedContext({ workspace, home, shell: "bash" });

beforeAll(async () => {
  await loadShellParser();
  if (!GIT) return;
  mkdirSync(workspace, { recursive: true });
  git("init", "-q", "-b", "main");
  git("config", "user.name", "dev");
  git("config", "user.email", "dev@example.invalid");
  git("config", "http.https://example.invalid/.extraheader", `AUTHORIZATION: basic ${TOKEN}`);
  git("remote", "add", "origin", `https://x-access-token:${TOKEN}@example.invalid/r.git`);
  git("config", `url.https://${TOKEN}@example.invalid/.insteadOf`, "https://mirror.invalid/");
  // tracked secret files, and a source whose path (a URL's path or query can hold a token) the reflog keeps
  mkdirSync(join(source, "keys"), { recursive: true });
  for (const file of ["id_rsa", ".npmrc", "keys/server.key", ".env"])
    writeFileSync(join(source, file), `${TOKEN}\n`);
  const commit = ["-c", "user.name=dev", "-c", "user.email=dev@example.invalid", "commit", "-q"];
  gitIn(source, "init", "-q", "-b", "main");
  gitIn(source, "add", "-A");
  gitIn(source, ...commit, "-m", "one");
  git("pull", "-q", "--no-rebase", source, "main");
  gitIn(source, ...commit, "--allow-empty", "-m", "two");
  git("pull", "-q", "--no-rebase", source, "main");
  // a bare repository under a name that does not give it away
  git("clone", "-q", "--bare", source, "store");
});

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

  // one bash and one git process per run: the timeout is a hang guard with room for a loaded machine
  it(
    "never allows printing a tracked secret file by object name (`<rev>:<path>`)",
    { timeout: 300_000 },
    () => {
      const call = fc.constantFrom("show", "cat-file -p", "cat-file blob", "-C . show", "--no-pager show");
      const rev = fc.constantFrom("HEAD", "main", "HEAD~0", "@", "", ":0", "HEAD^{commit}", "FETCH_HEAD");
      const path = fc.constantFrom(
        "id_rsa",
        "./id_rsa",
        "./keys/../id_rsa",
        ".npmrc",
        "keys/server.key",
        ".env",
      );
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
        { numRuns: 50 },
      );
    },
  );

  it.each(["cat .git/HEAD", "cat store/HEAD", "git log --oneline -1", "ls store", "git status --short"])(
    "%s stays allowed",
    (line) => {
      expect(printed(line)).not.toContain(TOKEN);
      expect(decide(line, policy, { ...context, fs: fsPort }).decision).toBe("allow");
    },
  );

  it("never allows a generated read that prints the token", { timeout: 300_000 }, () => {
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

describe.skipIf(BASH === undefined || !GIT)("stored objects named by id", () => {
  /** Ids of the repository's objects: a tracked secret file's blob, a harmless blob, a commit. */
  const id = { secret: "", plain: "", commit: "" };
  beforeAll(() => {
    const rev = (arg: string) =>
      spawnSync("git", ["rev-parse", arg], { cwd: workspace, env: ENV, encoding: "utf8" }).stdout.trim();
    id.secret = rev("HEAD:.env");
    id.commit = rev("HEAD");
    writeFileSync(join(workspace, "plain.txt"), "plain\n");
    id.plain = spawnSync("git", ["hash-object", "-w", "plain.txt"], {
      cwd: workspace,
      env: ENV,
      encoding: "utf8",
    }).stdout.trim();
  });
  const fill = (template: string) =>
    template
      .replace(/<S(\d*)>/g, (_, n: string) => id.secret.slice(0, n === "" ? 40 : Number(n)))
      .replace(/<P(\d*)>/g, (_, n: string) => id.plain.slice(0, n === "" ? 40 : Number(n)))
      .replace(/<C(\d*)>/g, (_, n: string) => id.commit.slice(0, n === "" ? 40 : Number(n)));

  it.each([
    "git cat-file -p <S7>",
    "git cat-file blob <S>",
    "git show <S8>",
    "git --no-pager show --stat <S7>",
    "git -C . show <S7>",
    "git grep -h . <S7>",
    "git diff <P7> <S7>",
    "git diff <P7>..<S7>",
    "git cat-file -p <S7>^{}",
    "git ls-tree -r HEAD --format=%\\(objectname\\) | git cat-file --batch",
    "git cat-file --batch-all-objects --batch",
    "o=<S7>; git show $o",
  ])("%s prints a tracked secret file and is not allowed, with a port or without", (template) => {
    const line = fill(template);
    expect(printed(line), line).toContain(TOKEN);
    expect(decide(line, policy, context).decision, line).not.toBe("allow");
    expect(decide(line, policy, { ...context, fs: fsPort }).decision, line).not.toBe("allow");
  });

  it.each([
    "git cat-file -t <S7>",
    "git cat-file -s <S>",
    "git cat-file -p HEAD",
    "git cat-file -p <C7>^{commit}",
    "git show HEAD^{tree}",
    "git show <C7>^{commit}",
    "git log -1 --format=%s <C7>",
    "git cat-file --batch-all-objects --batch-check",
    "git ls-tree HEAD",
  ])("%s stays allowed", (template) => {
    const line = fill(template);
    expect(decide(line, policy, context).decision, line).toBe("allow");
  });

  // one bash and one git process per run: the timeout is a hang guard with room for a loaded machine
  it("never allows a generated call that prints a blob by its id", { timeout: 300_000 }, () => {
    const call = fc.constantFrom(
      "cat-file -p",
      "cat-file blob",
      "cat-file --textconv",
      "show",
      "show --stat",
      "--no-pager show",
      "grep -h TOKEN",
      "grep -h -e . --",
      "diff <P7>",
    );
    const length = fc.integer({ min: 4, max: 40 });
    const spelling = fc.constantFrom("", "^{}", "^{blob}", "~0", "^{commit}", "^{tree}");
    fc.assert(
      fc.property(call, length, spelling, fc.boolean(), (c, n, s, upper) => {
        const object = fill(`<S${n}>`);
        const line = `git ${fill(c)} ${upper ? object.toUpperCase() : object}${s}`;
        if (decide(line, policy, context).decision !== "allow") return;
        expect(printed(line), line).not.toContain(TOKEN);
      }),
      { numRuns: 60 },
    );
  });
});

describe.skipIf(BASH === undefined || !GIT)("a git directory of any name, without a file-system port", () => {
  it.each(["cat store/config", "cat ./store/config", "cd store && cat config", "head st?re/conf?g"])(
    "%s prints the token and is not allowed even when nothing can look at the disk",
    (line) => {
      expect(printed(line)).toContain(TOKEN);
      expect(decide(line, policy, context).decision).not.toBe("allow");
    },
  );

  it.each(["cat store/HEAD", "ls store", "cat README.md", "git config --get user.name"])(
    "%s stays allowed",
    (line) => {
      expect(decide(line, policy, context).decision).toBe("allow");
    },
  );
});
