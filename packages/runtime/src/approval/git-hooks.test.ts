import { chmodSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { loadShellParser } from "@slashi/core";
import { git, gitRepository, scratchDir } from "@slashi/test-utils";
import { beforeAll, describe, expect, it } from "vitest";
import { commandBinding } from "./binding.js";
import type { BindingEnv } from "./env-binding.js";
import { readBindingFile } from "./remembered.js";

beforeAll(() => loadShellParser());

const CWD = "/home/dev/app";
const SITE = { cwd: CWD, env: {}, root: CWD, identity: "1:2:3/1:4:5" };

function bindingOf(files: Record<string, string>, env: BindingEnv = {}) {
  return commandBinding(["./build.sh"], { ...SITE, env }, (file) => {
    const rel = path.relative(CWD, file);
    if (Object.hasOwn(files, `${rel}/`)) return { refused: "it is a directory" };
    return files[rel];
  });
}

const REPO = {
  ".git/": "",
  ".git/HEAD": "ref: refs/heads/main\n",
  ".git/config": "[core]\n\tbare = false\n",
};

describe("git as the approved command itself", () => {
  const bound = (argv: string[], files: Record<string, string>) =>
    commandBinding(argv, SITE, (file) => {
      const rel = path.relative(CWD, file);
      return Object.hasOwn(files, `${rel}/`) ? { refused: "it is a directory" } : files[rel];
    });

  it("binds the repository's config and hooks as in bound content, or is not offered", () => {
    const files = { ...REPO, ".git/hooks/pre-commit": "#!/bin/sh\necho hook\n" };
    for (const argv of [
      ["git", "commit", "-m", "x"],
      ["git", "status"],
    ]) {
      const before = bound(argv, files);
      expect(before.ok ? "" : before.reason, argv.join(" ")).toBe("");
      for (const [file, text] of [
        [".git/hooks/pre-commit", "#!/bin/sh\necho edited\n"],
        [".git/hooks/post-checkout", "#!/bin/sh\n"],
        [".git/config", "[core]\n\tfsmonitor = /usr/bin/watch-it\n"],
      ] as const) {
        const after = bound(argv, { ...files, [file]: text });
        expect(after.ok && before.ok && after.digest !== before.digest, `${argv.join(" ")}: ${file}`).toBe(
          true,
        );
      }
    }
    expect(bound(["git", "-c", "core.pager=./x", "log"], files)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(
        /^the command runs git log, .*-c core\.pager=\.\/x.*; it asks every time$/,
      ),
    });
    expect(bound(["git", "--version"], files)).toMatchObject({ ok: true });
  });
});

