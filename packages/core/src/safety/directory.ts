/**
 * The directory a command really runs in, and the tools that run that directory's own code or configuration.
 *
 * A command's directory comes from the line (`cd`, `pushd`, `popd`: `ExtractedCommand.cwd`) and from runner
 * options (`env -C`, `sudo -D`), resolved here against the decision's directory. A tool that loads the
 * directory's configuration (git hooks and fsmonitor, npm scripts and `.npmrc`, Makefiles, `build.rs`,
 * `conftest.py`, JavaScript config files…) is trusted only inside a trusted workspace: anywhere else it asks.
 */
import { runnerDirectory, type WorkingDirectory } from "../shell/directory.js";
import type { ExtractedCommand } from "../shell/types.js";
import { operands, parseOptions, type Invocation, type OptionSpec, type ParsedArg } from "./argv.js";
import { finding } from "./codes.js";
import { parseGit } from "./git.js";
import { isOpaquePattern, knowPath } from "./path-knowledge.js";
import { isInside, literalPrefix, normalize, resolvePath } from "./paths.js";
import { readsRelativePaths } from "./reads.js";
import { inWorkspace } from "./targets.js";
import type { Finding, SafetyContext } from "./types.js";

/**
 * True when going to `word` from `at.cwd` passes through one of the kernel's links (`/proc/self/cwd`,
 * `/proc/1/root`, `/dev/fd/3`), however the path is spelled (`/./proc/self/cwd/..`, `../../../proc/self/cwd`):
 * the link's target, not its name, decides where `..` and what follows lead.
 */
function throughKernelLink(word: string, at: SafetyContext): boolean {
  const known = knowPath(word, false, at);
  if (known.kind !== "paths") return false;
  return known.patterns.some((parts) => parts.some((_, i) => isOpaquePattern(parts.slice(0, i + 1))));
}

/**
 * True when a physical directory change (`chdir(2)`: `env -C`, `git -C`, `make -C`; `cd -P` is the tracker's)
 * cannot be followed by name: its `..` leaves the real folder a link points to, so only `..`s at the start of a
 * relative word, taken from where the line starts, are known.
 */
function physicalDotDot(word: string, fromStart: boolean): boolean {
  const parts = word.split("/").filter((part) => part !== "" && part !== ".");
  if (!parts.includes("..")) return false;
  const first = parts.findIndex((part) => part !== "..");
  const leadingOnly = first < 0 || !parts.slice(first).includes("..");
  return !(leadingOnly && fromStart && !word.startsWith("/") && !word.startsWith("~"));
}

/**
 * Resolves one directory change from `cwd`; `null` when it is only known at run time, goes through the
 * kernel's links, or (for a `physical` change) takes `..` where a link may stand.
 */
function stepFrom(
  cwd: string,
  word: string,
  dynamic: boolean,
  context: SafetyContext,
  physical = false,
): string | null {
  const at: SafetyContext = { ...context, cwd, cwdUnknown: false };
  let literal = word;
  if (dynamic) {
    const { prefix, stop } = literalPrefix(word, at);
    if (stop !== null) return null;
    literal = prefix;
  }
  if (throughKernelLink(literal, at)) return null;
  if (physical && physicalDotDot(literal, cwd === normalize(context.cwd, context))) return null;
  return resolvePath(literal, at);
}

/**
 * The absolute directories a command may run in, resolved against `context.cwd` and `context.home`: one for
 * a plain line, several when an earlier `cd` may have failed; `undefined` when the directory is only known at
 * run time.
 */
export function directoriesOf(
  cwd: WorkingDirectory | undefined,
  context: SafetyContext,
): string[] | undefined {
  if (context.cwdUnknown === true) return undefined;
  if (cwd === undefined) return [normalize(context.cwd, context)];
  if (cwd.kind === "unknown") return undefined;
  const out: string[] = [];
  for (const steps of cwd.candidates) {
    let at: string | null = normalize(context.cwd, context);
    for (const step of steps) {
      at = stepFrom(at, step.word, step.dynamic, context);
      if (at === null) return undefined;
    }
    if (!out.includes(at)) out.push(at);
  }
  return out;
}

/**
 * The safety contexts a command is decided in: one per directory it may run in (`cwd` set to it), or one
 * with `cwdUnknown` when the directory is only known at run time. The first is the context itself when the
 * command runs where the line starts.
 */
