import { hasOption, operands, optionsNamed, parseOptions, type Invocation, type ParsedArg } from "./argv.js";
import { finding } from "./codes.js";
import { resolvePath } from "./paths.js";
import { inWorkspace } from "./targets.js";
import type { Finding, SafetyContext } from "./types.js";

/** A git invocation split into global options and the subcommand. */
export interface GitCall {
  /** Subcommand (lower case), or `undefined` for a bare `git` or `git --version`. */
  subcommand: string | undefined;
  /** Arguments after the subcommand. */
  args: string[];
  /** Index in the invocation's arguments of the first subcommand argument. */
  argsStart: number;
  /** Configuration keys set for this call by `-c`/`--config-env` (lower case), with the word as written. */
  config: { key: string; word: string }[];
  /** Global `-p`/`--paginate`. */
  paginate: boolean;
  /** Global `--exec-path=DIR` (setting, not printing). */
  execPath: string | undefined;
  /** Repository locations given by `-C`, `--git-dir` and `--work-tree`, as written. */
  locations: { option: string; path: string }[];
}

const GLOBAL_VALUE = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--super-prefix",
  "--config-env",
  "--list-cmds",
  "--attr-source",
]);

/** Finds git's subcommand: global options (`-C dir`, `-c k=v`, `--git-dir=…`, `-p`…) are skipped. */
export function parseGit(args: readonly string[]): GitCall {
  const call: GitCall = {
    subcommand: undefined,
    args: [],
    argsStart: args.length,
    config: [],
    paginate: false,
    execPath: undefined,
    locations: [],
  };
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (!word.startsWith("-")) {
      call.subcommand = word.toLowerCase();
      call.args = args.slice(i + 1);
      call.argsStart = i + 1;
      break;
    }
    if (word === "-c" || word === "--config-env") {
      const value = args[++i];
      if (value !== undefined) call.config.push({ key: configKey(value), word: `${word} ${value}` });
      continue;
    }
    if (word.startsWith("-c") && !word.startsWith("--")) {
      call.config.push({ key: configKey(word.slice(2)), word });
      continue;
    }
    if (word.startsWith("--config-env=")) {
      call.config.push({ key: configKey(word.slice("--config-env=".length)), word });
      continue;
    }
    if (word === "-p" || word === "--paginate") {
      call.paginate = true;
      continue;
    }
    if (word.startsWith("--exec-path=")) {
      call.execPath = word.slice("--exec-path=".length);
      continue;
    }
    const location = /^(-C|--git-dir|--work-tree)(=?)(.*)$/.exec(word);
    if (location) {
      const [, option, eq, rest] = location;
      const glued = option === "-C" ? rest! : eq === "=" ? rest! : "";
      if (glued !== "" || (option !== "-C" && eq === "="))
        call.locations.push({ option: option!, path: glued });
      else if (rest === "" && i + 1 < args.length) call.locations.push({ option: option!, path: args[++i]! });
      continue;
    }
    if (GLOBAL_VALUE.has(word)) {
      i++;
      continue;
    }
    // -Cpath, --git-dir=x, --no-pager, --bare and unknown options: no separate value
  }
  return call;
}

function configKey(assignment: string): string {
  const eq = assignment.indexOf("=");
  return (eq < 0 ? assignment : assignment.slice(0, eq)).toLowerCase();
}

/** Configuration keys whose value git runs as a program, or that pull in other configuration or hooks. */
const EXEC_KEYS: readonly RegExp[] = [
  /^core\.(pager|editor|fsmonitor|sshcommand|hookspath|askpass|gitproxy|alternaterefscommand)$/,
  /^sequence\.editor$/,
  /^diff\.external$/,
  /^diff\..+\.(command|textconv)$/,
  /^merge\..+\.driver$/,
  /^(difftool|mergetool)\..+\.(cmd|path)$/,
  /^filter\..+\.(clean|smudge|process)$/,
  /^alias\..+$/,
  /^credential\.(.+\.)?helper$/,
  /^gpg\.(.+\.)?program$/,
  /^pager\..+$/,
  /^uploadpack\.packobjectshook$/,
  /^include\.path$/,
  /^includeif\..+\.path$/,
  /^remote\..+\.(uploadpack|receivepack|proxy)$/,
  /^web\.browser$/,
  /^browser\..+\.(cmd|path)$/,
  /^man\..+\.(cmd|path)$/,
  /^sendemail\.(smtpserver|tocmd|cccmd|sendmailcmd)$/,
  /^protocol\.(.+\.)?allow$/,
  /^init\.templatedir$/,
];

