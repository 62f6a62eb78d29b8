import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { requireTool, tempDir } from "@slashi/test-utils";
import { cmd, ctx } from "../../test/safety/command.js";
import { invocationOf } from "./argv.js";
import type { SafetyContext } from "./types.js";
import { argumentWrites, classifyWrites, redirectWrites, runnerWrites } from "./writes.js";

function codes(text: string, context: SafetyContext = ctx): string[] {
  const command = cmd(text);
  const invocation = invocationOf(command);
  const targets = [
    ...redirectWrites(command),
    ...runnerWrites(command),
    ...(invocation ? argumentWrites(invocation, context) : []),
  ];
  return classifyWrites(targets, command, context).map((f) => f.code);
}

const lenient: SafetyContext = {
  ...ctx,
  allowWorkspaceWrites: true,
  protectedPaths: ["/home/dev/.local/state/slashi", "/etc/slashi/policy.json"],
};

describe("redirections and output options", () => {
  it.each([
    "echo hi >/dev/null",
    "make 2>&1",
    "make >/dev/null 2>&1",
    "cmd 2>/dev/stderr",
    "cmd >/dev/stdout",
    "cmd >&2",
    "cmd 1>&2",
    "cmd 2>&-",
    "cat <in.txt",
    "cat <<EOF",
    "tee /dev/null",
    "ls",
  ])("raises nothing for %s", (text) => {
    expect(codes(text)).toEqual([]);
  });

  it.each([
    ["echo hi >out.txt", "write.file"],
    ["echo hi >>log.txt", "write.file"],
    ["cmd &>all.log", "write.file"],
    ["cmd >|forced", "write.file"],
    ["echo x >/tmp/x", "write.file"],
    ["tee log.txt", "write.file"],
    ["tee -a log.txt", "write.file"],
    ["sort -o sorted.txt f", "write.file"],
    ["sort -osorted.txt f", "write.file"],
    ["sort --output=sorted.txt f", "write.file"],
    ["sort f --output sorted.txt", "write.file"],
    ["shuf -o out f", "write.file"],
    ["base64 -o out f", "write.file"],
    ["tree -o out", "write.file"],
    ["uniq in.txt out.txt", "write.file"],
    ["find . -fprint out.txt", "write.file"],
    ["find . -fprintf out %p", "write.file"],
    ["find . -fls out", "write.file"],
    ["git diff --output=x.patch", "write.file"],
    ["git log --output x.txt", "write.file"],
    ["sed w·out.txt f", "write.file"],
    ["sed s/a/b/w·out f", "write.file"],
    ["curl -o page.html https://x", "write.file"],
    ["curl --output page.html https://x", "write.file"],
    ["wget -O page.html https://x", "write.file"],
    ["echo x >$OUT", "write.dynamic-target"],
    ["tee $LOG", "write.dynamic-target"],
    ["sort -o $F f", "write.dynamic-target"],
    ["echo x >~/.bashrc", "write.sensitive-path"],
    ["echo x >>~/.zshrc", "write.sensitive-path"],
    ["echo x >>/home/dev/.profile", "write.sensitive-path"],
    ["echo x >~/.bash_profile", "write.sensitive-path"],
    ["echo x >~/.zprofile", "write.sensitive-path"],
    ["echo x >~/.config/fish/config.fish", "write.sensitive-path"],
    ["echo x >~/.gitconfig", "write.sensitive-path"],
    ["echo x >>~/.ssh/authorized_keys", "write.sensitive-path"],
    ["echo x >~/.ssh/config", "write.sensitive-path"],
    ["echo x >~/.aws/credentials", "write.sensitive-path"],
    ["echo x >~/.npmrc", "write.sensitive-path"],
    ["echo x >~/.netrc", "write.sensitive-path"],
    ["echo x >~/.docker/config.json", "write.sensitive-path"],
    ["echo x >~/.kube/config", "write.sensitive-path"],
    ["echo x >.git/hooks/pre-commit", "write.sensitive-path"],
    ["echo x >sub/.git/hooks/post-checkout", "write.sensitive-path"],
    ["echo x >>.git/config", "write.sensitive-path"],
    ["echo x >/etc/hosts", "write.sensitive-path"],
    ["echo x >/etc/cron.d/job", "write.sensitive-path"],
    ["echo x >/var/spool/cron/crontabs/root", "write.sensitive-path"],
    ["echo x >/usr/bin/ls", "write.sensitive-path"],
    ["echo x >$HOME/.bashrc", "write.sensitive-path"],
    ["echo x >${HOME}/.bashrc", "write.sensitive-path"],
    ["echo x >~/../dev/.bashrc", "write.sensitive-path"],
    ["echo x >./../proj/.git/config", "write.sensitive-path"],
    ["echo x >/home/dev/.BASHRC", "write.sensitive-path"],
    [": >~/.bashrc", "write.sensitive-path"],
    ["tee -a ~/.ssh/authorized_keys", "write.sensitive-path"],
    ["tee /etc/sudoers.d/x", "write.sensitive-path"],
    ["sort -o ~/.bashrc f", "write.sensitive-path"],
    ["sed w·/home/dev/.bashrc f", "write.sensitive-path"],
    ["cp evil ~/.bashrc", "write.sensitive-path"],
    ["cp -t ~/.ssh key", "write.sensitive-path"],
    ["mv x ~/.ssh/authorized_keys", "write.sensitive-path"],
    ["mv ~/.bashrc /tmp/x", "write.sensitive-path"],
    ["ln -sf /tmp/x .git/hooks/pre-push", "write.sensitive-path"],
    ["install -m 755 x .git/hooks/pre-commit", "write.sensitive-path"],
    ["rm ~/.ssh/id_rsa", "write.sensitive-path"],
    ["rm -rf .git", "write.sensitive-path"],
    ["truncate -s 0 ~/.bashrc", "write.sensitive-path"],
    ["chown root /etc/sudoers", "write.sensitive-path"],
    ["chmod 777 /etc/passwd", "write.sensitive-path"],
    ["sed -i s/a/b/ ~/.bashrc", "write.sensitive-path"],
    ["perl -pi -e s/a/b/ /etc/hosts", "write.sensitive-path"],
    ["dd if=x of=/etc/passwd", "write.sensitive-path"],
    ["vim ~/.bashrc", "write.sensitive-path"],
    ["curl -o ~/.bashrc https://x", "write.sensitive-path"],
    ["echo x >~/.ssh/$NAME", "write.sensitive-path"],
    ["echo x >.vscode/settings.json", "self.protected-write"],
    ["echo x >./.vscode//settings.json", "self.protected-write"],
    ["echo x >.VSCode/Settings.json", "self.protected-write"],
    ["echo x >.vscode/slashi.json", "self.protected-write"],
    ["echo x >.vscode/mcp.json", "self.protected-write"],
    ["echo x >.vscode/tasks.json", "self.protected-write"],
    ["echo x >.claude/settings.json", "self.protected-write"],
    ["echo x >.claude/settings.local.json", "self.protected-write"],
    ["echo x >~/.claude/settings.json", "self.protected-write"],
    ["echo x >~/.claude.json", "self.protected-write"],
    ["echo x >.cursor/mcp.json", "self.protected-write"],
    ["echo x >.gemini/settings.json", "self.protected-write"],
    ["echo x >.codex/config.toml", "self.protected-write"],
    ["echo x >.mcp.json", "self.protected-write"],
    ["echo x >~/.config/slashi/policy.json", "self.protected-write"],
    ["echo x >sub/../.vscode/settings.json", "self.protected-write"],
    ["tee .vscode/settings.json", "self.protected-write"],
    ["cp x .vscode/slashi.json", "self.protected-write"],
    ["mv x .claude/settings.json", "self.protected-write"],
    ["sed -i s/a/b/ .vscode/settings.json", "self.protected-write"],
    ["rm .vscode/slashi.json", "self.protected-write"],
    ["rm -rf .claude", "self.protected-write"],
    ["rm -rf .vscode", "self.protected-write"],
    ["touch .mcp.json", "self.protected-write"],
    ["chmod 666 .vscode/settings.json", "self.protected-write"],
    ["truncate -s 0 .vscode/slashi.json", "self.protected-write"],
    ["ln -s x .cursor/rules", "self.protected-write"],
    ["echo x >.claude/$F", "self.protected-write"],
    ["echo x >proj.code-workspace", "self.protected-write"],
    ["git checkout evil -- .vscode/settings.json", "self.protected-write"],
    ["git checkout evil .claude/settings.json", "self.protected-write"],
    ["git restore --source=evil .vscode/tasks.json", "self.protected-write"],
    ["git rm .vscode/slashi.json", "self.protected-write"],
    ["git mv x .mcp.json", "self.protected-write"],
    ["echo x >.git/modules/vendor/hooks/post-checkout", "write.sensitive-path"],
    ["echo x >.git/worktrees/w/config.worktree", "write.sensitive-path"],
    ["git checkout evil -- .git/hooks/pre-commit", "write.sensitive-path"],
  ])("flags %s as %s", (text, code) => {
    expect(codes(text)).toContain(code);
  });

  it("denies writes into paths the adapter names as protected", () => {
    expect(codes("echo x >/home/dev/.local/state/slashi/approvals.json", lenient)).toEqual([
      "self.protected-write",
    ]);
    expect(codes("cp x /etc/slashi/policy.json", lenient)).toEqual(["self.protected-write"]);
    expect(codes("echo x >/home/dev/.local/state/other.json", lenient)).toEqual(["write.file"]);
  });

  it("lets workspace writes through when allowed, and only inside the workspace", () => {
    expect(codes("echo x >out.txt", lenient)).toEqual([]);
    expect(codes("tee build/log.txt", lenient)).toEqual([]);
    expect(codes("sort -o sorted f", lenient)).toEqual([]);
    expect(codes("echo x >../outside.txt", lenient)).toEqual(["write.file"]);
    expect(codes("echo x >/tmp/x", lenient)).toEqual(["write.file"]);
    expect(codes("echo x >$OUT", lenient)).toEqual(["write.dynamic-target"]);
    expect(codes("echo x >.git/hooks/pre-commit", lenient)).toEqual(["write.sensitive-path"]);
    expect(codes("echo x >.vscode/settings.json", lenient)).toEqual(["self.protected-write"]);
  });

  it("leaves ordinary destinations of cp, mv and sed -i to the policy", () => {
    for (const text of [
      "git checkout main",
      "git checkout -b x origin/y",
      "git restore src/a.ts",
      "git checkout -- src",
      "cp a b",
      "mv a b",
      "sed -i s/a/b/ f",
      "touch f",
      "mkdir -p dist",
      "ln -s a b",
      "vim notes.md",
      "rm -rf build",
    ]) {
      expect(codes(text)).toEqual([]);
    }
  });

  it("marks sensitive and protected writes as deny", () => {
    const command = cmd("echo x >~/.bashrc");
    const [f] = classifyWrites(redirectWrites(command), command, ctx);
    expect(f).toMatchObject({ code: "write.sensitive-path", severity: "deny", subject: "~/.bashrc" });
  });

  it("reads Windows paths case-insensitively", () => {
    const win: SafetyContext = {
      cwd: "C:\\work\\proj",
      workspaceRoot: "C:\\work\\proj",
      home: "C:\\Users\\Dev",
      platform: "windows",
    };
    expect(codes("echo x >.VSCODE\\settings.json", win)).toEqual(["self.protected-write"]);
    expect(codes("echo x >C:\\Users\\dev\\.ssh\\authorized_keys", win)).toEqual(["write.sensitive-path"]);
    expect(codes("echo x >C:\\Windows\\System32\\drivers\\etc\\hosts", win)).toEqual([
      "write.sensitive-path",
    ]);
    expect(codes("echo x >out.txt", { ...win, allowWorkspaceWrites: true })).toEqual([]);
    expect(codes("Set-Content -Path .vscode\\settings.json -Value x", win)).toEqual(["self.protected-write"]);
    expect(codes("Set-Content .vscode\\settings.json x", win)).toEqual(["self.protected-write"]);
    expect(codes("Add-Content -Value x -Path C:\\Users\\Dev\\.ssh\\authorized_keys", win)).toEqual([
      "write.sensitive-path",
    ]);
    expect(codes("Out-File -FilePath C:\\Users\\Dev\\.gitconfig", win)).toEqual(["write.sensitive-path"]);
    expect(codes("Out-File log.txt", win)).toEqual(["write.file"]);
    expect(codes("Copy-Item evil.json -Destination .claude\\settings.json", win)).toEqual([
      "self.protected-write",
    ]);
    expect(codes("Copy-Item a.txt b.txt", win)).toEqual([]);
    expect(codes("Remove-Item -Recurse .cursor", win)).toEqual(["self.protected-write"]);
    expect(codes("New-Item -ItemType File -Path .mcp.json", win)).toEqual(["self.protected-write"]);
  });
});

