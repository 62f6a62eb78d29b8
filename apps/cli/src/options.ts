/**
 * The command line as data: every command, its flags, what it takes after them, and its help text. The
 * parser is small and strict: an unknown flag or command is an error with a suggestion, never ignored.
 */
import { closestName } from "@slashi/core/internal";
import { PACK_COMMANDS } from "./commands/pack-spec.js";
import type { CommandSpec, FlagSpec, ParsedArgs } from "./command-spec.js";
import { UsageError } from "./errors.js";

export type { CommandSpec, FlagSpec, Operands, ParsedArgs } from "./command-spec.js";

/** Flags every command accepts. */
export const GLOBAL_FLAGS: readonly FlagSpec[] = [
  { name: "help", short: "h", type: "boolean", description: "show help for this command" },
  { name: "no-color", type: "boolean", description: "plain output (also when NO_COLOR is set)" },
];

const JSON_FLAG: FlagSpec = { name: "json", type: "boolean", description: "print JSON instead of text" };
const POLICY_FLAG: FlagSpec = {
  name: "policy",
  type: "string",
  value: "FILE",
  description: "use FILE as the user policy instead of <config dir>/policy.json",
};
const SHELL_FLAG: FlagSpec = {
  name: "shell",
  type: "string",
  value: "SHELL",
  description: "analyse for this shell (name or path; default bash)",
};
const CWD_FLAG: FlagSpec = {
  name: "cwd",
  type: "string",
  value: "DIR",
  description: "decide as if run in DIR (default: the current directory)",
};
const WORKSPACE_FLAG: FlagSpec = {
  name: "workspace-root",
  type: "string",
  value: "DIR",
  description: "treat DIR as the workspace root instead of finding the git root above the cwd",
};
/** The agents whose hooks `hook install` writes (the same as `AGENTS` of hooks/formats.ts, which loads the core). */
const AGENT_NAMES: readonly string[] = ["claude", "gemini", "cursor"];
const SCOPE_FLAGS: readonly FlagSpec[] = [
  { name: "project", type: "boolean", description: "the project's settings file (default)" },
  { name: "user", type: "boolean", description: "your user settings file" },
];