/** True when setting this configuration key can make git run a program. */
export function isExecConfigKey(key: string): boolean {
  const lower = key.toLowerCase();
  return EXEC_KEYS.some((re) => re.test(lower));
}

/** Value-taking options per subcommand (short letters, long names), so their values are not read as operands. */
const SPECS: Record<string, { shortValue?: string; longValue?: string[] }> = {
  push: {
    shortValue: "o",
    longValue: ["repo", "receive-pack", "exec", "push-option"],
  },
  branch: {
    shortValue: "u",
    longValue: [
      "set-upstream-to",
      "contains",
      "no-contains",
      "merged",
      "no-merged",
      "points-at",
      "format",
      "sort",
    ],
  },
  checkout: { shortValue: "bB", longValue: ["orphan", "conflict", "pathspec-from-file"] },
  switch: { shortValue: "cC", longValue: ["create", "force-create", "orphan", "conflict"] },
  restore: { shortValue: "s", longValue: ["source", "conflict", "pathspec-from-file"] },
  clean: { shortValue: "e", longValue: ["exclude"] },
  reset: { longValue: ["pathspec-from-file"] },
  rebase: { shortValue: "sXx", longValue: ["exec", "onto", "strategy", "strategy-option"] },
  clone: {
    shortValue: "obcju",
    longValue: [
      "origin",
      "branch",
      "config",
      "upload-pack",
      "template",
      "reference",
      "depth",
      "jobs",
      "separate-git-dir",
      "shallow-since",
      "shallow-exclude",
      "filter",
    ],
  },
  fetch: {
    shortValue: "j",
    longValue: [
      "upload-pack",
      "depth",
      "deepen",
      "shallow-since",
      "shallow-exclude",
      "refmap",
      "jobs",
      "negotiation-tip",
      "filter",
      "server-option",
    ],
  },
  pull: { longValue: ["upload-pack", "depth", "strategy", "strategy-option"] },
  "ls-remote": { shortValue: "u", longValue: ["upload-pack", "exec", "sort", "server-option"] },
  archive: { shortValue: "o", longValue: ["output", "remote", "exec", "format", "prefix"] },
  "format-patch": {
    shortValue: "ov",
    longValue: ["output-directory", "subject-prefix", "in-reply-to", "to", "cc", "from"],
  },
  config: { longValue: ["file", "blob", "type", "default", "comment", "value"] },
  worktree: { shortValue: "b", longValue: ["reason"] },
  grep: {
    shortValue: "efABC",
    longValue: ["open-files-in-pager", "max-depth", "threads", "context", "after-context", "before-context"],
  },
  difftool: { shortValue: "xt", longValue: ["extcmd", "tool"] },
  mergetool: { shortValue: "t", longValue: ["tool"] },
  "update-ref": { shortValue: "m" },
  gc: {},
  stash: { shortValue: "m", longValue: ["message", "pathspec-from-file"] },
  rm: { longValue: ["pathspec-from-file"] },
};

/** Subcommands that take `--output=FILE` (diff family). */
const OUTPUT_SUBCOMMANDS = new Set([
  "diff",
  "log",
  "show",
  "format-patch",
  "whatchanged",
  "diff-tree",
  "diff-files",
  "diff-index",
  "range-diff",
  "archive",
  "shortlog",
  "reflog",
]);

/** File paths a git call writes through an output option, with the option as written. */
export function gitOutputFiles(invocation: Invocation): { index: number; path: string; option: string }[] {
  const call = parseGit(invocation.args);
  if (call.subcommand === undefined || !OUTPUT_SUBCOMMANDS.has(call.subcommand)) return [];
  const parsed = parseOptions(call.args, {
    ...SPECS[call.subcommand],
    longValue: [...(SPECS[call.subcommand]?.longValue ?? []), "output"],
  });
  const out: { index: number; path: string; option: string }[] = [];
  for (const p of parsed) {
    if (p.value === undefined) continue;
    const isOutput =
      (p.kind === "long" &&
        (p.name === "output" ||
          p.name === "output-directory" ||
          (p.name.length >= 3 && "output".startsWith(p.name)))) ||
      (p.kind === "short" &&
        p.name === "o" &&
        (call.subcommand === "format-patch" || call.subcommand === "archive"));
    if (isOutput)
      out.push({
        index: call.argsStart + p.index,
        path: p.value,
        option: p.kind === "long" ? `--${p.name}` : "-o",
      });
  }
  return out;
}

