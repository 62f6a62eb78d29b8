import { describe, expect, it } from "vitest";
import { cmd, ctx } from "../../test/safety/command.js";
import { invocationOf } from "./argv.js";
import { classifyGit, gitConfigPrint, gitOutputFiles, isExecConfigKey, parseGit } from "./git.js";

function codes(text: string): string[] {
  return classifyGit(invocationOf(cmd(text))!).map((f) => f.code);
}

describe("parseGit", () => {
  it.each([
    ["status", "status"],
    ["-C /tmp status", "status"],
    ["-C/tmp status", "status"],
    ["-c a.b=c status", "status"],
    ["-ca.b=c status", "status"],
    ["--git-dir=.git --work-tree . status", "status"],
    ["--git-dir .git status", "status"],
    ["--namespace foo log", "log"],
    ["--no-pager -p diff", "diff"],
    ["--bare --literal-pathspecs log", "log"],
    ["--config-env core.pager=PAGER status", "status"],
    ["--exec-path=/tmp/x status", "status"],
    ["checkout reset", "checkout"],
    ["--version", undefined],
    ["", undefined],
  ])("finds the subcommand of git %s", (args, sub) => {
    expect(parseGit(args.split(" ").filter(Boolean)).subcommand).toBe(sub);
  });

  it("records config keys in lower case", () => {
    expect(parseGit(["-c", "Core.Pager=less", "-ccore.fsmonitor=x", "log"]).config.map((c) => c.key)).toEqual(
      ["core.pager", "core.fsmonitor"],
    );
  });
});

describe("isExecConfigKey", () => {
  it.each([
    "core.pager",
    "core.fsmonitor",
    "core.sshCommand",
    "core.hooksPath",
    "core.editor",
    "core.askPass",
    "alias.st",
    "diff.external",
    "diff.foo.textconv",
    "filter.lfs.smudge",
    "filter.x.process",
    "credential.helper",
    "credential.https://x.helper",
    "gpg.program",
    "pager.log",
    "include.path",
    "includeIf.gitdir:~/x.path",
    "sequence.editor",
    "remote.origin.uploadpack",
    "protocol.ext.allow",
    "init.templateDir",
    "merge.ours.driver",
  ])("flags %s", (key) => expect(isExecConfigKey(key)).toBe(true));

  it.each(["user.name", "user.email", "core.autocrlf", "pull.rebase", "init.defaultBranch", "color.ui"])(
    "does not flag %s",
    (key) => expect(isExecConfigKey(key)).toBe(false),
  );
});

