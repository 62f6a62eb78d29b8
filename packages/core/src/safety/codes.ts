import type { Finding } from "./types.js";

/** One finding code the safety classifiers can raise, with its fixed severity. */
export interface SafetyCodeInfo {
  /** Stable code; the part before the first dot names the classifier. */
  code: string;
  /** Every finding with this code has this severity. */
  severity: Finding["severity"];
  /** One line for a person: what the code means. */
  description: string;
}

const table = [
  // shell analysis: syntax a static reader cannot follow (raised by shell/analyze, not by a classifier)
  [
    "shell.parse-error",
    "ask",
    "The script does not parse as bash (or the parser skipped text), so it may hide commands.",
  ],
  [
    "shell.unknown-construct",
    "ask",
    "A node or word construct the analyser does not handle; the analysis is incomplete.",
  ],
  [
    "shell.dynamic-command",
    "ask",
    "The command word, or the program behind runners, is computed when the script runs.",
  ],
  [
    "shell.brace-expansion-command",
    "ask",
    "Brace expansion in command position (`{rm,-rf,/}`) turns into a different command.",
  ],
  ["shell.ifs", "ask", "A word uses `$IFS`, a common way to hide spaces and commands."],
  ["shell.prompt-expansion", "ask", "`${x@P}` prompt expansion runs command substitutions."],
  ["shell.eval", "ask", "`eval` runs text as a new command line."],
  ["shell.source", "ask", "`source` or `.` runs a file's commands in the current shell."],
  [
    "shell.alias-defined",
    "ask",
    "The script defines or uses an alias, which changes what a later command runs.",
  ],
  [
    "shell.function-shadow",
    "ask",
    "A command calls a function defined in the script, so the function's body runs instead.",
  ],
  [
    "shell.env-poison",
    "ask",
    "Sets a variable that decides what later programs run or load (`PATH`, `LD_PRELOAD`, `BASH_ENV`…).",
  ],
  [
    "shell.pipe-to-shell",
    "ask",
    "A program reads its code from a pipe, a redirect, a heredoc or a here-string.",
  ],
  [
    "shell.download-to-shell",
    "deny",
    'A download is run as a program (`curl … | sh`, `bash <(curl …)`, `eval "$(wget …)"`).',
  ],
  [
    "shell.nested-too-deep",
    "ask",
    "Shell payloads nest deeper than the analyser follows; the innermost are not analysed.",
  ],
  [
    "shell.unparsed-payload",
    "ask",
    "A `-c`, `eval`, alias, `env -S` or heredoc payload is computed at run time or encoded.",
  ],
  [
    "shell.unicode-space",
    "ask",
    "A word contains non-ASCII white space, which bash does not treat as a separator.",
  ],
  [
    "shell.carriage-return",
    "ask",
    "The script contains a carriage return, which bash reads as part of a word.",
  ],
  [
    "shell.control-character",
    "ask",
    "The command word contains a control character that hides what a reader sees.",
  ],
  [
    "shell.unknown-runner-option",
    "ask",
    "A runner (`env`, `timeout`, `sudo`…) has an option the analyser does not know.",
  ],
  [
    "shell.interactive-shell",
    "ask",
    "A runner starts an interactive shell, whose commands are not in the script.",
  ],
  [
    "shell.unsupported-syntax",
    "ask",
    "fish, PowerShell or cmd text beyond plain words, which the analyser does not parse.",
  ],
  ["shell.too-long", "ask", "The script is too long to analyse."],
  [
    "shell.evaluated-word",
    "ask",
    "bash evaluates a word as code (an array subscript, arithmetic, `${!name}`, a name given to `test -v`, `printf -v`, `read`, `unset`, `declare -n`…) and it is not a plain literal.",
  ],
  [
    "shell.dialect-syntax",
    "ask",
    "The line uses syntax the shell that runs it reads differently: bash-only forms under sh/dash, zsh's own forms under zsh.",
  ],
  // program identity
  [
    "program.path-qualified",
    "ask",
    "The program is named by a path outside the system directories (`./cat`, `/tmp/x/ls`); a rule for its basename does not cover it.",
  ],
  [
    "program.non-ascii",
    "ask",
    "The program name has non-ASCII or invisible characters and may imitate another program.",
  ],
  [
    "program.dynamic",
    "ask",
    "The program name is computed at run time (`$TOOL args`), so what runs is unknown.",
  ],
  [
    "program.privileged",
    "ask",
    "The command runs with raised privileges through `sudo`, `doas`, `su`, `pkexec` or `run0`.",
  ],
  // rm and friends
  [
    "rm.recursive-root",
    "deny",
    "Recursive or glob removal of `/` or of everything at the root (`rm -rf /`, `rm -rf /*`).",
  ],
  [
    "rm.recursive-system",
    "deny",
    "Recursive or glob removal of a system directory or a top-level directory (`/usr`, `/etc`, `/var/lib`).",
  ],
  [
    "rm.recursive-home",
    "deny",
    "Recursive or glob removal of the home directory, its whole contents or a folder holding it (`rm -rf ~`).",
  ],
  [
    "rm.recursive-workspace-root",
    "deny",
    "Recursive removal of the workspace root or a folder above it (`rm -rf .` at the root, `rm -rf ..`).",
  ],
  [
    "rm.recursive-dynamic",
    "deny",
    'Recursive removal of a target that starts with an expansion (`rm -rf "$DIR"`): if it is empty or wrong, anything goes.',
  ],
  ["rm.no-preserve-root", "deny", "`--no-preserve-root` turns off rm's own guard against removing `/`."],
  ["rm.recursive", "ask", "Recursive removal inside the workspace (`rm -rf ./build`)."],
  [
    "rm.mount-point",
    "ask",
    "Recursive removal of a mount point or of a folder holding one: rm crosses into the mounted file system. No exact-form rule lifts it.",
  ],
  [
    "rm.mount-unknown",
    "ask",
    "Recursive removal on a host whose mount table cannot be read, so a mount point cannot be ruled out. No exact-form rule lifts it.",
  ],
  [
    "rm.outside-workspace",
    "ask",
    "Removal of something outside the workspace that is not a system, home or root path (`rm -rf /tmp/cache`).",
  ],
  ["rm.delete", "ask", "Removes or shreds files (`rm file`, `unlink file`, `shred -u key`)."],
  [
    "rm.targets-from-input",
    "ask",
    "Removal whose targets come from standard input through `xargs`, so they are not visible.",
  ],
  // git
  ["git.reset-discard", "ask", "`git reset --hard|--merge|--keep` discards uncommitted changes."],
  ["git.clean-force", "ask", "`git clean -f` deletes untracked (and with `-x` ignored) files for good."],
  [
    "git.push-force",
    "ask",
    "A forced push (`--force`, `-f`, `--force-with-lease`, `--force-if-includes`, `+ref`) rewrites a remote branch.",
  ],
  ["git.push-delete", "ask", "The push deletes remote refs (`--delete`, `-d`, `:ref`)."],
  [
    "git.push-mirror",
    "deny",
    "`git push --mirror` or `--prune` deletes every remote ref the local repository lacks, in one go.",
  ],
  [
    "git.branch-force",
    "ask",
    "Forced branch deletion or overwrite (`branch -D`, `-d --force`, `-M`, `-C`) loses unmerged commits.",
  ],
  [
    "git.discard-worktree",
    "ask",
    "Overwrites uncommitted changes in the working tree (`checkout -- .`, `checkout -f`, `restore .`, `switch --discard-changes`, `rm -f`).",
  ],
  ["git.stash-drop", "ask", "`git stash drop|clear` deletes stashed work."],
  ["git.ref-delete", "ask", "`git update-ref -d` deletes a ref directly."],
  [
    "git.reflog-expire",
    "ask",
    "`git reflog expire|delete` removes the safety net used to recover lost commits.",
  ],
  ["git.history-rewrite", "ask", "`filter-branch`/`filter-repo` rewrite the whole history."],
  ["git.gc-prune", "ask", "`git gc --prune=now` or `git prune` deletes unreachable objects at once."],
  ["git.worktree-force", "ask", "`git worktree remove --force` deletes a worktree with uncommitted changes."],
  [
    "git.config-override",
    "ask",
    "`git -c`/`--config-env` (or `clone --config`) sets configuration for this call.",
  ],
  [
    "git.config-exec",
    "ask",
    "`git -c` sets a key that runs a program (`core.pager`, `core.fsmonitor`, `core.sshCommand`, `alias.*`, `filter.*`…).",
  ],
  ["git.config-write", "ask", "`git config` writes repository or user configuration."],
  [
    "git.config-write-exec",
    "ask",
    "`git config` writes a key that later runs a program (`core.hooksPath`, `core.fsmonitor`, `alias.*`…), even for read-only git commands.",
  ],
  ["git.pager", "ask", "The output goes through a pager program (`git -p`, `--paginate`, `git grep -O`)."],
  ["git.exec-path", "ask", "`--exec-path=DIR` makes git run its subcommands from another folder."],
  ["git.external-diff", "ask", "`--ext-diff`/`--textconv` run diff helper programs from configuration."],
  [
    "git.remote-program",
    "ask",
    "`--upload-pack`, `--receive-pack`, `--exec` or an `ext::` URL runs a given program.",
  ],
  [
    "git.foreign-repository",
    "ask",
    "`-C`, `--git-dir` or `--work-tree` points outside the workspace, so that repository's configuration (fsmonitor, hooks, pager) applies.",
  ],
  [
    "git.runs-command",
    "ask",
    "The git subcommand runs a given shell command (`rebase --exec`, `bisect run`, `submodule foreach`, `difftool -x`).",
  ],
  // option-level rules of tools usually considered read-only
  [
    "tool.exec-option",
    "ask",
    "An option makes a usually read-only tool run another program (`find -exec`, `rg --pre`, `tar --to-command`, `rsync -e`, `ssh -o ProxyCommand`…).",
  ],
  ["tool.find-delete", "ask", "`find -delete` removes every file it matches."],
  [
    "tool.directory-code",
    "ask",
    "A tool that runs the code or configuration of the directory it works in (git hooks and fsmonitor, npm scripts and `.npmrc`, Makefiles, `build.rs`, `conftest.py`, JavaScript config files) works outside a trusted workspace, or loads such a file from there.",
  ],
  [
    "tool.unknown-directory",
    "ask",
    'The command runs in a directory only known when the line runs (`cd "$(…)" && cat x`, `cd -`, a `cd` in a loop), so the files it reads or loads cannot be checked.',
  ],
  [
    "tool.state-change",
    "ask",
    "An option of a read-only tool changes state: `date -s`/`--set` sets the clock, `printf -v` sets a variable.",
  ],
  [
    "tool.find-dynamic",
    "ask",
    "A `find` word is computed at run time, so an action such as `-exec` or `-delete` could be spliced in.",
  ],
  ["tool.in-place-edit", "ask", "`sed -i`/`perl -i` rewrites files in place."],
  ["tool.sed-exec", "ask", "The sed script runs shell commands (`e` command, `s///e`)."],
  [
    "tool.sed-unparsed",
    "ask",
    "The sed script comes from a file or is computed at run time, or could not be read with confidence.",
  ],
  [
    "tool.awk-exec",
    "ask",
    'The awk program runs commands (`system()`, `| getline`, `print | "cmd"`, `@load`).',
  ],
  ["tool.awk-write", "ask", 'The awk program writes files (`print > "file"`).'],
  [
    "tool.awk-unparsed",
    "ask",
    "The awk program comes from a file (`-f`), loads an extension, or is computed at run time.",
  ],
  [
    "tool.xargs",
    "ask",
    "`xargs` runs a program with arguments read from input and the program could not be identified.",
  ],
  // inline code
  [
    "inline.code",
    "ask",
    "An interpreter runs code given on the command line (`python -c`, `node -e`, `perl -e`, `pwsh -Command`…).",
  ],
  [
    "inline.encoded",
    "deny",
    "PowerShell runs a Base64-encoded command (`-EncodedCommand`), which hides what runs.",
  ],
  [
    "inline.decoded",
    "deny",
    "Decoded bytes are run as code: a decoder (`base64 -d`, `xxd -r`, `openssl enc -d`, `printf '\\x…'`) feeds a shell, an interpreter or `eval`.",
  ],
  [
    "inline.shell-dynamic",
    "ask",
    "A shell runs a `-c` script that is computed at run time, so it cannot be inspected.",
  ],
  // destroyers
  [
    "destroy.filesystem",
    "deny",
    "Creates or wipes a file system or signatures (`mkfs*`, `mke2fs`, `wipefs`, `mkswap`).",
  ],
  [
    "destroy.partition",
    "deny",
    "Edits a partition table (`fdisk`, `sfdisk`, `parted`, `gdisk`, `sgdisk`) other than listing it.",
  ],
  [
    "destroy.block-device",
    "deny",
    "Writes to a block device (`dd of=/dev/sda`, `> /dev/nvme0n1`, `tee /dev/disk2`).",
  ],
  ["destroy.fork-bomb", "deny", "A function that calls itself in a background pipeline (a fork bomb)."],
  [
    "destroy.permissions",
    "deny",
    "Changes owner or mode of `/`, the home directory or a system directory (`chmod -R 777 /`, `chown -R x ~`).",
  ],
  ["destroy.kill-all", "deny", "Kills every process (`kill -9 -1`, `killall5`, `pkill .`)."],
  ["destroy.power", "deny", "Shuts down, reboots or halts the machine."],
  [
    "destroy.infrastructure",
    "deny",
    "Deletes infrastructure or cluster resources (`terraform destroy`, `kubectl delete`).",
  ],
  ["destroy.crontab", "deny", "`crontab -r` deletes the whole crontab without confirmation."],
  [
    "destroy.bulk-remote",
    "ask",
    "Bulk deletion of remote or container resources (`aws s3 rm --recursive`, `docker system prune -a`).",
  ],
  // network and supply chain
  [
    "net.client",
    "ask",
    "A network client (`curl`, `wget`, `ssh`, `nc`, remote `rsync`…) reaches other machines.",
  ],
  [
    "supply.install",
    "ask",
    "Installs packages, which runs their install scripts (`npm install`, `pip install`, `cargo install`…).",
  ],
  [
    "supply.exec",
    "ask",
    "Downloads and runs a package or remote program (`npx`, `pnpm dlx`, `uvx`, `pipx run`, `go run pkg@v`).",
  ],
  ["supply.publish", "ask", "Publishes a package or image (`npm publish`, `cargo publish`, `twine upload`)."],
  [
    "net.dev-tcp",
    "deny",
    "A redirection opens a network connection through bash's `/dev/tcp` or `/dev/udp` (`exec 3<>/dev/tcp/host/80`, `> /dev/udp/…`).",
  ],
  // containers
  [
    "container.privileged",
    "deny",
    "Runs a container with host privileges (`--privileged`, `--pid=host`, `--userns=host`, `--cap-add=ALL`, `seccomp=unconfined`).",
  ],
  [
    "container.host-mount",
    "deny",
    "Runs a container that mounts `/`, the home directory, a system folder, a secret place or the container engine's socket (`-v /:/host`, `-v ~:/h`).",
  ],
  // writes
  [
    "write.sensitive-path",
    "deny",
    "Writes to or removes a sensitive path: shell start-up files, `~/.ssh`, credentials, `.git/hooks`, `.git/config`, `/etc`, crontabs.",
  ],
  ["write.dynamic-target", "ask", "Writes to a file whose name is computed at run time (`> $OUT`)."],
  [
    "write.file",
    "ask",
    "A redirection or output option writes a file (`> out.txt`, `tee log`, `sort -o f`, `git diff --output=f`).",
  ],
  // secrets
  [
    "secret.read",
    "ask",
    "Reads a file that usually holds secrets (`~/.ssh/id_*`, `.env`, `~/.aws/credentials`, `*.pem`…).",
  ],
  [
    "secret.unknown-path",
    "ask",
    "A program reads a file whose path is only known when the shell runs (`cat $f`, `$(<f)`) or a tree nothing could look at whole, so it cannot be shown to hold no secrets.",
  ],
  [
    "secret.opaque-path",
    "ask",
    "Reads another process's files, descriptors, memory or environment through `/proc/*/root`, `/proc/*/fd`, `/proc/*/cmdline` or `/dev/fd/*`.",
  ],
  [
    "secret.recursive-read",
    "ask",
    "Reads a whole tree that holds secret places, wherever it is (`grep -r x ~`, `tar c /etc`, `grep -r x .` beside a `.env`).",
  ],
  [
    "secret.linked-path",
    "ask",
    "The line creates a link (`ln -s`) and then reads files: the read may go through the link to a secret place.",
  ],
  [
    "secret.environment",
    "ask",
    "Prints the environment or lists variables (`printenv`, `env`, `set`, `export -p`, `declare -p`, `jq -n env`, `ENVIRON`, `ps e`, `${!prefix*}`).",
  ],
  [
    "secret.env-variable",
    "ask",
    "Expands a variable whose name looks like a secret (`$GITHUB_TOKEN`, `$AWS_SECRET_ACCESS_KEY`, `$DB_PASSWORD`).",
  ],
  [
    "secret.git-config",
    "ask",
    "git prints configuration values, remote URLs or stored credentials (`git config --list`, `git remote -v`, `git var -l`), which can hold tokens (`http.extraHeader`, a token in a remote URL).",
  ],
  [
    "secret.git-object",
    "ask",
    "git prints a stored object the line names by id or not at all (`git cat-file -p 1a2b…`, `git show 1a2b…`, `git cat-file --batch`), which may be a secret file's content that was once tracked, staged or stashed.",
  ],
  [
    "secret.exfiltration",
    "deny",
    "The line reads a secret (a secret file, a tree holding secrets, the environment) and sends data over the network (`cat ~/.ssh/id_rsa | nc`, `curl -d @.env`, `dig $(…).x.com`).",
  ],
  // self-protection
  [
    "self.protected-write",
    "deny",
    "Writes to Slashi's own configuration, policy or approvals, or to an agent's or editor's settings.",
  ],
] as const satisfies readonly (readonly [string, Finding["severity"], string])[];