/**
 * The files `git grep --no-index` and `git diff --no-index` read outside any repository, and `git grep
 * --untracked` beside what it tracks (a `.env` git ignores only through `.gitignore`, which
 * `--no-exclude-standard` or the repository itself can undo): the pathspecs (or the folder it runs in) read
 * recursively, and a `-f` pattern file, which `git grep` reads from the disk in any form. `undefined` for every
 * other git call (they read what the repository tracks, judged by the repository's own rules).
 */
export function gitNoIndexReads(
  invocation: Invocation,
): { text: string; dynamic: boolean; recursive: boolean; base?: string }[] | undefined {
  const call = parseGit(invocation.args);
  if (call.subcommand !== "grep" && call.subcommand !== "diff") return undefined;
  const parsed = parseOptions(call.args, SPECS[call.subcommand] ?? {});
  const outside =
    hasOption(parsed, "", "no-index") || (call.subcommand === "grep" && hasOption(parsed, "", "untracked"));
  if (!outside && (call.subcommand !== "grep" || !hasOption(parsed, "f", "file"))) return undefined;
  const dynamic = (i: number): boolean => invocation.dynamic.has(call.argsStart + i);
  const base = call.locations.findLast((l) => l.option === "-C")?.path;
  const at = (text: string, i: number, recursive: boolean) => ({
    text,
    dynamic: dynamic(i),
    recursive,
    ...(base === undefined ? {} : { base }),
  });
  const out = optionsNamed(parsed, "f", "file").map((p) => at(p.value ?? "", p.index, false));
  if (!outside) return out;
  let files = operands(parsed);
  if (call.subcommand === "grep" && optionsNamed(parsed, "ef", "regexp", "file").length === 0)
    files = files.slice(1);
  for (const p of files) out.push(at(p.name, p.index, true));
  if (files.length === 0 && call.subcommand === "grep") out.push(at(".", -1, true));
  return out;
}

/**
 * The tracked files a git call prints by object name, `<rev>:<path>` (`git show HEAD:.env`, `git cat-file -p
 * main:id_rsa`, the index's `:0:path`): the text after each `:` of a word after the subcommand, relative to the
 * folder git runs in. Over-approximates (`--format=%h:%s` gives `%s`, which names nothing secret). What a bare
 * object id (`git cat-file -p 1a2b…`) holds cannot be told from the line: not judged here.
 */
export function gitObjectPathReads(
  invocation: Invocation,
): { text: string; dynamic: boolean; recursive: boolean; base?: string }[] {
  const call = parseGit(invocation.args);
  if (call.subcommand === undefined) return [];
  const base = call.locations.findLast((l) => l.option === "-C")?.path;
  const out: { text: string; dynamic: boolean; recursive: boolean; base?: string }[] = [];
  call.args.forEach((word, i) => {
    for (let colon = word.indexOf(":"); colon >= 0; colon = word.indexOf(":", colon + 1)) {
      const text = word.slice(colon + 1);
      if (text === "") continue;
      const dynamic = invocation.dynamic.has(call.argsStart + i);
      out.push({ text, dynamic, recursive: false, ...(base === undefined ? {} : { base }) });
    }
  });
  return out;
}

/** Paths a git call overwrites or removes in the working tree (`checkout -- p`, `restore p`, `rm p`, `mv a b`). */
export function gitWorktreeWrites(invocation: Invocation): { index: number; word: string }[] {
  const call = parseGit(invocation.args);
  const sub = call.subcommand;
  if (sub !== "checkout" && sub !== "restore" && sub !== "rm" && sub !== "mv") return [];
  const parsed = parseOptions(call.args, SPECS[sub] ?? {});
  const dashDash = call.args.indexOf("--");
  let ops = operands(parsed);
  if (sub === "checkout") {
    if (dashDash >= 0) ops = ops.filter((o) => o.index > dashDash);
    else ops = hasOption(parsed, "bB", "orphan") ? [] : ops.slice(1);
  }
  if (sub === "mv") ops = ops.slice(-1);
  return ops.map((o) => ({ index: call.argsStart + o.index, word: o.name }));
}