export function commandContexts(command: ExtractedCommand, context: SafetyContext): SafetyContext[] {
  const runner = runnerDirectory(command);
  if (command.cwd === undefined && runner === undefined) return [context];
  const dirs = directoriesOf(command.cwd, context);
  const unknown = (): SafetyContext[] => [{ ...context, cwdUnknown: true }];
  if (dirs === undefined || runner === null) return unknown();
  const out: SafetyContext[] = [];
  for (const dir of dirs) {
    const moved = runner === undefined ? dir : stepFrom(dir, runner.word, runner.dynamic, context, true);
    if (moved === null) return unknown();
    out.push(moved === context.cwd ? context : { ...context, cwd: moved });
  }
  return out;
}

/** The command runs in a directory only known at run time and may read a file named relative to it. */
export function classifyUnknownDirectory(
  invocation: Invocation | undefined,
  context: SafetyContext,
): Finding[] {
  if (context.cwdUnknown !== true || invocation === undefined) return [];
  if (!readsRelativePaths(invocation)) return [];
  const command = invocation.command;
  const why = command.cwd?.kind === "unknown" ? ` (${command.cwd.reason})` : "";
  return [
    finding(
      "tool.unknown-directory",
      `${invocation.name} runs in a directory only known when the line runs${why}, so the files it reads or loads cannot be checked`,
      command,
    ),
  ];
}

/** Options of a tool, by how they matter here. Short letters; long names without dashes. */
interface OptionRoles {
  short?: string;
  long?: readonly string[];
}

/** A tool that loads code or configuration from the directory it works in. */
interface DirectoryTool {
  /** What it runs from the directory, for messages. */
  runs: string;
  /** How its options parse (value-taking options). */
  spec: OptionSpec;
  /** Options that move its working directory (`make -C dir`, `npm --prefix dir`); chained. */
  chdir?: OptionRoles;
  /** Options naming a configuration or code file or folder it loads (`make -f x.mk`, `--config x`). */
  loads?: OptionRoles;
  /** Options that run given code or settings directly (`make --eval`, `--node-options`, `go test -exec`). */
  code?: OptionRoles;
  /** Operands that are paths whose directories it loads code from (`pytest dir/` loads `dir/conftest.py`). */
  pathOperands?: boolean;
  /** `NAME=value` operands override variables its recipes run (`make CC=/tmp/x`). */
  assignmentOperands?: boolean;
  /** Invocations that load nothing (`--version`); checked on the arguments. */
  inert?: (args: readonly string[]) => boolean;
}

const versionOnly =
  (...words: string[]) =>
  (args: readonly string[]): boolean =>
    args.length > 0 && args.every((a) => words.includes(a));

/** npm subcommands that only read package metadata: no script, no `.npmrc` code. */
const NPM_METADATA = new Set([
  "ls",
  "list",
  "view",
  "info",
  "show",
  "v",
  "outdated",
  "why",
  "explain",
  "help",
]);

const JS_CONFIG: DirectoryTool = {
  runs: "its JavaScript configuration files and plugins",
  spec: {
    shortValue: "cr",
    longValue: ["config", "root", "dir", "rootDir", "plugin", "require", "rulesdir"],
  },
  loads: {
    short: "c",
    long: ["config", "root", "dir", "rootDir", "plugin", "rulesdir", "resolve-plugins-relative-to"],
  },
  code: { short: "r", long: ["require"] },
  inert: versionOnly("--version", "-v", "-V", "--help", "-h"),
};