describe("git classifier", () => {
  it.each([
    ["git status", []],
    ["git log --oneline", []],
    ["git diff HEAD~1", []],
    ["git push", []],
    ["git push origin main", []],
    ["git push -u origin main", []],
    ["git push --follow-tags", []],
    ["git push --no-force origin", []],
    ["git reset", []],
    ["git reset --soft HEAD~1", []],
    ["git reset HEAD file", []],
    ["git clean -n", []],
    ["git clean -fn", []],
    ["git clean --dry-run -f", []],
    ["git branch -d merged", []],
    ["git branch -dv merged", []],
    ["git branch -m old new", []],
    ["git checkout main", []],
    ["git checkout -b feature origin/main", []],
    ["git checkout reset", []],
    ["git switch main", []],
    ["git switch -c new", []],
    ["git restore --staged file", []],
    ["git stash", []],
    ["git stash pop", []],
    ["git stash list", []],
    ["git reflog", []],
    ["git gc", []],
    ["git gc --prune=2.weeks.ago", []],
    ["git worktree remove tree", []],
    ["git config user.name", []],
    ["git config --get user.name", []],
    ["git config --list", []],
    ["git config -l", []],
    ["git config get user.name", []],
    ["git fetch origin", []],
    ["git fetch -u origin", []],
    ["git clone https://example.com/r.git", []],
    ["git grep foo", []],
    ["git rebase main", []],
    ["git rm --cached file", []],
    ["git --no-pager log", []],
    ["git -C sub status", []],
    ["git diff --no-ext-diff", []],
  ])("raises nothing for %s", (text, expected) => {
    expect(codes(text)).toEqual(expected);
  });

  it.each([
    ["git reset --hard", "git.reset-discard"],
    ["git reset --hard HEAD~3", "git.reset-discard"],
    ["git reset --merge", "git.reset-discard"],
    ["git reset --keep HEAD^", "git.reset-discard"],
    ["git -C sub reset --hard", "git.reset-discard"],
    ["git -c x.y=z reset --hard", "git.reset-discard"],
    ["git clean -f", "git.clean-force"],
    ["git clean -fdx", "git.clean-force"],
    ["git clean -xdf", "git.clean-force"],
    ["git clean -d -x -f", "git.clean-force"],
    ["git clean --force", "git.clean-force"],
    ["git clean --forc", "git.clean-force"],
    ["git clean -ffdx", "git.clean-force"],
    ["git push -f", "git.push-force"],
    ["git push --force", "git.push-force"],
    ["git push origin main --force", "git.push-force"],
    ["git push -uf origin main", "git.push-force"],
    ["git push --force-with-lease", "git.push-force"],
    ["git push --force-with-lease=main:abc origin", "git.push-force"],
    ["git push --force-if-includes", "git.push-force"],
    ["git push origin +main", "git.push-force"],
    ["git push origin +HEAD:main", "git.push-force"],
    ["git push --force-with-lease origin +main", "git.push-force"],
    ["git push --signed origin :old", "git.push-delete"],
    ["git checkout --track origin/x -- .", "git.discard-worktree"],
    ["git push origin :old", "git.push-delete"],
    ["git push --delete origin old", "git.push-delete"],
    ["git push -d origin old", "git.push-delete"],
    ["git push origin --delete old", "git.push-delete"],
    ["git push --mirror", "git.push-mirror"],
    ["git push --prune origin", "git.push-mirror"],
    ["git branch -D feature", "git.branch-force"],
    ["git branch -d -f feature", "git.branch-force"],
    ["git branch -df feature", "git.branch-force"],
    ["git branch --delete --force feature", "git.branch-force"],
    ["git branch -vD feature", "git.branch-force"],
    ["git branch -M main", "git.branch-force"],
    ["git branch -C a b", "git.branch-force"],
    ["git checkout -- .", "git.discard-worktree"],
    ["git checkout .", "git.discard-worktree"],
    ["git checkout -f", "git.discard-worktree"],
    ["git checkout --force main", "git.discard-worktree"],
    ["git checkout -- src/file.ts", "git.discard-worktree"],
    ["git checkout HEAD -- src", "git.discard-worktree"],
    ["git checkout main file.ts", "git.discard-worktree"],
    ["git checkout --theirs file.ts", "git.discard-worktree"],
    ["git checkout :/", "git.discard-worktree"],
    ["git restore .", "git.discard-worktree"],
    ["git restore file.ts", "git.discard-worktree"],
    ["git restore --worktree file", "git.discard-worktree"],
    ["git restore -SW file", "git.discard-worktree"],
    ["git restore --source=HEAD~2 src", "git.discard-worktree"],
    ["git switch --discard-changes main", "git.discard-worktree"],
    ["git switch -f main", "git.discard-worktree"],
    ["git rm -rf src", "git.discard-worktree"],
    ["git stash drop", "git.stash-drop"],
    ["git stash clear", "git.stash-drop"],
    ["git update-ref -d refs/heads/x", "git.ref-delete"],
    ["git reflog expire --expire=now --all", "git.reflog-expire"],
    ["git reflog delete HEAD@{1}", "git.reflog-expire"],
    ["git filter-branch --tree-filter x", "git.history-rewrite"],
    ["git filter-repo --path x", "git.history-rewrite"],
    ["git gc --prune=now", "git.gc-prune"],
    ["git gc --aggressive --prune=now", "git.gc-prune"],
    ["git prune", "git.gc-prune"],
    ["git worktree remove --force tree", "git.worktree-force"],
    ["git worktree remove -f tree", "git.worktree-force"],
    ["git -c core.pager=less log", "git.config-exec"],
    ["git -ccore.pager=sh·-c·x log", "git.config-exec"],
    ["git -c core.fsmonitor=./x status", "git.config-exec"],
    ["git -c alias.x=!sh x", "git.config-exec"],
    ["git -c core.sshCommand=evil fetch", "git.config-exec"],
    ["git --config-env core.pager=P log", "git.config-exec"],
    ["git --config-env=core.editor=E commit", "git.config-exec"],
    ["git -c color.ui=never log", "git.config-override"],
    ["git -c user.name=x commit", "git.config-override"],
    ["git -p log", "git.pager"],
    ["git --paginate status", "git.pager"],
    ["git grep -O foo", "git.pager"],
    ["git grep --open-files-in-pager=vim foo", "git.pager"],
    ["git grep -Ovim foo", "git.pager"],
    ["git --exec-path=/tmp/x status", "git.exec-path"],
    ["git diff --ext-diff", "git.external-diff"],
    ["git log -p --textconv", "git.external-diff"],
    ["git show --ext-diff HEAD", "git.external-diff"],
    ["git fetch --upload-pack=evil origin", "git.remote-program"],
    ["git clone -u evil https://x/r", "git.remote-program"],
    ["git clone --upload-pack evil https://x/r", "git.remote-program"],
    ["git ls-remote --upload-pack=x origin", "git.remote-program"],
    ["git push --receive-pack=x origin", "git.remote-program"],
    ["git push --exec=x origin", "git.remote-program"],
    ["git archive --remote=x --exec=y HEAD", "git.remote-program"],
    ["git clone ext::sh·-c·evil", "git.remote-program"],
    ["git clone -c core.hooksPath=hooks https://x/r", "git.config-exec"],
    ["git clone --config=user.name=x https://x/r", "git.config-override"],
    ["git clone --template=./t https://x/r", "git.config-override"],
    ["git rebase -x make main", "git.runs-command"],
    ["git rebase --exec=make main", "git.runs-command"],
    ["git rebase -i --exec make main", "git.runs-command"],
    ["git bisect run make test", "git.runs-command"],
    ["git submodule foreach git clean -fdx", "git.runs-command"],
    ["git difftool -x meld", "git.runs-command"],
    ["git config user.name Alice", "git.config-write"],
    ["git config --global user.email a@b", "git.config-write"],
    ["git config --unset user.name", "git.config-write"],
    ["git config set user.name x", "git.config-write"],
    ["git config --edit", "git.config-write"],
    ["git config core.hooksPath .husky", "git.config-write-exec"],
    ["git config --global core.pager less", "git.config-write-exec"],
    ["git config alias.st status", "git.config-write-exec"],
    ["git config core.fsmonitor ./fsm", "git.config-write-exec"],
    ["git config --add filter.x.clean cmd", "git.config-write-exec"],
    ["git config set credential.helper store", "git.config-write-exec"],
    ["git config diff.external ./x", "git.config-write-exec"],
    ["/usr/bin/git push --force", "git.push-force"],
    ["git.exe push --force", "git.push-force"],
  ])("flags %s as %s", (text, code) => {
    expect(codes(text)).toContain(code);
  });

  it("reports both the override and the destructive mode", () => {
    expect(codes("git -c core.pager=x reset --hard")).toEqual(["git.config-exec", "git.reset-discard"]);
  });

  it("marks git.push-mirror as deny and the rest as ask", () => {
    const findings = classifyGit(invocationOf(cmd("git push --mirror --force"))!);
    expect(findings.map((f) => [f.code, f.severity])).toEqual([
      ["git.push-force", "ask"],
      ["git.push-mirror", "deny"],
    ]);
  });
});