/** git: destructive modes, options that run programs, configuration overrides and writes. */
export function classifyGit(invocation: Invocation, context?: SafetyContext): Finding[] {
  if (invocation.name !== "git") return [];
  const command = invocation.command;
  const call = parseGit(invocation.args);
  const out: Finding[] = [];
  if (context?.workspaceRoot !== undefined) {
    let base = context.cwd;
    for (const { option, path } of call.locations) {
      const resolved = resolvePath(path, { ...context, cwd: base });
      if (option === "-C" && resolved !== null) base = resolved;
      if (resolved === null || !inWorkspace(resolved, context)) {
        out.push(
          finding(
            "git.foreign-repository",
            `git ${option} ${path} works on a repository outside the workspace, whose configuration and hooks apply`,
            command,
            path,
          ),
        );
      }
    }
  }
  for (const { key, word } of call.config) {
    if (isExecConfigKey(key))
      out.push(finding("git.config-exec", `git ${word} sets ${key}, which runs a program`, command, word));
    else
      out.push(
        finding("git.config-override", `git ${word} overrides configuration for this call`, command, word),
      );
  }
  if (call.paginate)
    out.push(finding("git.pager", "git -p sends the output through a pager program", command, "-p"));
  if (call.execPath !== undefined) {
    out.push(
      finding(
        "git.exec-path",
        `git --exec-path=${call.execPath} runs git subcommands from another folder`,
        command,
        `--exec-path=${call.execPath}`,
      ),
    );
  }
  const sub = call.subcommand;
  if (sub === undefined) return out;
  const parsed = parseOptions(call.args, SPECS[sub] ?? {});
  const ops = operands(parsed);
  const add = (code: Parameters<typeof finding>[0], message: string, subject?: string): void => {
    out.push(finding(code, message, command, subject));
  };
  const firstOperand = ops[0]?.name.toLowerCase();

  if (hasOption(parsed, "", "ext-diff"))
    add("git.external-diff", `git ${sub} --ext-diff runs the configured external diff program`, "--ext-diff");
  if (hasOption(parsed, "", "textconv"))
    add("git.external-diff", `git ${sub} --textconv runs configured text conversion programs`, "--textconv");

  switch (sub) {
    case "reset":
      for (const mode of ["hard", "merge", "keep"]) {
        if (parsed.some((p) => p.kind === "long" && p.name === mode))
          add("git.reset-discard", `git reset --${mode} discards uncommitted changes`, `--${mode}`);
      }
      break;
    case "clean":
      if (hasOption(parsed, "f", "force") && !hasOption(parsed, "n", "dry-run")) {
        add("git.clean-force", "git clean -f deletes untracked files for good", "-f");
      }
      break;
    case "push": {
      for (const p of optionsNamed(parsed, "f", "force", "force-with-lease", "force-if-includes")) {
        add(
          "git.push-force",
          "git push with force rewrites the remote branch",
          p.kind === "short" ? "-f" : `--${p.name}`,
        );
      }
      for (const p of optionsNamed(parsed, "d", "delete"))
        add(
          "git.push-delete",
          "git push --delete deletes remote refs",
          p.kind === "short" ? "-d" : `--${p.name}`,
        );
      for (const p of optionsNamed(parsed, "", "mirror", "prune")) {
        add(
          "git.push-mirror",
          `git push --${p.name} deletes every remote ref the local repository lacks`,
          `--${p.name}`,
        );
      }
      for (const op of ops.slice(1)) {
        if (op.name.startsWith("+"))
          add("git.push-force", `git push ${op.name} force-updates a remote ref`, op.name);
        else if (op.name.startsWith(":"))
          add("git.push-delete", `git push ${op.name} deletes a remote ref`, op.name);
      }
      remoteProgram(parsed, ["receive-pack", "exec"], "", add);
      break;
    }
    case "branch": {
      const force = hasOption(parsed, "f", "force");
      const del = hasOption(parsed, "d", "delete");
      const move = hasOption(parsed, "m", "move");
      const copy = hasOption(parsed, "c", "copy");
      if (hasOption(parsed, "D", "") || (del && force))
        add("git.branch-force", "git branch -D deletes a branch even with unmerged commits", "-D");
      if (hasOption(parsed, "M", "") || (move && force))
        add("git.branch-force", "git branch -M renames over an existing branch", "-M");
      if (hasOption(parsed, "C", "") || (copy && force))
        add("git.branch-force", "git branch -C copies over an existing branch", "-C");
      break;
    }
    case "checkout": {
      const dashDash = call.args.indexOf("--");
      const force = hasOption(parsed, "f", "force");
      const overwrite = hasOption(parsed, "", "ours", "theirs");
      const pathLike = ops.some((o) => isWholeTreePath(o.name));
      const paths = dashDash >= 0 && dashDash < call.args.length - 1;
      const treeAndPaths = dashDash < 0 && ops.length >= 2 && !hasOption(parsed, "bB", "orphan");
      if (force || overwrite || pathLike || paths || treeAndPaths) {
        add(
          "git.discard-worktree",
          "git checkout overwrites uncommitted changes in the working tree",
          force ? "-f" : ops[ops.length - 1]?.name,
        );
      }
      break;
    }
    case "restore": {
      const staged = hasOption(parsed, "S", "staged");
      const worktree = hasOption(parsed, "W", "worktree");
      if (worktree || !staged)
        add(
          "git.discard-worktree",
          "git restore overwrites uncommitted changes in the working tree",
          ops[0]?.name,
        );
      break;
    }
    case "switch":
      for (const p of optionsNamed(parsed, "f", "force", "discard-changes")) {
        add(
          "git.discard-worktree",
          "git switch --discard-changes throws away uncommitted changes",
          p.kind === "short" ? "-f" : `--${p.name}`,
        );
      }
      break;
    case "rm":
      if (hasOption(parsed, "f", "force"))
        add("git.discard-worktree", "git rm -f removes files with uncommitted changes", "-f");
      break;
    case "stash":
      if (firstOperand === "drop" || firstOperand === "clear")
        add("git.stash-drop", `git stash ${firstOperand} deletes stashed work`, firstOperand);
      break;
    case "update-ref":
      if (hasOption(parsed, "d", "")) add("git.ref-delete", "git update-ref -d deletes a ref", "-d");
      break;
    case "reflog":
      if (firstOperand === "expire" || firstOperand === "delete")
        add("git.reflog-expire", `git reflog ${firstOperand} removes reflog entries`, firstOperand);
      break;
    case "filter-branch":
    case "filter-repo":
      add("git.history-rewrite", `git ${sub} rewrites the repository history`, sub);
      break;
    case "gc":
      for (const p of parsed) {
        if (
          p.kind === "long" &&
          longIs(p.name, "prune") &&
          p.value !== undefined &&
          /^(now|all)$/i.test(p.value)
        ) {
          add(
            "git.gc-prune",
            `git gc --prune=${p.value} deletes unreachable objects now`,
            `--prune=${p.value}`,
          );
        }
      }
      break;
    case "prune":
      add("git.gc-prune", "git prune deletes unreachable objects", "prune");
      break;
    case "worktree":
      if (firstOperand === "remove" && hasOption(parsed, "f", "force"))
        add("git.worktree-force", "git worktree remove --force deletes a worktree with changes", "--force");
      break;
    case "config":
      classifyConfig(call, parsed, ops, add);
      break;
    case "grep":
      for (const p of optionsNamed(parsed, "O", "open-files-in-pager")) {
        add(
          "git.pager",
          "git grep -O opens the matches with a pager program",
          p.kind === "short" ? "-O" : `--${p.name}`,
        );
      }
      break;
    case "fetch":
    case "clone":
    case "ls-remote":
    case "pull":
    case "archive":
      remoteProgram(parsed, ["upload-pack", "exec"], sub === "clone" || sub === "ls-remote" ? "u" : "", add);
      if (sub === "clone") {
        for (const p of optionsNamed(parsed, "c", "config")) {
          const key = configKey(p.value ?? "");
          if (isExecConfigKey(key))
            add(
              "git.config-exec",
              `git clone --config ${p.value ?? ""} sets ${key}, which runs a program`,
              p.value,
            );
          else add("git.config-override", `git clone --config ${p.value ?? ""} sets configuration`, p.value);
        }
        if (hasOption(parsed, "", "template"))
          add(
            "git.config-override",
            "git clone --template copies hooks and configuration from a folder",
            "--template",
          );
      }
      break;
    case "rebase":
      for (const p of optionsNamed(parsed, "x", "exec"))
        add(
          "git.runs-command",
          `git rebase --exec runs ${p.value ?? "a command"} after each commit`,
          p.value,
        );
      break;
    case "bisect":
      if (firstOperand === "run")
        add("git.runs-command", "git bisect run runs a command at every step", "run");
      break;
    case "submodule":
      if (ops.some((o) => o.name === "foreach"))
        add("git.runs-command", "git submodule foreach runs a command in every submodule", "foreach");
      break;
    case "difftool":
    case "mergetool":
      for (const p of optionsNamed(parsed, sub === "difftool" ? "x" : "", "extcmd"))
        add("git.runs-command", `git ${sub} --extcmd runs ${p.value ?? "a command"}`, p.value);
      break;
    default:
      break;
  }
  for (const op of ops) {
    if (/^ext::/i.test(op.name))
      add("git.remote-program", `${op.name} is an ext:: remote, which runs a command`, op.name);
  }
  return out;
}