/** The tools that run the directory's code or configuration, by program name. */
const DIRECTORY_TOOLS: ReadonlyMap<string, DirectoryTool> = new Map<string, DirectoryTool>([
  [
    "npm",
    {
      runs: "the package's scripts and its .npmrc settings",
      spec: {
        shortValue: "C",
        longValue: ["prefix", "userconfig", "globalconfig", "node-options", "script-shell"],
      },
      chdir: { short: "C", long: ["prefix"] },
      loads: { long: ["userconfig", "globalconfig"] },
      code: { long: ["node-options", "script-shell"] },
      inert: (args) => {
        const first = args.find((a) => !a.startsWith("-"));
        const chdir = args.some((a) => /^(-C|--prefix)/.test(a));
        return (
          !chdir && (first === undefined ? versionOnly("-v", "--version")(args) : NPM_METADATA.has(first))
        );
      },
    },
  ],
  [
    "pnpm",
    {
      runs: "the package's scripts, .npmrc settings and .pnpmfile.cjs",
      spec: {
        shortValue: "C",
        longValue: ["dir", "prefix", "pnpmfile", "global-pnpmfile", "node-options", "config"],
      },
      chdir: { short: "C", long: ["dir", "prefix"] },
      loads: { long: ["pnpmfile", "global-pnpmfile"] },
      code: { long: ["node-options"] },
      inert: versionOnly("-v", "--version"),
    },
  ],
  [
    "yarn",
    {
      runs: "the package's scripts and the program .yarnrc.yml names (yarnPath, plugins)",
      spec: { longValue: ["cwd", "use-yarnrc"] },
      chdir: { long: ["cwd"] },
      loads: { long: ["use-yarnrc"] },
    },
  ],
  [
    "bun",
    {
      runs: "the package's scripts and bunfig.toml preloads",
      spec: { longValue: ["cwd", "config"] },
      chdir: { long: ["cwd"] },
      loads: { long: ["config"] },
    },
  ],
  [
    "npx",
    {
      runs: "programs installed in the directory's node_modules",
      spec: {},
      inert: versionOnly("-v", "--version"),
    },
  ],
  [
    "make",
    {
      runs: "the recipes of its Makefile",
      spec: {
        shortValue: "CfIoWE",
        longValue: [
          "directory",
          "file",
          "makefile",
          "include-dir",
          "eval",
          "old-file",
          "what-if",
          "assume-old",
          "assume-new",
          "new-file",
        ],
      },
      chdir: { short: "C", long: ["directory"] },
      loads: { short: "fI", long: ["file", "makefile", "include-dir"] },
      code: { short: "E", long: ["eval"] },
      assignmentOperands: true,
      inert: versionOnly("-v", "--version", "--help"),
    },
  ],
  [
    "tsc",
    {
      runs: "its tsconfig.json (and what it extends)",
      spec: { shortValue: "pb", longValue: ["project", "generateTrace", "generateCpuProfile"] },
      loads: { short: "p", long: ["project"] },
      pathOperands: false,
      inert: versionOnly("-v", "--version", "-h", "--help", "--all"),
    },
  ],
  [
    "cargo",
    {
      runs: "build scripts (build.rs), procedural macros and .cargo/config.toml",
      spec: { shortValue: "CZ", longValue: ["manifest-path", "config", "target-dir"] },
      chdir: { short: "C" },
      loads: { long: ["manifest-path"] },
      code: { short: "Z", long: ["config"] },
      inert: versionOnly("-V", "--version", "version", "-h", "--help"),
    },
  ],
  [
    "pytest",
    {
      runs: "conftest.py files and plugins of the directories it collects",
      spec: {
        shortValue: "cpkmo",
        longValue: [
          "rootdir",
          "confcutdir",
          "config-file",
          "override-ini",
          "basetemp",
          "junitxml",
          "junit-xml",
        ],
      },
      chdir: { long: ["rootdir"] },
      loads: { short: "c", long: ["config-file", "confcutdir"] },
      code: { short: "po", long: ["override-ini"] },
      pathOperands: true,
      inert: versionOnly("--version", "-V", "-h", "--help"),
    },
  ],
  [
    "gradle",
    {
      runs: "its build scripts (build.gradle, settings.gradle, init scripts)",
      spec: {
        shortValue: "pbcIg",
        longValue: [
          "project-dir",
          "build-file",
          "settings-file",
          "init-script",
          "gradle-user-home",
          "include-build",
        ],
      },
      chdir: { short: "p", long: ["project-dir"] },
      loads: { short: "bcg", long: ["build-file", "settings-file", "gradle-user-home", "include-build"] },
      code: { short: "I", long: ["init-script"] },
      inert: versionOnly("-v", "--version"),
    },
  ],
  [
    "mvn",
    {
      runs: "the plugins its pom.xml and settings name",
      spec: { shortValue: "fst", longValue: ["file", "settings", "global-settings", "toolchains"] },
      loads: { short: "fst", long: ["file", "settings", "global-settings", "toolchains"] },
      inert: versionOnly("-v", "--version"),
    },
  ],
  [
    "direnv",
    {
      runs: "the .envrc of the directory",
      spec: {},
      pathOperands: true,
      inert: versionOnly("version", "--version"),
    },
  ],
  [
    "mise",
    {
      runs: "the tools and tasks of its mise.toml / .tool-versions",
      spec: { shortValue: "C", longValue: ["cd"] },
      chdir: { short: "C", long: ["cd"] },
      inert: versionOnly("--version", "version"),
    },
  ],
  [
    "asdf",
    { runs: "the tool versions of .tool-versions", spec: {}, inert: versionOnly("--version", "version") },
  ],
  [
    "just",
    {
      runs: "the recipes of its justfile",
      spec: { shortValue: "fd", longValue: ["justfile", "working-directory"] },
      chdir: { short: "d", long: ["working-directory"] },
      loads: { short: "f", long: ["justfile"] },
      inert: versionOnly("--version", "-V"),
    },
  ],
  [
    "task",
    {
      runs: "the tasks of its Taskfile",
      spec: { shortValue: "dt", longValue: ["dir", "taskfile"] },
      chdir: { short: "d", long: ["dir"] },
      loads: { short: "t", long: ["taskfile"] },
    },
  ],
  [
    "rake",
    {
      runs: "the tasks of its Rakefile",
      spec: { shortValue: "fCIre", longValue: ["rakefile", "directory", "libdir", "require", "execute"] },
      chdir: { short: "C", long: ["directory"] },
      loads: { short: "fI", long: ["rakefile", "libdir"] },
      code: { short: "re", long: ["require", "execute"] },
    },
  ],
  ["bundle", { runs: "its Gemfile", spec: { longValue: ["gemfile"] }, loads: { long: ["gemfile"] } }],
  [
    "tox",
    {
      runs: "its tox.ini environments",
      spec: { shortValue: "c", longValue: ["conf", "root"] },
      loads: { short: "c", long: ["conf", "root"] },
    },
  ],
  [
    "nox",
    {
      runs: "its noxfile.py",
      spec: { shortValue: "f", longValue: ["noxfile"] },
      loads: { short: "f", long: ["noxfile"] },
    },
  ],
  [
    "pre-commit",
    {
      runs: "the hooks its .pre-commit-config.yaml names",
      spec: { shortValue: "c", longValue: ["config"] },
      loads: { short: "c", long: ["config"] },
    },
  ],
  [
    "cmake",
    {
      runs: "its CMakeLists.txt",
      spec: { shortValue: "SBCP" },
      chdir: { short: "S" },
      code: { short: "CP" },
    },
  ],
  [
    "bazel",
    { runs: "its BUILD files and .bazelrc", spec: { longValue: ["bazelrc"] }, loads: { long: ["bazelrc"] } },
  ],
  [
    "deno",
    {
      runs: "the tasks and imports of its deno.json",
      spec: { shortValue: "c", longValue: ["config"] },
      loads: { short: "c", long: ["config"] },
      inert: versionOnly("--version", "-V"),
    },
  ],
  ["eslint", JS_CONFIG],
  ["prettier", JS_CONFIG],
  ["vitest", JS_CONFIG],
  ["jest", JS_CONFIG],
  ["mocha", JS_CONFIG],
  ["ava", JS_CONFIG],
  ["vite", JS_CONFIG],
  ["webpack", JS_CONFIG],
  ["rollup", JS_CONFIG],
  ["turbo", JS_CONFIG],
  ["nx", JS_CONFIG],
  ["playwright", JS_CONFIG],
  ["biome", JS_CONFIG],
  ["stylelint", JS_CONFIG],
  ["babel", JS_CONFIG],
]);