describe("files a runner opens itself", () => {
  const scratch = tempDir("slashi-flock-");
  afterAll(() => scratch.remove());
  const FLOCK = requireTool("flock", "flock's lock file against real flock") !== undefined;
  const options = fc.constantFrom("", "-n ", "-s ", "-x ", "-w 5 ", "--timeout=5 ", "-E 3 ", "--nb ", "-on ");
  const command = fc.constantFrom("true", "ls", "-c true", "--command true", "-c 'ls -la'");
  const front = fc.constantFrom("", "timeout 5 ", "nice ", "env ");

  it.skipIf(!FLOCK)("counts flock's lock file as a write: real flock creates it", () => {
    fc.assert(
      fc.property(front, options, fc.stringMatching(/^[a-z]{1,8}$/), command, (before, opts, name, run) => {
        const line = `${before}flock ${opts}${name} ${run}`;
        const lock = join(scratch.dir, name);
        spawnSync("bash", ["--norc", "--noprofile", "-c", line], { cwd: scratch.dir, stdio: "ignore" });
        expect(existsSync(lock), line).toBe(true);
        expect(codes(line), line).toContain("write.file");
        expect(codes(`${before}flock ${opts}~/.bashrc ${run}`), line).not.toEqual([]);
        spawnSync("rm", ["-f", lock]);
      }),
      { numRuns: 40 },
    );
  });

  it("opens nothing for a descriptor number", () => {
    expect(codes("flock 9")).toEqual([]);
    expect(codes("flock -s 9")).toEqual([]);
  });
});

