/**
 * The built-in `recommended` preset: read-only everyday tools run without asking. It only allows; everything
 * dangerous about an allowed tool's arguments (`find -delete`, `sed -i`, `sort -o`, `date -s`, `printf -v`,
 * `git -c …`, output redirections) comes from the safety classifiers, which read options the way each tool
 * parses them and still apply to every allowed command.
 */
import { CHECKSUM_PROGRAMS } from "../safety/reads.js";
import type { PolicyDocument, PolicyRule } from "./types.js";

/** The name of the recommended preset, as written in `extends`. */
export const RECOMMENDED_PRESET_NAME = "recommended";

/**
 * Programs allowed with any arguments: they read, print or compute. None runs its arguments as a program on any
 * platform (runners such as `env`, `nice`, `time`, `command`, `watch`, `script` and macOS `arch` are not here);
 * options that run, write or change state (`find -exec`, `sort -o`, `date -s`, `printf -v`) are the safety
 * classifiers' findings.
 */
const READ_ONLY_PROGRAMS = [
  "ls",
  "cat",
  "head",
  "tail",
  "wc",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "find",
  "sort",
  "cut",
  "tr",
  "jq",
  "diff",
  "cmp",
  "stat",
  "file",
  "pwd",
  "echo",
  "printf",
  "which",
  "type",
  "whoami",
  "id",
  "groups",
  "date",
  "uname",
  "nproc",
  "printenv",
  "true",
  "false",
  ":",
  "test",
  "[",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "du",
  "df",
  "tree",
  "column",
  "nl",
  "paste",
  "rev",
  "seq",
  "tac",
  "comm",
  "join",
  "fold",
  "fmt",
  "expand",
  "unexpand",
  ...CHECKSUM_PROGRAMS,
  "od",
  "hexdump",
  "expr",
  "sleep",
  "cd",
  "pushd",
  "popd",
  "dirs",
  "reset",
];

const GIT_READ_SUBCOMMANDS = [
  "status",
  "log",
  "diff",
  "show",
  "rev-parse",
  "ls-files",
  "ls-tree",
  "blame",
  "grep",
  "describe",
  "shortlog",
  "cat-file",
  "rev-list",
  "merge-base",
  "show-ref",
  "for-each-ref",
];

const GIT_BRANCH_LIST_FLAGS = ["-a", "-r", "-v", "-vv", "--all", "--remotes", "--verbose", "--show-current"];
const UNIQ_FLAGS = ["-c", "-d", "-u", "-i", "--count", "--repeated", "--unique", "--ignore-case"];
const HOSTNAME_FLAGS = [
  "-f",
  "-s",
  "-d",
  "-i",
  "-I",
  "-A",
  "--fqdn",
  "--short",
  "--domain",
  "--ip-address",
  "--all-ip-addresses",
  "--all-fqdns",
];

const GIT_REASON =
  "read-only git subcommand (git still runs programs named in the repository's config, such as core.fsmonitor: allowed only in a trusted workspace)";
const SCRIPTS_REASON =
  "runs scripts defined by the workspace's package.json: allowed only in a trusted workspace";

const allow = (match: PolicyRule["match"], reason: string, extra: Partial<PolicyRule> = {}): PolicyRule => ({
  match,
  decision: "allow",
  reason,
  ...extra,
});

const trusted = { trustedWorkspaceOnly: true } as const;

function gitRules(): PolicyRule[] {
  const rules: PolicyRule[] = [];
  // `git <sub>`, `git --no-pager <sub>`, `git -C <dir> <sub>`: every other global option (-c, -p, --exec-path…)
  // leaves the command unmatched, so it asks.
  const prefixes: PolicyRule["match"][] = [["git"], ["git", "--no-pager"], ["git", "-C", "*"]];
  for (const prefix of prefixes) {
    rules.push(
      allow([...prefix, GIT_READ_SUBCOMMANDS], GIT_REASON, {
        ...trusted,
        ...(prefix.length === 1
          ? {
              examples: {
                match: ["git status --short", "git log --oneline -5"],
                notMatch: ["git -c core.pager=x log", "git statusx"],
              },
            }
          : {}),
      }),
      allow([...prefix, "branch", "$"], "lists branches", trusted),
      allow([...prefix, "branch", GIT_BRANCH_LIST_FLAGS, "$"], "lists branches", trusted),
      allow(
        [...prefix, "branch", GIT_BRANCH_LIST_FLAGS, GIT_BRANCH_LIST_FLAGS, "$"],
        "lists branches",
        trusted,
      ),
      allow([...prefix, "branch", ["--list", "-l"]], "lists branches", trusted),
      allow([...prefix, "stash", ["list", "show"]], "lists stashes", trusted),
      allow([...prefix, "remote", "$"], "lists remotes", trusted),
      allow([...prefix, "tag", "$"], "lists tags", trusted),
      allow([...prefix, "tag", ["-l", "--list"]], "lists tags", trusted),
      allow(
        [...prefix, "config", ["--get", "--get-all", "get"]],
        "reads one git config value (keys that can hold a token ask: secret.git-config)",
        trusted,
      ),
    );
  }
  rules.push(allow(["git", ["--version", "version"]], "prints git's version"));
  return rules;
}