/** Every command, in help order. */
export const COMMANDS: readonly CommandSpec[] = [
  {
    path: ["check"],
    summary: "decide whether a command may run: allow, ask or deny",
    usage: ["check [--policy F] [--shell S] [--cwd D] [--json] -- COMMAND", "check --jsonl < commands.jsonl"],
    flags: [
      POLICY_FLAG,
      SHELL_FLAG,
      CWD_FLAG,
      WORKSPACE_FLAG,
      JSON_FLAG,
      {
        name: "jsonl",
        type: "boolean",
        description: "read JSON lines on stdin, answer one line per input in order",
      },
      {
        name: "layers",
        type: "string",
        value: "FILE",
        description: "decide with exactly the policy layers listed in FILE (what-if; see docs/cli.md)",
      },
    ],
    operands: "command",
    examples: [
      "slashi check -- git status",
      "slashi check --json -- 'curl https://example.com | sh'",
      `printf '%s\\n' '{"command":"ls -la"}' '{"cmd":"rm -rf /"}' | slashi check --jsonl`,
    ],
    details:
      "Exit status: 0 allow, 10 ask, 20 deny (with --jsonl: 0 when every line was answered, 3 when a line was malformed).",
  },
  {
    path: ["explain"],
    summary: "show why: every command found, every rule and finding that spoke",
    usage: ["explain [--policy F] [--shell S] [--cwd D] [--json] -- COMMAND"],
    flags: [POLICY_FLAG, SHELL_FLAG, CWD_FLAG, WORKSPACE_FLAG, JSON_FLAG],
    operands: "command",
    examples: [
      "slashi explain -- 'git status && sudo rm -rf build'",
      "slashi explain --json -- 'find . -delete'",
    ],
    details: "Exit status as for check: 0 allow, 10 ask, 20 deny.",
  },
  {
    path: ["exec"],
    summary: "decide, ask on the terminal when needed, then run the command",
    usage: ["exec [--cordon | --no-cordon] [--shell S] [--cwd D] [--policy F] -- COMMAND"],
    flags: [
      {
        name: "cordon",
        type: "boolean",
        description: "run inside the sandbox; refuse when it cannot be enforced",
      },
      { name: "no-cordon", type: "boolean", description: "run without the sandbox" },
      POLICY_FLAG,
      SHELL_FLAG,
      CWD_FLAG,
      { name: "timeout", type: "string", value: "SECONDS", description: "kill the command after SECONDS" },
    ],
    operands: "command",
    examples: [
      "slashi exec -- npm test",
      "slashi exec --cordon -- make build",
      "slashi exec -- 'ls | wc -l'",
    ],
    details:
      "Exit status: the command's own status when it ran; 120 denied by policy, 121 needs approval but there is no terminal, 122 cancelled, 123 cordon unavailable, 126 cannot start, 127 not found.",
  },
  {
    path: ["run"],
    summary: "run a slash command: yours, the trusted workspace's team file's, or an installed pack's",
    usage: ["run [--source user|team|pack] [--pack NAME] /NAME [ARGS...]"],
    flags: [
      POLICY_FLAG,
      CWD_FLAG,
      { name: "dry-run", type: "boolean", description: "show the steps, run nothing" },
      {
        name: "source",
        type: "string",
        value: "S",
        choices: ["user", "team", "pack"],
        description: "look for the name only in this source (default: user, then team, then packs)",
      },
      { name: "pack", type: "string", value: "NAME", description: "look for the name only in this pack" },
    ],
    operands: "words",
    examples: [
      "slashi run /test",
      "slashi run /deploy staging",
      "slashi run --dry-run /release",
      "slashi run --pack @acme/slashi-pack /deploy",
    ],
    details: "Exit status: as for exec; a command of several steps stops at the first failing step.",
  },
  {
    path: ["list"],
    summary: "list the slash commands available here",
    usage: ["list [--json]"],
    flags: [CWD_FLAG, JSON_FLAG],
    operands: "none",
    examples: ["slashi list", "slashi list --json"],
  },
  {
    path: ["trust"],
    summary: "trust this workspace: load its team file and approve its policy file",
    usage: ["trust [--cwd D] [--verbose] [--json]"],
    flags: [
      CWD_FLAG,
      {
        name: "verbose",
        short: "v",
        type: "boolean",
        description:
          "list each rule of the presets and packs the policy file extends, not one line per source",
      },
      JSON_FLAG,
    ],
    operands: "none",
    examples: ["slashi trust", "slashi trust --verbose", "slashi trust --json"],
    details:
      "Prints the allow rules and settings that count once trusted (the policy file's own rules one by one, one line per preset or pack it extends; --verbose lists those rules too; trustedWorkspaceOnly rules), those that still wait for an approval, and the commands the team file and packs add.",
  },
  {
    path: ["untrust"],
    summary: "stop trusting this workspace",
    usage: ["untrust [--cwd D]"],
    flags: [CWD_FLAG],
    operands: "none",
    examples: ["slashi untrust"],
  },
  {
    path: ["trust", "status"],
    summary: "show whether this workspace is trusted",
    usage: ["trust status [--json]"],
    flags: [CWD_FLAG, JSON_FLAG],
    operands: "none",
    examples: ["slashi trust status", "slashi trust status --json"],
    details: "Exit status: 0 trusted, 10 not trusted.",
  },
  {
    path: ["approvals", "add"],
    summary: "always allow one command in one directory, confirmed on this terminal",
    usage: ["approvals add [--cwd D] [--shell S] -- COMMAND"],
    flags: [CWD_FLAG, SHELL_FLAG],
    operands: "command",
    examples: ["slashi approvals add --cwd ~/src/app -- 'make test'"],
    details:
      "Exit status: 0 approved (or already allowed), 3 cannot be remembered, 120 denied by policy, 121 no terminal, 122 cancelled.",
  },
  {
    path: ["approvals", "list"],
    summary: "list remembered approvals (slash commands and shell commands)",
    usage: ["approvals list [--json]"],
    flags: [JSON_FLAG],
    operands: "none",
    examples: ["slashi approvals list", "slashi approvals list --json"],
  },
  {
    path: ["approvals", "revoke"],
    summary: "forget one approval by its key",
    usage: ["approvals revoke KEY"],
    flags: [],
    operands: "words",
    examples: ["slashi approvals revoke cmd:3f1c…"],
  },
  {
    path: ["approvals", "reset"],
    summary: "forget every approval (or only this workspace's)",
    usage: ["approvals reset [--workspace]"],
    flags: [
      {
        name: "workspace",
        type: "boolean",
        description: "only approvals recorded for the current workspace",
      },
      CWD_FLAG,
    ],
    operands: "none",
    examples: ["slashi approvals reset", "slashi approvals reset --workspace"],
  },
  {
    path: ["policy", "init"],
    summary: "write a starter user policy that extends the recommended preset",
    usage: ["policy init [--force]"],
    flags: [{ name: "force", type: "boolean", description: "replace an existing file (a backup is kept)" }],
    operands: "none",
    examples: ["slashi policy init"],
  },
  {
    path: ["policy", "validate"],
    summary: "check policy files: syntax, schema, rules and their examples",
    usage: ["policy validate [FILE...]"],
    flags: [JSON_FLAG, CWD_FLAG],
    operands: "words",
    examples: ["slashi policy validate", "slashi policy validate ./team-policy.json"],
    details:
      "Without files: every policy file that applies here (managed, user, workspace). Exit 3 on the first invalid file.",
  },
  {
    path: ["policy", "show"],
    summary: "show the resolved layers, their rules and settings",
    usage: ["policy show [--json]"],
    flags: [JSON_FLAG, POLICY_FLAG, CWD_FLAG],
    operands: "none",
    examples: ["slashi policy show", "slashi policy show --json"],
  },
  {
    path: ["policy", "test"],
    summary: "run every rule's examples against the resolved policy",
    usage: ["policy test [--json]"],
    flags: [JSON_FLAG, POLICY_FLAG, CWD_FLAG],
    operands: "none",
    examples: ["slashi policy test"],
    details: "Exit status: 0 when every example holds, 3 otherwise.",
  },
  {
    path: ["policy", "import"],
    summary: "write an Enkaidu config as a native policy file and say what changes in meaning",
    usage: ["policy import enkaidu FILE [--output F|-] [--force]"],
    flags: [
      {
        name: "output",
        short: "o",
        type: "string",
        value: "F",
        description: "where to write (default: your user policy file; - for standard output)",
      },
      { name: "force", type: "boolean", description: "replace an existing file (a backup is kept)" },
    ],
    operands: "words",
    examples: [
      "slashi policy import enkaidu ~/.enkaidu/config.yml",
      "slashi policy import enkaidu enkaidu.yml -o -",
    ],
    details:
      "Reads tool_settings.shell_command (and the ENKAIDU_* fallbacks) and prints every way the native file's meaning differs.",
  },
  {
    path: ["quote"],
    summary: "quote a value for a shell",
    usage: ["quote --shell S -- VALUE"],
    flags: [{ ...SHELL_FLAG, description: "target shell name or path (bash, fish, pwsh, cmd.exe…)" }],
    operands: "command",
    examples: ['slashi quote --shell bash -- "it\'s here"', "slashi quote --shell pwsh -- 'O’Brien'"],
  },
  {
    path: ["audit", "tail"],
    summary: "show the last audit records",
    usage: ["audit tail [-n N] [--json]"],
    flags: [
      { name: "lines", short: "n", type: "string", value: "N", description: "how many records (default 20)" },
      JSON_FLAG,
    ],
    operands: "none",
    examples: ["slashi audit tail", "slashi audit tail -n 100 --json"],
  },
  {
    path: ["audit", "show"],
    summary: "show audit records, filtered",
    usage: ["audit show [--event E] [--decision D] [--since ISO] [--json]"],
    flags: [
      {
        name: "event",
        type: "string",
        value: "EVENT",
        description: "decision, run, approve, revoke, reset, trust…",
      },
      {
        name: "decision",
        type: "string",
        value: "VERDICT",
        choices: ["allow", "ask", "deny"],
        description: "only this verdict",
      },
      {
        name: "since",
        type: "string",
        value: "TIME",
        description: "only records at or after this ISO 8601 time",
      },
      JSON_FLAG,
    ],
    operands: "none",
    examples: ["slashi audit show --decision deny", "slashi audit show --since 2026-11-01 --json"],
  },
  {
    path: ["hook", "claude"],
    summary: "Claude Code PreToolUse hook: read the tool call on stdin, answer allow/ask/deny",
    usage: ["hook claude < payload.json"],
    flags: [],
    operands: "none",
    examples: ["slashi hook claude < payload.json"],
    details:
      "Install it with `slashi hook install claude`. Malformed input exits 2 (Claude Code blocks the call).",
  },
  {
    path: ["hook", "gemini"],
    summary: "Gemini CLI BeforeTool hook for run_shell_command",
    usage: ["hook gemini < payload.json"],
    flags: [],
    operands: "none",
    examples: ["slashi hook gemini < payload.json"],
    details:
      "Install it with `slashi hook install gemini`. Malformed input exits 2 (Gemini CLI blocks the call).",
  },
  {
    path: ["hook", "cursor"],
    summary: "Cursor beforeShellExecution hook",
    usage: ["hook cursor < payload.json"],
    flags: [],
    operands: "none",
    examples: ["slashi hook cursor < payload.json"],
    details: "Install it with `slashi hook install cursor`. Malformed input answers deny and exits 2.",
  },
  {
    path: ["hook", "install"],
    summary: "add the slashi hook to an agent's settings (idempotent, with a backup)",
    usage: ["hook install claude|gemini|cursor [--project | --user]"],
    operandChoices: AGENT_NAMES,
    flags: [
      ...SCOPE_FLAGS,
      CWD_FLAG,
      {
        name: "command",
        type: "string",
        value: "CMD",
        description:
          "the program the hook runs (default: this Node binary and this slashi, by absolute path)",
      },
    ],
    operands: "words",
    examples: [
      "slashi hook install claude",
      "slashi hook install gemini --user",
      "slashi hook install cursor --project",
    ],
    details:
      "The written command blocks the agent's call whenever slashi cannot answer (missing, crashed, not JSON). After writing, the command is run once with a call every policy denies; without the right answer the previous file is put back and the exit status is 1.",
  },
  {
    path: ["doctor"],
    summary: "check that Slashi guards what you think it guards, with a fix for each problem",
    usage: ["doctor [--json]"],
    flags: [CWD_FLAG, JSON_FLAG],
    operands: "none",
    examples: ["slashi doctor", "slashi doctor --json"],
    details:
      "Checks slashi and slashi-mcp on PATH, the hooks of Claude Code, Gemini CLI and Cursor (project and user; each one run with a call every policy denies), MCP configurations that name slashi-mcp, the cordon, the policy layers and what they extend, installed packs against their lockfile, and the stores. Exit 0 when nothing is wrong, 1 otherwise.",
  },
  {
    path: ["service", "status"],
    summary: "show the decision service that answers hooks and check for you",
    usage: ["service status [--json]"],
    flags: [JSON_FLAG],
    operands: "none",
    examples: ["slashi service status", "slashi service status --json"],
    details:
      "Lists the services in <state dir>/service: whose build they are, their process, who they answer as, and why this slashi would not ask one. Exit 0 when this build's service runs and answers, 1 otherwise.",
  },
  {
    path: ["service", "stop"],
    summary: "stop your decision services (the next hook or check call starts a fresh one)",
    usage: ["service stop"],
    flags: [],
    operands: "none",
    examples: ["slashi service stop"],
    details: "Sends every running decision service of this user SIGTERM and waits up to 5 s for each to end.",
  },
  {
    path: ["hook", "uninstall"],
    summary: "remove the slashi hook from an agent's settings (with a backup)",
    usage: ["hook uninstall claude|gemini|cursor [--project | --user]"],
    operandChoices: AGENT_NAMES,
    flags: [...SCOPE_FLAGS, CWD_FLAG],
    operands: "words",
    examples: ["slashi hook uninstall claude", "slashi hook uninstall gemini --user"],
  },
  {
    path: ["hook", "status"],
    summary: "show where the slashi hook is installed and whether it answers",
    usage: ["hook status [--json]"],
    flags: [CWD_FLAG, JSON_FLAG],
    operands: "none",
    examples: ["slashi hook status", "slashi hook status --json"],
    details:
      "Reads the project and user settings of Claude Code, Gemini CLI and Cursor and runs each slashi hook found with a call every policy denies. Exit 0 when at least one is installed and every one answers deny; 1 otherwise.",
  },
  {
    path: ["completion"],
    summary: "print a shell completion script for bash, zsh or fish",
    usage: ["completion bash|zsh|fish"],
    flags: [],
    operands: "words",
    operandChoices: ["bash", "zsh", "fish"],
    examples: [
      "slashi completion fish > ~/.config/fish/completions/slashi.fish",
      "source <(slashi completion bash)        # in ~/.bashrc",
      "source <(slashi completion zsh)         # in ~/.zshrc, after compinit",
    ],
    details:
      "Completes commands, subcommands, options, the values of options with a fixed set, and agent and shell names. The script is made from the same command table as --help, so it is always complete for the slashi that printed it: print it again after an update.",
  },
  ...PACK_COMMANDS,
];