function longIs(written: string, canonical: string): boolean {
  return written === canonical || (written.length >= 1 && canonical.startsWith(written));
}

function isWholeTreePath(word: string): boolean {
  return (
    word === "." || word === "./" || word === ".." || word === "*" || word.startsWith(":") || word === "/"
  );
}

type Add = (code: Parameters<typeof finding>[0], message: string, subject?: string) => void;

function remoteProgram(parsed: readonly ParsedArg[], longs: string[], short: string, add: Add): void {
  for (const p of optionsNamed(parsed, short, ...longs)) {
    const option = p.kind === "short" ? `-${p.name}` : `--${p.name}`;
    add(
      "git.remote-program",
      `${option} ${p.value ?? ""} runs a given program on the remote side`.replace("  ", " "),
      option,
    );
  }
}

const CONFIG_READ_OPTIONS = [
  "get",
  "get-all",
  "get-regexp",
  "get-urlmatch",
  "list",
  "get-color",
  "get-colorbool",
  "show-origin",
  "show-scope",
  "name-only",
];
const CONFIG_WRITE_OPTIONS = [
  "add",
  "replace-all",
  "unset",
  "unset-all",
  "rename-section",
  "remove-section",
  "edit",
];
const CONFIG_READ_VERBS = new Set(["get", "list"]);
const CONFIG_WRITE_VERBS = new Set(["set", "unset", "rename-section", "remove-section", "edit"]);