function packageManagerRules(): PolicyRule[] {
  return [
    allow(["npm", ["test", "t", "run", "run-script", "build"]], SCRIPTS_REASON, {
      ...trusted,
      examples: { match: ["npm test", "npm run lint -- --fix"], notMatch: ["npm install", "npm exec x"] },
    }),
    allow(
      ["npm", ["ls", "list", "view", "info", "outdated", "why", "explain", "-v", "--version"]],
      "reads package information",
    ),
    allow(["pnpm", ["test", "t", "run", "build"]], SCRIPTS_REASON, trusted),
    allow(
      ["pnpm", ["ls", "list", "view", "info", "outdated", "why", "-v", "--version"]],
      "reads package information",
    ),
    allow(["yarn", ["test", "run", "build"]], SCRIPTS_REASON, trusted),
    allow(["yarn", ["list", "info", "why", "outdated", "-v", "--version"]], "reads package information"),
  ];
}

const ENTRY_REASON =
  "the project's own build or test entry point: it runs the workspace's code (build scripts, Makefile, conftest.py), so it is allowed only inside a trusted workspace";

/**
 * The project's build and test entry points. Like npm scripts they run code the repository controls, so they
 * count only in a trusted workspace, and the `tool.directory-code` check asks when they run anywhere else.
 */
function entryPointRules(): PolicyRule[] {
  return [
    allow(["cargo", ["build", "check", "test", "clippy", "fmt", "b", "c", "t"]], ENTRY_REASON, {
      ...trusted,
      examples: { match: ["cargo test --all", "cargo clippy -- -D warnings"], notMatch: ["cargo install x"] },
    }),
    allow(["go", ["build", "test", "vet"]], ENTRY_REASON, trusted),
    allow([["pytest", "py.test"]], ENTRY_REASON, trusted),
    allow([["make", "gmake"]], ENTRY_REASON, trusted),
    allow(
      [
        ["gradle", "gradlew"],
        ["test", "build", "check"],
      ],
      ENTRY_REASON,
      trusted,
    ),
    allow(
      [
        ["mvn", "mvnw"],
        ["test", "verify"],
      ],
      ENTRY_REASON,
      trusted,
    ),
  ];
}

function versionRules(): PolicyRule[] {
  return [
    allow(["node", ["--version", "-v"], "$"], "prints a version"),
    allow([["python", "python3"], ["--version", "-V"], "$"], "prints a version"),
    allow(["tsc", ["--version", "-v"], "$"], "prints a version"),
    allow(["tsc", "--noEmit"], "type-checks without writing files", trusted),
  ];
}

function shapedRules(): PolicyRule[] {
  return [
    allow(
      ["sed", "-n"],
      "prints selected lines (sed -i and the e/w commands are caught by the safety checks)",
      {
        examples: { match: ["sed -n 1,20p file.txt"], notMatch: ["sed -i s/a/b/ file.txt", "sed s/a/b/"] },
      },
    ),
    // uniq's second operand is an output file: allow at most one operand, after at most one flag
    allow(["uniq", "$"], "filters repeated lines"),
    allow(["uniq", "*", "$"], "filters repeated lines"),
    allow(["uniq", UNIQ_FLAGS, "*", "$"], "filters repeated lines", {
      examples: { match: ["uniq -c names.txt"], notMatch: ["uniq in.txt out.txt", "uniq -c in.txt out.txt"] },
    }),
    // xxd's second operand is an output file
    allow(["xxd", "$"], "prints a hex dump"),
    allow(["xxd", "*", "$"], "prints a hex dump"),
    // env without a command prints the environment; with one it is a runner, unwrapped before matching
    allow(["env", "$"], "prints the environment"),
    allow(["hostname", "$"], "prints the host name"),
    allow(["hostname", HOSTNAME_FLAGS, "$"], "prints the host name"),
    // with arguments, macOS arch runs a program (`arch -x86_64 sh`)
    allow(["arch", "$"], "prints the machine architecture"),
  ];
}

/** Freezes a value and everything inside it, so no consumer can change a shared preset. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * The `recommended` preset as a policy document. It applies when a person has no policy file, and to any
 * policy that says `"extends": ["recommended"]`. Git and package-script rules are `trustedWorkspaceOnly`:
 * they run programs the repository controls (git's `core.fsmonitor`, npm scripts).
 */
export const RECOMMENDED_POLICY: PolicyDocument = deepFreeze({
  version: 1,
  rules: [
    allow([READ_ONLY_PROGRAMS], "read-only everyday tool", {
      examples: { match: ["ls -la", "cat README.md", "grep -rn TODO src"], notMatch: ["rm -rf build"] },
    }),
    ...shapedRules(),
    ...gitRules(),
    ...packageManagerRules(),
    ...entryPointRules(),
    ...versionRules(),
  ],
});

/** Built-in presets by name, for `extends`. */
export const PRESETS: ReadonlyMap<string, PolicyDocument> = new Map([
  [RECOMMENDED_PRESET_NAME, RECOMMENDED_POLICY],
]);