/** Names that run the same tool (`gmake`, `./gradlew`, `py.test`). */
const ALIASES: ReadonlyMap<string, string> = new Map([
  ["gmake", "make"],
  ["bmake", "make"],
  ["gradlew", "gradle"],
  ["mvnw", "mvn"],
  ["py.test", "pytest"],
  ["cnpm", "npm"],
  ["rtx", "mise"],
  ["bunx", "npx"],
  ["pnpx", "npx"],
]);

function roleHas(p: ParsedArg, roles: OptionRoles | undefined): boolean {
  if (roles === undefined) return false;
  if (p.kind === "short") return (roles.short ?? "").includes(p.name);
  if (p.kind === "long")
    return (roles.long ?? []).some((l) => l === p.name || (p.name.length >= 3 && l.startsWith(p.name)));
  return false;
}

function written(p: ParsedArg): string {
  return p.kind === "short" ? `-${p.name}` : `--${p.name}`;
}

/** A directory the tool works in or loads from: resolved, or `null` when only known at run time. */
interface Place {
  path: string | null;
  subject: string;
}

/** What `go` runs from the module it works in: the `toolchain` directive of go.mod, generators, cgo and test code. */
const GO_RUNS = "the module's toolchain directive, generators, cgo and test code";
/** go subcommands that run nothing of the module. */
const GO_INERT = new Set(["version", "help", "env", "fmt", "doc"]);