function classifyConfig(
  call: GitCall,
  parsed: readonly ParsedArg[],
  ops: readonly ParsedArg[],
  add: Add,
): void {
  const verb = ops[0]?.name.toLowerCase();
  let write: boolean;
  let keyIndex = 0;
  if (verb !== undefined && CONFIG_WRITE_VERBS.has(verb)) {
    write = true;
    keyIndex = 1;
  } else if (verb !== undefined && CONFIG_READ_VERBS.has(verb)) {
    write = false;
  } else if (hasOption(parsed, "e", ...CONFIG_WRITE_OPTIONS)) {
    write = true;
  } else if (hasOption(parsed, "l", ...CONFIG_READ_OPTIONS)) {
    write = false;
  } else {
    write = ops.length >= 2;
  }
  if (!write) return;
  const key = ops[keyIndex]?.name;
  if (key !== undefined && isExecConfigKey(key)) {
    add(
      "git.config-write-exec",
      `git config writes ${key.toLowerCase()}, which makes later git commands run a program`,
      key,
    );
  } else {
    add("git.config-write", `git config ${call.args.join(" ")} writes configuration`, key);
  }
}

/**
 * Configuration keys whose value never holds a credential, so printing one value is harmless. Anything else
 * may: remote URLs (`https://user:token@host`), `http.extraHeader` (CI checkouts keep their token there),
 * `url.<base>.insteadOf` (whose name holds the URL), proxies, credential settings.
 */
const HARMLESS_CONFIG_KEY =
  /^(user\.(name|email)|init\.defaultbranch|core\.(bare|autocrlf|filemode|ignorecase|eol|quotepath|symlinks|precomposeunicode)|pull\.(rebase|ff)|push\.default|merge\.ff|commit\.gpgsign)$/;

/** `git config` options that print one key's values. */
const CONFIG_ONE_KEY_OPTIONS = new Set(["get", "get-all"]);
/** `git config` options that only change how a value is printed. */
const CONFIG_FORMAT_OPTIONS = new Set([
  "type",
  "default",
  "bool",
  "int",
  "bool-or-int",
  "path",
  "expiry-date",
  "null",
  "z",
  "global",
  "system",
  "local",
  "worktree",
  "includes",
  "no-includes",
]);