describe("gitOutputFiles", () => {
  it.each([
    ["git diff --output=out.patch", ["out.patch"]],
    ["git log --output out.txt", ["out.txt"]],
    ["git show --out=x HEAD", ["x"]],
    ["git format-patch -o patches HEAD~2", ["patches"]],
    ["git format-patch --output-directory=p HEAD~1", ["p"]],
    ["git diff", []],
    ["git status --output=x", []],
  ])("finds the files written by %s", (text, paths) => {
    expect(gitOutputFiles(invocationOf(cmd(text))!).map((o) => o.path)).toEqual(paths);
  });
});

describe("repositories outside the workspace", () => {
  function located(text: string): string[] {
    return classifyGit(invocationOf(cmd(text))!, ctx).map((f) => f.code);
  }

  it.each([
    "git -C /tmp/evil status",
    "git -C/tmp/evil log",
    "git --git-dir=/tmp/evil/.git status",
    "git --git-dir /tmp/evil/.git status",
    "git --work-tree=/tmp/evil status",
    "git -C .. status",
    "git -C sub -C ../../other status",
    "git -C ~/other diff",
  ])("flags %s", (text) => {
    expect(located(text)).toContain("git.foreign-repository");
  });

  it.each([
    "git -C sub status",
    "git -C . log",
    "git --git-dir=.git status",
    "git -C /code/proj/pkg diff",
    "git status",
  ])("raises nothing for %s", (text) => {
    expect(located(text)).toEqual([]);
  });

  it("does not judge locations without a workspace", () => {
    expect(classifyGit(invocationOf(cmd("git -C /tmp/x status"))!, { cwd: "/", home: "/home/dev" })).toEqual(
      [],
    );
  });
});

describe("gitConfigPrint", () => {
  const printed = (text: string) => gitConfigPrint(invocationOf(cmd(text))!)?.word;

  it.each([
    ["git config --list", "config"],
    ["git config -l", "config"],
    ["git config -z -l", "config"],
    ["git config list", "list"],
    ["git config --get remote.origin.url", "remote.origin.url"],
    ["git config --get-all Remote.Origin.URL", "remote.origin.url"],
    ["git config get http.extraheader", "http.extraheader"],
    ["git config remote.origin.url", "remote.origin.url"],
    ["git config --get-regexp user", "user"],
    ["git config --show-origin --get user.name", "user.name"],
    ["git config --file x --get user.name", "user.name"],
    ["git config --ge user.name", "user.name"],
    ["git -C sub config -l", "config"],
    ["git remote -v", "-v"],
    ["git remote --verbose", "--verbose"],
    ["git remote get-url origin", "get-url"],
    ["git remote show -n origin", "show"],
    ["git ls-remote --get-url", "--get-url"],
    ["git var -l", "-l"],
    ["git request-pull v1 origin", "request-pull"],
    ["git credential fill", "credential"],
    ["git credential-store get", "credential-store"],
  ])("finds that %s prints configuration (%s)", (text, word) => {
    expect(printed(text)).toBe(word);
  });

  it.each([
    "git config --get user.name",
    "git config --get --type=bool core.bare",
    "git config get user.email",
    "git config --local --get init.defaultBranch",
    "git config user.name dev",
    "git config --unset remote.origin.url",
    "git remote",
    "git remote add origin https://example.com/r.git",
    "git ls-remote origin",
    "git var GIT_AUTHOR_IDENT",
    "git log -1",
    "git status",
    "ls config",
  ])("finds nothing printed by %s", (text) => {
    expect(printed(text)).toBeUndefined();
  });
});
