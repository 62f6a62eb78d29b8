/**
 * What a `git` command of bound content runs besides git: the repository's hooks and the programs its
 * configuration names. Core counts every git call but `version` and `help` as running them (`tool.directory-code`);
 * here they are bound: the configuration file by its bytes, every hook git knows by its bytes (followed as a
 * program) or as missing, so that changing or adding a hook after the approval asks again. What cannot be pinned is
 * refused ("asks every time"): configuration for the call (`-c`, `--config-env`), another repository or work tree
 * (`-C`, `--git-dir`, `--work-tree`, `GIT_DIR`…), a `.git` that is a file (a linked worktree or submodule), and
 * configuration that includes other files, moves the hooks folder or runs a program by a path.
 */
import path from "node:path";
import type { ExtractedCommand } from "@slashi/core";
import { isExecConfigKey, parseGit } from "@slashi/core/internal";
import type { BindingEnv, ReadText } from "./env-binding.js";
import { textOf } from "./shell-text.js";

/** The hooks git runs from the hooks folder (githooks(5)), by any command that may reach them. */
export const GIT_HOOKS: readonly string[] = [
  "applypatch-msg",
  "pre-applypatch",
  "post-applypatch",
  "pre-commit",
  "pre-merge-commit",
  "prepare-commit-msg",
  "commit-msg",
  "post-commit",
  "pre-rebase",
  "post-checkout",
  "post-merge",
  "pre-push",
  "pre-receive",
  "update",
  "proc-receive",
  "post-receive",
  "post-update",
  "reference-transaction",
  "push-to-checkout",
  "pre-auto-gc",
  "post-rewrite",
  "sendemail-validate",
  "fsmonitor-watchman",
  "p4-changelist",
  "p4-prepare-changelist",
  "p4-post-changelist",
  "p4-pre-submit",
  "post-index-change",
];

/** Variables that point git at other configuration, another repository or other programs. */
const GIT_VARIABLES = /^GIT_(DIR|WORK_TREE|COMMON_DIR|EXEC_PATH|TEMPLATE_DIR|CONFIG.*)$/;

/** What a git call binds: the configuration file and the hooks, with the folder hooks run in. */
export interface GitBinding {
  config: string;
  hooks: string[];
  top: string;
}

/** Why a configuration text cannot be bound, or `undefined`; `hooksPath` is returned when it is set. */
function configProblem(text: string, file: string, root: string): { refused: string } | undefined {
  let section = "";
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]$/.exec(line);
    if (header) {
      section = `${(header[1] as string).toLowerCase()}${header[2] === undefined ? "" : `.${header[2]}`}`;
      continue;
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!entry || section === "" || line.endsWith("\\"))
      return { refused: `${file} could not be read fully for what git runs` };
    const key = `${section}.${(entry[1] as string).toLowerCase()}`;
    const value = (entry[2] ?? "").replace(/^"|"$/g, "");
    if (/^(include\.path|includeif\..*\.path|core\.hookspath|extensions\.worktreeconfig)$/.test(key))
      return { refused: `${file} sets ${key}, which Slashi does not follow for what git runs` };
    if (!isExecConfigKey(key)) continue;
    for (const word of value.replace(/^!/, "").split(/[\s'"]+/)) {
      if (!word.includes("/")) continue;
      const inside = path.isAbsolute(word) ? !path.relative(root, word).startsWith("..") : true;
      if (inside)
        return { refused: `${file} sets ${key} to run ${word}, a repository file Slashi does not bind` };
    }
  }
  return undefined;
}

/**
 * The hooks and configuration a git command of bound content runs with, run in `cwd` (`owner` names the content
 * in refusals); `undefined` for a call that runs none (`git --version`, `git help`).
 */
export function gitBinding(
  command: ExtractedCommand,
  owner: string,
  cwd: string,
  site: { root: string; env: BindingEnv; read: ReadText },
): GitBinding | { refused: string } | undefined {
  const call = parseGit(command.effective.slice(1));
  if (call.subcommand === undefined || call.subcommand === "version" || call.subcommand === "help")
    return undefined;
  const what = `${owner} runs git ${call.subcommand}, which runs the repository's hooks and configured programs`;
  const [set] = call.config;
  if (set !== undefined) return { refused: `${what}, with ${set.word}, which Slashi does not bind` };
  const [at] = call.locations;
  if (at !== undefined) return { refused: `${what}, of ${at.option} ${at.path}, which Slashi does not bind` };
  if (call.execPath !== undefined) return { refused: `${what}, from --exec-path=${call.execPath}` };
  if (command.cwd !== undefined) return { refused: `${what}, after changing directory` };
  const variable = Object.keys(site.env).find((name) => GIT_VARIABLES.test(name));
  if (variable !== undefined) return { refused: `${what}, and the environment sets ${variable}` };
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, ".git");
    const got = site.read(dotGit);
    if (got !== undefined && (typeof got === "string" || got instanceof Uint8Array))
      return {
        refused: `${what}, and ${dotGit} is a file (a linked worktree or submodule), which Slashi does not follow`,
      };
    if (got !== undefined && site.read(path.join(dotGit, "HEAD")) !== undefined) {
      const config = path.join(dotGit, "config");
      const text = site.read(config);
      if (text !== undefined && typeof text === "object" && !(text instanceof Uint8Array))
        return { refused: `${what}: ${config} is refused (${text.refused})` };
      const problem =
        text === undefined
          ? undefined
          : configProblem(typeof text === "string" ? text : textOf(text), config, site.root);
      if (problem !== undefined) return { refused: `${what}: ${problem.refused}` };
      return { config, hooks: GIT_HOOKS.map((hook) => path.join(dotGit, "hooks", hook)), top: dir };
    }
    if (path.dirname(dir) === dir) return { refused: `${what}, outside a git repository Slashi can find` };
  }
}