/** Finds the command named by the leading words of argv; returns it and the rest. */
export function findCommand(argv: readonly string[]): { spec: CommandSpec; rest: string[] } | undefined {
  let found: { spec: CommandSpec; rest: string[] } | undefined;
  for (const spec of COMMANDS) {
    const n = spec.path.length;
    if (argv.length >= n && spec.path.every((w, i) => argv[i] === w)) {
      if (!found || n > found.spec.path.length) found = { spec, rest: argv.slice(n) };
    }
  }
  return found;
}

/** Every first word of a command (`check`, `policy`, `hook`…). */
export function topLevelNames(): string[] {
  return [...new Set(COMMANDS.map((c) => c.path[0] as string))];
}

/**
 * Parses the words after the command name. Flags may come before the operands; `--` ends the flags. For
 * `command` operands the first word that is not a flag also ends the flags, so `slashi check ls -la` works.
 * @throws UsageError for an unknown flag (with the closest known one), a missing value, a value not in
 * `choices`, or a boolean flag given a value
 */
export function parseArgs(spec: CommandSpec, words: readonly string[]): ParsedArgs {
  const all = [...spec.flags, ...GLOBAL_FLAGS];
  const byName = new Map(all.map((f) => [f.name, f]));
  const byShort = new Map(all.filter((f) => f.short).map((f) => [f.short as string, f]));
  const flags: Record<string, string | boolean> = {};
  const operands: string[] = [];
  let dashDash = false;
  const name = spec.path.join(" ");
  const helpHint = `see: slashi ${name} --help`;

  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (word === "--") {
      dashDash = true;
      operands.push(...words.slice(i + 1));
      break;
    }
    const isLong = word.startsWith("--") && word.length > 2;
    const isShort = !isLong && word.startsWith("-") && word.length === 2 && word !== "-";
    if (!isLong && !isShort) {
      operands.push(word);
      if (spec.operands === "command") {
        operands.push(...words.slice(i + 1));
        break;
      }
      continue;
    }
    let flagName: string;
    let inline: string | undefined;
    let flag: FlagSpec | undefined;
    if (isLong) {
      const eq = word.indexOf("=");
      flagName = eq === -1 ? word.slice(2) : word.slice(2, eq);
      inline = eq === -1 ? undefined : word.slice(eq + 1);
      flag = byName.get(flagName);
    } else {
      flagName = word.slice(1);
      flag = byShort.get(flagName);
    }
    if (!flag) {
      const suggestion = closestName(
        flagName,
        all.map((f) => f.name),
      );
      throw new UsageError(
        `unknown option ${word} for "slashi ${name}"`,
        suggestion ? `did you mean --${suggestion}? (${helpHint})` : helpHint,
      );
    }
    if (flag.type === "boolean") {
      if (inline !== undefined) throw new UsageError(`option --${flag.name} takes no value`, helpHint);
      flags[flag.name] = true;
      continue;
    }
    let value = inline;
    if (value === undefined) {
      if (i + 1 >= words.length)
        throw new UsageError(`option --${flag.name} needs a value (${flag.value ?? "VALUE"})`, helpHint);
      value = words[++i] as string;
    }
    if (flag.choices && !flag.choices.includes(value)) {
      throw new UsageError(
        `option --${flag.name} must be one of ${flag.choices.join(", ")}, not "${value}"`,
        helpHint,
      );
    }
    if (flags[flag.name] !== undefined)
      throw new UsageError(`option --${flag.name} is given twice`, helpHint);
    flags[flag.name] = value;
  }
  if (spec.operands === "none" && operands.length > 0 && flags.help !== true) {
    throw new UsageError(`"slashi ${name}" takes no arguments, but got "${operands[0]}"`, helpHint);
  }
  return { spec, flags, operands, dashDash };
}