describe("build and test output options", () => {
  it.each([
    ["go build -o /tmp/app .", ["write.file"]],
    ["go test -coverprofile=/tmp/c.out ./...", ["write.file"]],
    ["go test --cpuprofile /home/dev/cpu.out ./...", ["write.file"]],
    ["go test -test.memprofile=/tmp/m ./...", ["write.file"]],
    ["go build -debug-actiongraph=/tmp/g .", ["write.file"]],
    ["go test -trace=$OUT ./...", ["write.dynamic-target"]],
    ["go build -o ~/.bashrc .", ["write.sensitive-path"]],
    ["cargo build --target-dir /tmp/x", ["write.file"]],
    ["cargo build --target-dir=../other", ["write.file"]],
    ["cargo build -Z unstable-options --artifact-dir ~/bin", ["write.file"]],
  ])("%s writes outside the workspace: %j", (text, expected) => {
    expect(codes(text)).toEqual(expected);
  });

  it.each([
    "go build -o bin/app .",
    "go test -coverprofile=cover.out ./...",
    "go test -cpuprofile cpu.out ./...",
    "go test -run TestX -v ./...",
    "cargo build --target-dir target/ci",
    "cargo test --release",
  ])("%s writes what the build is for, inside the workspace", (text) => {
    expect(codes(text)).toEqual([]);
  });
});
