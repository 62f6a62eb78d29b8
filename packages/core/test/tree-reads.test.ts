// A reader that reads a whole tree (`grep -r`, `rg`, `tar c`, `git grep --no-index` …) reads every secret place in
// it, wherever the tree is: below the home directory or outside it (`/tmp/p`, `/workspaces/proj`, `/srv/app`).
// Generated trees outside the home directory, some holding a canary secret (by a secret name at any depth, a git
// directory of another name, a link to a secret file or to a folder holding one), are read by generated lines run
// through the real bash, dash and zsh; decided through the local disk as a port. The property: a line that
// prints the canary is never allowed; and a line over a tree without a secret place stays allowed (the walk does
// not ask for everything).
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { diskPort, requireTool, scratchDir } from "@slashi/test-utils";
import { decide, loadShellParser } from "../src/index.js";
import { recommendedPolicy } from "./decide-setup.js";

const WHAT = "the tree-read property tests";
const SHELLS = (["bash", "dash", "zsh"] as const).filter((s) => requireTool(s, WHAT) !== undefined);
const RG = requireTool("rg", WHAT) !== undefined;
const GIT = requireTool("git", WHAT) !== undefined;
const TOKEN = "CANARYTREETOKEN0123456789";

const base = scratchDir("slashi-tree-reads-");
const home = join(base, "home");
/** A folder outside every tree, holding a secret: what links in a tree lead to. */
const outside = join(base, "outside");
const policy = recommendedPolicy();
const disk = diskPort();

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** Secret places a tree may hold, by how they get there (relative to a folder of the tree). */
const SECRETS: readonly ((at: string) => void)[] = [
  ...[
    ".env",
    ".env.local",
    "prod.env",
    "credentials.json",
    "id_rsa",
    "id_ed25519",
    "server.key",
    "tls.pem",
    ".npmrc",
    ".netrc",
    ".git-credentials",
    "terraform.tfstate",
    ".dev.vars",
    ".aws/credentials",
    ".ssh/deploy_key",
    ".env.swp",
  ].map((name) => (at: string) => write(join(at, name), `KEY=${TOKEN}\n`)),
  // a git directory named otherwise, its config holding a token
  (at) => {
    for (const d of ["objects", "refs"]) mkdirSync(join(at, "store", d), { recursive: true });
    write(join(at, "store", "HEAD"), "ref: refs/heads/main\n");
    write(join(at, "store", "config"), `[http]\n\textraheader = AUTHORIZATION: basic ${TOKEN}\n`);
  },
  // a link to a secret file, under a harmless name
  (at) => {
    mkdirSync(at, { recursive: true });
    symlinkSync(join(outside, ".env"), join(at, "notes.txt"));
  },
  // a link to a folder that holds one
  (at) => {
    mkdirSync(at, { recursive: true });
    symlinkSync(outside, join(at, "shared"));
  },
];

/** Readers of the tree `D`; each prints what it reads (`-e` keeps the canary's own text out of the line). */
const READERS: readonly string[] = [
  `grep -r -e ${TOKEN.slice(0, 12)} D`,
  `grep -R -e ${TOKEN.slice(0, 12)} D`,
  `grep -rn -e ${TOKEN.slice(0, 12)} D`,
  `grep -d recurse -e ${TOKEN.slice(0, 12)} D`,
  ...(RG
    ? [
        `rg -uu -e ${TOKEN.slice(0, 12)} D`,
        `rg --hidden -L -e ${TOKEN.slice(0, 12)} D`,
        `rg -e ${TOKEN.slice(0, 12)} D`,
      ]
    : []),
  ...(GIT ? [`git grep --no-index -e ${TOKEN.slice(0, 12)} D`] : []),
  "tar cf - D",
  "cp -rL D ../copy-$$ && grep -r -e CANARY ../copy-$$",
];

/** Spellings of the tree's root, from inside it (`N` is the root's own name). */
const ROOTS: readonly string[] = [".", "./", '"$PWD"', "$PWD", "../N", "{.,/nonexistent-x}"];

/** Benign folders a tree is made of. */
const FOLDERS = ["src", "lib", "src/util", "docs", "a/b/c", "node_modules/x", ".cache", "config"];

/** Makes a tree at `root`: benign files in some folders, and the secret (if any) in one of them. */
function makeTree(root: string, folders: readonly string[], secret: number | undefined, where: number): void {
  write(join(root, "README.md"), "# app\n");
  for (const f of folders) write(join(root, f, "index.ts"), "export {};\n");
  if (secret !== undefined) SECRETS[secret]!(join(root, folders[where % folders.length] ?? "."));
}