/** The `--help` text of one command. */
export function commandHelp(spec: CommandSpec): string {
  const lines: string[] = [`slashi ${spec.path.join(" ")}: ${spec.summary}`, "", "Usage:"];
  for (const u of spec.usage) lines.push(`  slashi ${u}`);
  const flags = [...spec.flags, ...GLOBAL_FLAGS];
  lines.push("", "Options:");
  const shown = flags.map((f) => {
    const left = `${f.short ? `-${f.short}, ` : "    "}--${f.name}${f.type === "string" ? ` ${f.value ?? "VALUE"}` : ""}`;
    return [left, f.description] as const;
  });
  const width = Math.max(...shown.map(([l]) => l.length));
  for (const [left, text] of shown) lines.push(`  ${left.padEnd(width)}  ${text}`);
  if (spec.details) lines.push("", spec.details);
  lines.push("", "Examples:");
  for (const e of spec.examples) lines.push(`  ${e}`);
  return lines.join("\n");
}

/** The `slashi --help` text. */
export function mainHelp(version: string): string {
  const lines = [
    `slashi ${version}: one trust policy for every command that runs on your machine`,
    "",
    "Usage: slashi <command> [options] [-- COMMAND]",
    "",
    "Commands:",
  ];
  const width = Math.max(...COMMANDS.map((c) => c.path.join(" ").length));
  for (const c of COMMANDS) lines.push(`  ${c.path.join(" ").padEnd(width)}  ${c.summary}`);
  lines.push(
    "",
    "Examples:",
    "  slashi check -- git status",
    "  slashi explain -- 'curl -fsSL https://x.sh | sh'",
    "  slashi exec -- npm test",
    "  slashi hook install claude",
    "",
    "Run `slashi <command> --help` for a command's options. Docs: docs/cli.md, docs/hooks.md.",
  );
  return lines.join("\n");
}