/** A finding code raised by the safety classifiers. */
export type SafetyCode = (typeof table)[number][0];

/** Every code the safety classifiers can raise, with its severity and a one-line description. */
export const SAFETY_CODES: readonly SafetyCodeInfo[] = Object.freeze(
  table.map(([code, severity, description]) => Object.freeze({ code, severity, description })),
);

const severityByCode = new Map<string, Finding["severity"]>(
  table.map(([code, severity]) => [code, severity]),
);

/**
 * Ask findings that no exact-form allow rule lifts: a rule names the words of a command, and these are about
 * facts of the host the words do not show (what is mounted where).
 */
export const NEVER_LIFTED: ReadonlySet<string> = new Set<SafetyCode>(["rm.mount-point", "rm.mount-unknown"]);

/** The fixed severity of a safety code. */
export function severityOf(code: SafetyCode): Finding["severity"] {
  return severityByCode.get(code) ?? "ask";
}

/** Builds a finding with the code's fixed severity, about `command`. */
export function finding(
  code: SafetyCode,
  message: string,
  command: { readonly text: string },
  subject?: string,
): Finding {
  const result: Finding = { code, severity: severityOf(code), message, command: command.text };
  if (subject !== undefined) result.subject = subject;
  return result;
}

/** Builds a finding about the whole line (no single command), with the code's fixed severity. */
export function lineFinding(code: SafetyCode, message: string, subject?: string): Finding {
  const result: Finding = { code, severity: severityOf(code), message };
  if (subject !== undefined) result.subject = subject;
  return result;
}