/**
 * What a program runs of the directory it works in (its scripts, configuration files, plugins, build scripts),
 * by program name (`gmake`, `py.test` and the other aliases included); `undefined` for a program outside the
 * table and for a call that only prints its version or help. Hosts use it where they must know that a line runs
 * repository code no word of it names (an approval's binding). git is left out: its hooks and configuration are
 * not part of a repository's content.
 */
export function directoryCodeOf(name: string, args: readonly string[]): string | undefined {
  const tool = ALIASES.get(name) ?? name;
  if (tool === "go") return args[0] === undefined || GO_INERT.has(args[0]) ? undefined : GO_RUNS;
  const entry = DIRECTORY_TOOLS.get(tool);
  if (entry === undefined || entry.inert?.(args) === true) return undefined;
  return entry.runs;
}

/** Where a tool works and what it loads, by its options; `undefined` when the tool is not in the table. */
function placesOf(
  invocation: Invocation,
  context: SafetyContext,
): { places: Place[]; code: ParsedArg[] } | undefined {
  const name = ALIASES.get(invocation.name) ?? invocation.name;
  if (name === "git") return gitPlaces(invocation, context);
  if (name === "go") return goPlaces(invocation, context);
  const tool = DIRECTORY_TOOLS.get(name);
  if (tool === undefined || tool.inert?.(invocation.args) === true) return undefined;
  const parsed = parseOptions(invocation.args, tool.spec);
  let cwd: string | null = context.cwdUnknown === true ? null : context.cwd;
  const places: Place[] = [];
  const code: ParsedArg[] = [];
  const resolve = (word: string, index: number, from: string | null): string | null => {
    if (from === null && !word.startsWith("/") && !word.startsWith("~")) return null;
    return stepFrom(
      from ?? "/",
      word,
      invocation.dynamic.has(index) || invocation.dynamic.has(index + 1),
      context,
      true,
    );
  };
  for (const p of parsed) {
    if (p.kind === "operand") continue;
    if (roleHas(p, tool.code)) code.push(p);
    else if (roleHas(p, tool.chdir)) cwd = p.value === undefined ? null : resolve(p.value, p.index, cwd);
    else if (roleHas(p, tool.loads) && p.value !== undefined)
      places.push({ path: resolve(p.value, p.index, cwd), subject: `${written(p)} ${p.value}` });
  }
  places.unshift({ path: cwd, subject: "." });
  for (const op of operands(parsed)) {
    if (tool.assignmentOperands === true && /^[A-Za-z_][A-Za-z0-9_.]*\+?[:?!]?=/.test(op.name)) {
      code.push(op);
    } else if (tool.pathOperands === true && !op.name.startsWith("-")) {
      places.push({ path: resolve(op.name, op.index, cwd), subject: op.name });
    }
  }
  return { places, code };
}

function gitPlaces(
  invocation: Invocation,
  context: SafetyContext,
): { places: Place[]; code: ParsedArg[] } | undefined {
  const call = parseGit(invocation.args);
  if (call.subcommand === undefined || call.subcommand === "version" || call.subcommand === "help")
    return undefined;
  let cwd: string | null = context.cwdUnknown === true ? null : context.cwd;
  const places: Place[] = [];
  for (const { option, path } of call.locations) {
    const dynamic = invocation.args.some((a, i) => invocation.dynamic.has(i) && a.includes(path));
    const at =
      cwd === null && !path.startsWith("/") && !path.startsWith("~")
        ? null
        : stepFrom(cwd ?? "/", path, dynamic, context, true);
    if (option === "-C") cwd = at;
    else places.push({ path: at, subject: `${option} ${path}` });
  }
  places.unshift({ path: cwd, subject: "." });
  return { places, code: [] };
}

/**
 * go reads `-C dir` (first), `-modfile`, `-overlay`, and runs `-exec`/`-toolexec`/`-vettool` programs and an
 * external linker named in `-ldflags` (`-extld`).
 */
const GO_PROGRAM_OPTIONS: ReadonlySet<string> = new Set(["exec", "toolexec", "vettool"]);

