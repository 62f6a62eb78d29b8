import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadShellParser } from "@slashi/core";
import { git, gitRepository, requireTool, scratchDir } from "@slashi/test-utils";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { commandBinding } from "./binding.js";
import { readBindingFile } from "./remembered.js";

beforeAll(() => loadShellParser());

const CWD = "/home/dev/app";
const SITE = { cwd: CWD, env: { HOME: "/home/dev" }, root: CWD, identity: "1:2:3/1:4:5" };

function reasonOf(argv: string[], files: Record<string, string>): string {
  const got = commandBinding(argv, SITE, (file) => files[path.relative(CWD, file)]);
  return got.ok ? "" : got.reason;
}

describe("bound content that writes where something runs later", () => {
  const files = { "tools/hook": "#!/bin/sh\necho hook\n", "env.txt": "" };

  it("is refused, naming the content, the write and the place, in every way core reads a write", () => {
    for (const line of [
      "cp tools/hook .git/hooks/pre-commit",
      "cp -t .git/hooks tools/hook",
      "install -m 755 tools/hook .git/hooks/pre-push",
      "ln -s ../../tools/hook .git/hooks/pre-commit",
      "mv tools/hook ./.git/hooks/commit-msg",
      "dd if=tools/hook of=.git/hooks/pre-commit",
      "cat tools/hook > .git/hooks/pre-commit",
      "cat tools/hook >> .git/config",
      "tee .envrc < env.txt",
      "printf 'use nix' | tee -a .envrc",
      "sed -i s/a/b/ .envrc",
      "echo '{}' > .vscode/tasks.json",
      "cp tools/hook .claude/settings.json",
      "cp env.txt .npmrc",
      "cd .git/hooks && cp ../../tools/hook pre-commit",
      `cp tools/hook ${CWD}/.git/hooks/pre-commit`,
      'cp tools/hook "$(git rev-parse --git-dir)/hooks/pre-commit"',
      'cp tools/hook "$(git rev-parse --git-path hooks)/pre-commit"',
      'cp tools/hook "$GIT_DIR/hooks/pre-commit"',
      'cp tools/hook "$PWD/.git/hooks/pre-commit"',
      'cd "$(mktemp -d)" && cp tools/hook pre-commit',
    ]) {
      const why = reasonOf(["./build.sh"], { "build.sh": line, ...files });
      expect(why, line).toMatch(/build\.sh writes .* runs later by itself; .*asks every time/);
    }
  });

  it("is refused in a makefile recipe and a package script too", () => {
    expect(
      reasonOf(["make"], { Makefile: "hooks:\n\tcp tools/hook .git/hooks/pre-commit\n", ...files }),
    ).toMatch(/a recipe of .*Makefile writes \.git\/hooks\/pre-commit \(cp\)/);
    const pkg = JSON.stringify({ scripts: { prepare: "echo 'layout node' > .envrc" } });
    expect(reasonOf(["npm", "run", "prepare"], { "package.json": pkg })).toMatch(
      /the "prepare" script of .*package\.json writes \.envrc \(>\)/,
    );
  });

  it("still binds writes elsewhere, reads of those places and writes named at run time that name none", () => {
    for (const line of [
      "cp tools/hook out/hook",
      "cat .git/hooks/pre-commit",
      "test -f .envrc && echo yes",
      'cp tools/hook "$OUT/hook"',
      "echo x > /dev/null 2>&1",
      "mkdir -p build && cd build && cp ../env.txt .",
    ])
      expect(reasonOf(["./build.sh"], { "build.sh": line, ...files }), line).toBe("");
  });
});

describe("against the real bash and git", () => {
  const ready = !!requireTool("bash", "auto-run places") && !!requireTool("git", "auto-run places");

  /** How a bound script puts `tools/hook` where git runs it (`H` is the hook's path as written). */
  const writers = [
    "cp tools/hook H",
    "cat tools/hook > H",
    "tee H < tools/hook > /dev/null",
    "install -m 755 tools/hook H",
    "dd if=tools/hook of=H status=none",
    'ln -sf "$PWD/tools/hook" H',
    "cp tools/hook H.tmp && mv H.tmp H",
  ];
  const spellings = [
    ".git/hooks/pre-commit",
    "./.git/hooks/pre-commit",
    '"$PWD/.git/hooks/pre-commit"',
    '"$(git rev-parse --git-dir)/hooks/pre-commit"',
    '"$(git rev-parse --git-path hooks)/pre-commit"',
  ];

  it.skipIf(!ready)(
    "a script that installs a repository file as a git hook is never approved: git commit runs that file",
    () => {
      const base = scratchDir("slashi-auto-run-");
      let round = 0;
      fc.assert(
        fc.property(fc.constantFrom(...writers), fc.constantFrom(...spellings), (writer, spelling) => {
          const dir = gitRepository(path.join(base, `repo-${round++}`));
          const marker = path.join(dir, "hook-ran");
          mkdirSync(path.join(dir, "tools"), { recursive: true });
          writeFileSync(path.join(dir, "tools", "hook"), `#!/bin/sh\ntouch '${marker}'\n`);
          chmodSync(path.join(dir, "tools", "hook"), 0o755);
          const line = writer.replace(/H/g, spelling);
          writeFileSync(path.join(dir, "build.sh"), `#!/bin/bash\nset -e\n${line}\nchmod +x ${spelling}\n`);
          chmodSync(path.join(dir, "build.sh"), 0o755);
          const env = { PATH: "/usr/bin:/bin", HOME: dir };
          const ran = spawnSync("./build.sh", [], { cwd: dir, env });
          expect(ran.status, `${line}: ${String(ran.stderr)}`).toBe(0);
          // The form is real: git runs what the script put there …
          git(dir, "commit", "-q", "--allow-empty", "-m", "x");
          expect(existsSync(marker), `${line}: git commit runs the hook`).toBe(true);
          rmSync(marker);
          // … so the script's approval is refused: an edit of tools/hook would run unapproved.
          const got = commandBinding(
            ["./build.sh"],
            { cwd: dir, env, root: dir, identity: "x" },
            readBindingFile,
          );
          expect(got.ok ? "" : got.reason, line).toMatch(/writes .* runs later by itself/);
        }),
        { numRuns: 20 },
      );
    },
    300_000,
  );
});