/** Runs a line in `cwd` with a shell: standard output and error together. */
function printed(shell: string, line: string, cwd: string): string {
  const r = spawnSync(shell, ["-c", line], {
    cwd,
    // no standard input: rg without a path would search it instead of the folder
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: home, LC_ALL: "C" },
    encoding: "utf8",
    timeout: 30_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return `${r.stdout ?? ""}${r.stderr ?? ""}`;
}

describe.skipIf(SHELLS.length === 0)("trees read whole, outside the home directory", () => {
  let count = 0;

  beforeAll(async () => {
    await loadShellParser();
    write(join(home, ".ssh", "id_rsa"), "home key\n");
    write(join(outside, ".env"), `KEY=${TOKEN}\n`);
  });

  const line = fc.record({
    reader: fc.constantFrom(...READERS),
    root: fc.constantFrom(...ROOTS),
    shell: fc.constantFrom(...SHELLS),
    folders: fc.uniqueArray(fc.constantFrom(...FOLDERS), { minLength: 1, maxLength: 4 }),
    secret: fc.option(fc.nat({ max: SECRETS.length - 1 }), { nil: undefined, freq: 4 }),
    where: fc.nat(),
  });

  // one shell per run: the timeout only catches a hang, with room for a loaded machine
  it("never allows a generated read of a tree that prints its secret", { timeout: 600_000 }, () => {
    fc.assert(
      fc.property(line, ({ reader, root, shell, folders, secret, where }) => {
        const name = `t${count++}`;
        const tree = join(base, "srv", name);
        makeTree(tree, folders, secret, where);
        const text = reader.replace("D", root.replace("N", name));
        const decision = decide(text, policy, {
          shell,
          cwd: tree,
          workspaceRoot: tree,
          workspaceTrusted: true,
          home,
          fs: disk,
        }).decision;
        if (decision === "allow")
          expect(printed(shell, text, tree), `${shell}: ${text}`).not.toContain(TOKEN);
        // the walk sees a tree without secret places whole: a search of it stays allowed (a root the shell
        // spells at run time is left out: the rg rule does not vouch for `$PWD`, and `/nonexistent-x` may exist)
        if (secret === undefined && /^(grep|rg) /.test(text) && !/[${]/.test(root))
          expect(decision, `${shell}: ${text} over ${folders.join(", ")}`).toBe("allow");
      }),
      { numRuns: 150 },
    );
  });

  it.each([
    [".env", "grep -r -e CANARY ."],
    ["deploy/credentials.json", "rg -uu -e CANARY"],
    ["a/b/id_rsa", "grep -rn -e CANARY /"],
  ])("asks for a tree holding %s in any folder (%s), which prints it", (secret, text) => {
    const tree = join(base, "workspaces", secret.replace(/\W/g, "_"));
    write(join(tree, secret), `KEY=${TOKEN}\n`);
    const line = text.replace(/ \/$/, ` ${tree}`);
    expect(printed("bash", line, tree)).toContain(TOKEN);
    expect(
      decide(line, policy, { cwd: tree, workspaceRoot: tree, workspaceTrusted: true, home, fs: disk })
        .decision,
    ).toBe("ask");
  });
});

// Readers that reach the untracked files or read a list of names from a file: `git grep --untracked` searches
// the files git does not track beside the tracked ones (a `.env` is untracked), `git grep -f F` reads its
// patterns from F, GNU `find -files0-from F` names every entry of F in an error.
describe.skipIf(!GIT || SHELLS.length === 0)("files reached beside the tracked ones, and name lists", () => {
  const repo = join(base, "repo");
  const OPTIONS = [
    "--untracked",
    "--untrac",
    "--no-exclude-standard --untracked",
    "-f .env",
    "--untracked -i",
  ];

  beforeAll(async () => {
    await loadShellParser();
    write(join(repo, "README.md"), "# app\n");
    write(join(repo, ".env"), `KEY=${TOKEN}\n`);
    spawnSync("git", ["init", "-q"], { cwd: repo });
    spawnSync("git", ["add", "README.md"], { cwd: repo });
  });

  it(
    "never allows a generated git grep or find that prints an untracked secret",
    { timeout: 300_000 },
    () => {
      const lines = fc.oneof(
        fc
          .tuple(fc.constantFrom(...OPTIONS), fc.constantFrom("", " -n", " -h"))
          .map(([o, more]) => `git grep${more} ${o} -e ${TOKEN.slice(0, 12)}`),
        fc.constantFrom(
          "find -files0-from .env",
          "find . -files0-from .env",
          "find -files0-from ./.env -type f",
        ),
      );
      fc.assert(
        fc.property(lines, fc.constantFrom(...SHELLS), (line, shell) => {
          const context = { shell, cwd: repo, workspaceRoot: repo, workspaceTrusted: true, home, fs: disk };
          if (decide(line, policy, context).decision !== "allow") return;
          expect(printed(shell, line, repo), `${shell}: ${line}`).not.toContain(TOKEN);
        }),
        { numRuns: 40 },
      );
    },
  );

  it.each(["git grep --untracked -e CANARY", "find -files0-from .env"])(
    "%s prints the secret, and asks",
    (line) => {
      expect(printed("bash", line, repo)).toContain(TOKEN);
      const context = { cwd: repo, workspaceRoot: repo, workspaceTrusted: true, home, fs: disk };
      expect(decide(line, policy, context).decision).toBe("ask");
    },
  );
});