function goPlaces(
  invocation: Invocation,
  context: SafetyContext,
): { places: Place[]; code: ParsedArg[] } | undefined {
  const args = invocation.args;
  if (args.length === 1 && (args[0] === "version" || args[0] === "help")) return undefined;
  let cwd: string | null = context.cwdUnknown === true ? null : context.cwd;
  const places: Place[] = [];
  const code: ParsedArg[] = [];
  const at = (word: string, index: number): string | null =>
    cwd === null && !word.startsWith("/") && !word.startsWith("~")
      ? null
      : stepFrom(cwd ?? "/", word, invocation.dynamic.has(index), context, true);
  for (let i = 0; i < args.length; i++) {
    const m = /^--?([A-Za-z]+)(?:=(.*))?$/.exec(args[i]!);
    if (m === null) {
      if (i > 0 && /^(\.|\/|~)/.test(args[i]!) && !args[i]!.startsWith("./...") && args[i] !== ".")
        places.push({ path: at(args[i]!.replace(/\/\.\.\.$/, ""), i), subject: args[i]! });
      continue;
    }
    const [, name, glued] = m;
    const value = glued ?? args[i + 1];
    const valueIndex = glued === undefined ? i + 1 : i;
    // the external linker is a program: `-ldflags=-extld=prog` (cgo or `-linkmode=external`)
    if (name === "ldflags" && value !== undefined && /(^|[\s'"])--?extld\b/.test(value)) {
      if (glued === undefined) i++;
      code.push({ kind: "long", name: name, index: i, value });
      continue;
    }
    if (name === "C" || name === "modfile" || name === "overlay" || GO_PROGRAM_OPTIONS.has(name!)) {
      if (glued === undefined) i++;
      if (GO_PROGRAM_OPTIONS.has(name!))
        code.push({ kind: "long", name: name!, index: i, ...(value === undefined ? {} : { value }) });
      else if (name === "C") cwd = value === undefined ? null : at(value, valueIndex);
      else if (value !== undefined)
        places.push({ path: at(value, valueIndex), subject: `-${name!} ${value}` });
    }
  }
  places.unshift({ path: cwd, subject: "." });
  return { places, code };
}

/** True when `path` lies inside the workspace (`trustedRoot`, else `workspaceRoot`); trust is not checked. */
export function inTrustedRoot(path: string | null, context: SafetyContext): boolean {
  if (path === null) return false;
  if (context.trustedRoot === undefined) return inWorkspace(normalize(path, context), context);
  return isInside(normalize(path, context), normalize(context.trustedRoot, context), context);
}

/** True when the workspace is trusted and `path` lies inside it. */
function trustedPlace(path: string | null, context: SafetyContext): boolean {
  return context.workspaceTrusted !== false && inTrustedRoot(path, context);
}

/**
 * Tools that run the code or configuration of the directory they work in: `tool.directory-code` when that
 * directory (after `cd`, `-C`, `--prefix`…) or a configuration they are pointed at is not inside a trusted
 * workspace; `tool.exec-option` for options that hand them code directly (`make --eval`, `--node-options`,
 * `go test -exec`, `make CC=…`).
 */
export function classifyDirectoryCode(invocation: Invocation, context: SafetyContext): Finding[] {
  const found = placesOf(invocation, context);
  if (found === undefined) return [];
  const command = invocation.command;
  const tool = DIRECTORY_TOOLS.get(ALIASES.get(invocation.name) ?? invocation.name);
  const runs =
    tool?.runs ??
    (invocation.name === "git"
      ? "the repository's hooks, fsmonitor, pager and filters"
      : "the module's toolchain directive and generators");
  const out: Finding[] = [];
  for (const place of found.places) {
    if (trustedPlace(place.path, context)) continue;
    const where =
      place.path === null
        ? "a directory only known when the line runs"
        : context.workspaceTrusted === false && inTrustedRoot(place.path, context)
          ? "a workspace that is not trusted"
          : `${place.path}, outside the workspace`;
    const what = place.subject === "." ? `runs in ${where}` : `loads ${place.subject} from ${where}`;
    out.push(
      finding(
        "tool.directory-code",
        `${invocation.name} ${what}, and runs ${runs}`,
        command,
        place.subject === "." ? undefined : place.subject,
      ),
    );
  }
  for (const p of found.code) {
    const word = p.kind === "operand" ? p.name : written(p);
    out.push(
      finding(
        "tool.exec-option",
        `${invocation.name} ${word} hands it code or settings that run programs`,
        command,
        word,
      ),
    );
  }
  return out;
}