describe("git in bound content", () => {
  it("binds the repository's config and every hook: editing or adding one asks again", () => {
    const files = {
      ...REPO,
      "build.sh": "git commit -m x",
      ".git/hooks/pre-commit": "#!/bin/sh\necho hook\n",
    };
    const before = bindingOf(files);
    expect(before.ok ? "" : before.reason).toBe("");
    for (const [file, text] of [
      [".git/hooks/pre-commit", "#!/bin/sh\necho edited\n"],
      [".git/hooks/post-commit", "#!/bin/sh\necho new\n"],
      [".git/hooks/reference-transaction", "#!/bin/sh\n"],
      [".git/config", "[core]\n\tfsmonitor = /usr/bin/watch-it\n"],
    ] as const) {
      const after = bindingOf({ ...files, [file]: text });
      expect(after.ok && before.ok && after.digest !== before.digest, file).toBe(true);
    }
    // What a hook runs is followed as a program's content.
    const nested = {
      ...files,
      ".git/hooks/pre-commit": "#!/bin/sh\n./tools/check.sh\n",
      "tools/check.sh": "echo",
    };
    const a = bindingOf(nested);
    const b = bindingOf({ ...nested, "tools/check.sh": "echo edited" });
    expect(a.ok && b.ok && a.digest !== b.digest).toBe(true);
  });

  it("refuses what it cannot pin, saying which git command runs what", () => {
    const refused: [Record<string, string>, RegExp, BindingEnv?][] = [
      [
        { ...REPO, "build.sh": "git -c core.hooksPath=tools commit" },
        /runs git commit, .* with -c core\.hooksPath/,
      ],
      [{ ...REPO, "build.sh": "git -C ../other commit" }, /of -C \.\.\/other/],
      [{ ...REPO, "build.sh": "cd sub && git commit" }, /after changing directory/],
      [{ ...REPO, "build.sh": "git push" }, /GIT_DIR/, { GIT_DIR: "/tmp/x" }],
      [{ ".git": "gitdir: /elsewhere\n", "build.sh": "git commit" }, /linked worktree or submodule/],
      [{ "build.sh": "git status" }, /outside a git repository/],
      [
        { ...REPO, ".git/config": "[core]\n\thooksPath = .githooks\n", "build.sh": "git commit" },
        /core\.hookspath/,
      ],
      [
        { ...REPO, ".git/config": "[include]\n\tpath = ../gitconfig\n", "build.sh": "git commit" },
        /include\.path/,
      ],
      [
        { ...REPO, ".git/config": '[filter "x"]\n\tclean = ./tools/clean.sh\n', "build.sh": "git add -A" },
        /filter\.x\.clean to run \.\/tools\/clean\.sh/,
      ],
      [{ ...REPO, ".git/config": '[alias]\n\tci = "!sh tools/ci.sh"\n', "build.sh": "git ci" }, /alias\.ci/],
    ];
    for (const [files, reason, env] of refused) {
      const got = bindingOf(files, env);
      expect(got.ok ? "" : got.reason, files["build.sh"]).toMatch(reason);
    }
    for (const line of ["git --version", "git help commit"])
      expect(bindingOf({ "build.sh": line }).ok, line).toBe(true);
  });

  const ready = spawnSync("git", ["--version"]).error === undefined;
  it.skipIf(!ready && process.env.CI === undefined)(
    "with the real git: the hook a bound script's git commit runs is bound, and a hook added later asks again",
    () => {
      const dir = gitRepository(path.join(scratchDir("slashi-git-hooks-"), "repo"));
      const marker = path.join(dir, "hook-ran");
      const hook = path.join(dir, ".git", "hooks", "pre-commit");
      writeFileSync(hook, `#!/bin/sh\ntouch '${marker}'\n`);
      chmodSync(hook, 0o755);
      writeFileSync(path.join(dir, "build.sh"), "#!/bin/sh\ngit commit -q --allow-empty -m x\n");
      const site = { cwd: dir, env: { PATH: "/usr/bin:/bin" }, root: dir, identity: "x" };
      const before = commandBinding(["./build.sh"], site, readBindingFile);
      expect(before.ok ? "" : before.reason).toBe("");
      git(dir, "commit", "-q", "--allow-empty", "-m", "x");
      expect(existsSync(marker), "git commit runs the hook").toBe(true);
      rmSync(marker);
      writeFileSync(hook, `#!/bin/sh\ntouch '${marker}'\necho edited\n`);
      const edited = commandBinding(["./build.sh"], site, readBindingFile);
      expect(edited.ok && before.ok && edited.digest !== before.digest, "an edited hook asks again").toBe(
        true,
      );
      writeFileSync(hook, `#!/bin/sh\ntouch '${marker}'\n`);
      const added = path.join(dir, ".git", "hooks", "post-commit");
      writeFileSync(added, "#!/bin/sh\necho added\n");
      chmodSync(added, 0o755);
      const after = commandBinding(["./build.sh"], site, readBindingFile);
      expect(after.ok && before.ok && after.digest !== before.digest, "a hook added later asks again").toBe(
        true,
      );
    },
    120_000,
  );
});