/**
 * How a git call prints the repository's or the user's configuration, remote URLs or stored credentials, all
 * of which can hold tokens: `git config` reads other than one value of a harmless key (`--list`,
 * `--get-regexp`, `get remote.origin.url`), `git remote -v`/`get-url`/`show`, `git ls-remote --get-url`,
 * `git var -l`, `git request-pull` (names the remote's URL) and `git credential`/`credential-*`. Returns the
 * word that shows it, or `undefined`. Writes are not judged here (see {@link classifyGit}).
 */
export function gitConfigPrint(invocation: Invocation): { word: string; what: string } | undefined {
  if (invocation.name !== "git") return undefined;
  const call = parseGit(invocation.args);
  const sub = call.subcommand;
  if (sub === undefined) return undefined;
  const parsed = parseOptions(call.args, SPECS[sub] ?? {});
  const ops = operands(parsed);
  const first = ops[0]?.name.toLowerCase();
  switch (sub) {
    case "config": {
      if (configWrites(parsed, ops)) return undefined;
      const verb = first !== undefined && CONFIG_READ_VERBS.has(first) ? first : undefined;
      const keys = verb === undefined ? ops : ops.slice(1);
      const oneKey = parsed.every(
        (p) =>
          p.kind === "operand" ||
          (p.kind === "long" && (CONFIG_ONE_KEY_OPTIONS.has(p.name) || CONFIG_FORMAT_OPTIONS.has(p.name))) ||
          (p.kind === "short" && p.name === "z"),
      );
      const key = keys[0]?.name.toLowerCase();
      if (oneKey && key !== undefined && HARMLESS_CONFIG_KEY.test(key)) return undefined;
      return { word: key ?? verb ?? "config", what: "git config prints configuration values" };
    }
    case "remote": {
      const verbose = optionsNamed(parsed, "v", "verbose")[0];
      if (verbose !== undefined)
        return {
          word: verbose.kind === "short" ? "-v" : "--verbose",
          what: "git remote -v prints remote URLs",
        };
      if (first === "get-url" || first === "show")
        return { word: first, what: `git remote ${first} prints remote URLs` };
      return undefined;
    }
    case "ls-remote":
      return hasOption(parsed, "", "get-url")
        ? { word: "--get-url", what: "git ls-remote --get-url prints the remote's URL" }
        : undefined;
    case "var":
      return hasOption(parsed, "l", "")
        ? { word: "-l", what: "git var -l lists every configuration value" }
        : undefined;
    case "request-pull":
      return { word: sub, what: "git request-pull prints the remote's URL" };
    case "reflog":
      // every verb but the ones that change or test the reflog shows it (`git reflog`, `show`, `git reflog main`)
      return first === undefined || !REFLOG_QUIET_VERBS.has(first)
        ? { word: sub, what: "git reflog prints reflog messages, which keep the URLs fetched and pulled" }
        : undefined;
    case "log":
    case "show":
    case "whatchanged": {
      const walk = parsed.find(
        (p) =>
          (p.kind === "short" && p.name === "g") || (p.kind === "long" && longIs(p.name, "walk-reflogs")),
      );
      return walk === undefined
        ? undefined
        : {
            word: walk.kind === "short" ? "-g" : `--${walk.name}`,
            what: `git ${sub} ${walk.kind === "short" ? "-g" : `--${walk.name}`} prints reflog messages, which keep the URLs fetched and pulled`,
          };
    }
    default:
      return sub === "credential" || sub.startsWith("credential-")
        ? { word: sub, what: `git ${sub} prints stored credentials` }
        : undefined;
  }
}

/** `git reflog` verbs that print no reflog message. */
const REFLOG_QUIET_VERBS: ReadonlySet<string> = new Set(["expire", "delete", "drop", "exists"]);

/** Whether a `git config` call writes (the same reading as {@link classifyConfig}). */
function configWrites(parsed: readonly ParsedArg[], ops: readonly ParsedArg[]): boolean {
  const verb = ops[0]?.name.toLowerCase();
  if (verb !== undefined && CONFIG_WRITE_VERBS.has(verb)) return true;
  if (verb !== undefined && CONFIG_READ_VERBS.has(verb)) return false;
  if (hasOption(parsed, "e", ...CONFIG_WRITE_OPTIONS)) return true;
  if (hasOption(parsed, "l", ...CONFIG_READ_OPTIONS)) return false;
  return ops.length >= 2;
}
