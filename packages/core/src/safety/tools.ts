import {
  hasOption,
  operands,
  optionsNamed,
  parseOptions,
  programName,
  type Invocation,
  type ParsedArg,
} from "./argv.js";
import {
  AWK_OPTIONS,
  ENV_OPTIONS,
  RG_OPTIONS,
  RSYNC_OPTIONS,
  SCP_OPTIONS,
  SED_OPTIONS,
  SFTP_OPTIONS,
  SORT_OPTIONS,
  SSH_OPTIONS,
  TAR_OPTIONS,
  XARGS_OPTIONS,
} from "../shell/tool-options.js";
import { readAwkProgram } from "./awk-program.js";
import { finding } from "./codes.js";
import { readSedScript, type SedScriptInfo } from "./sed-script.js";
import { classifyStateOptions } from "./state-options.js";
import { catastropheOf, targetOf } from "./targets.js";
import type { Finding, SafetyContext } from "./types.js";

const AWKS = new Set(["awk", "gawk", "mawk", "nawk", "busybox-awk"]);
const SEDS = new Set(["sed", "gsed"]);

/** A sed call: in-place editing, its scripts as read, the files it edits. */
export interface SedCall {
  inPlace: string | undefined;
  scripts: SedScriptInfo[];
  /** Script given by file (`-f`) or computed at run time. */
  opaque: boolean;
  /** `--sandbox`: sed itself refuses `e`, `w` and `r`. */
  sandbox: boolean;
  /** Operand indices (into the invocation's args) that are input files. */
  files: number[];
}

/** Reads a sed invocation; `undefined` when the program is not sed. */
export function sedCall(invocation: Invocation): SedCall | undefined {
  if (!SEDS.has(invocation.name)) return undefined;
  const parsed = parseOptions(invocation.args, SED_OPTIONS);
  const inPlaceOption = optionsNamed(parsed, "iI", "in-place")[0];
  const inPlace =
    inPlaceOption === undefined
      ? undefined
      : inPlaceOption.kind === "short"
        ? `-${inPlaceOption.name}`
        : "--in-place";
  const sources = optionsNamed(parsed, "e", "expression");
  const files = operands(parsed).map((p) => p.index);
  let opaque = optionsNamed(parsed, "f", "file").length > 0;
  const texts: { text: string; dynamic: boolean }[] = sources.map((p) => ({
    text: p.value ?? "",
    dynamic: invocation.dynamic.has(p.index) || invocation.dynamic.has(p.index + 1),
  }));
  if (sources.length === 0 && !opaque) {
    const first = files.shift();
    if (first === undefined) opaque = true;
    else texts.push({ text: invocation.args[first]!, dynamic: invocation.dynamic.has(first) });
  }
  const scripts: SedScriptInfo[] = [];
  for (const { text, dynamic } of texts) {
    if (dynamic) opaque = true;
    else scripts.push(readSedScript(text));
  }
  return { inPlace, scripts, opaque, sandbox: hasOption(parsed, "", "sandbox"), files };
}

function classifySed(invocation: Invocation): Finding[] {
  const call = sedCall(invocation);
  if (call === undefined) return [];
  const command = invocation.command;
  const out: Finding[] = [];
  if (call.inPlace !== undefined)
    out.push(
      finding("tool.in-place-edit", `sed ${call.inPlace} rewrites files in place`, command, call.inPlace),
    );
  if (call.opaque || call.scripts.some((s) => s.unparsed)) {
    out.push(
      finding(
        "tool.sed-unparsed",
        "the sed script comes from a file, is computed at run time, or could not be read",
        command,
      ),
    );
  }
  if (!call.sandbox && call.scripts.some((s) => s.executes)) {
    out.push(finding("tool.sed-exec", "the sed script runs shell commands (e command or s///e)", command));
  }
  return out;
}

function classifyAwk(invocation: Invocation): Finding[] {
  if (!AWKS.has(invocation.name)) return [];
  const command = invocation.command;
  const parsed = parseOptions(invocation.args, AWK_OPTIONS);
  const out: Finding[] = [];
  const fromFile = optionsNamed(parsed, "fEi", "file", "exec", "include");
  const loads = optionsNamed(parsed, "l", "load");
  const sources = optionsNamed(parsed, "e", "source");
  const programs: { text: string; dynamic: boolean }[] = sources.map((p) => ({
    text: p.value ?? "",
    dynamic: invocation.dynamic.has(p.index) || invocation.dynamic.has(p.index + 1),
  }));
  if (fromFile.length === 0 && sources.length === 0) {
    const first = operands(parsed)[0];
    if (first !== undefined)
      programs.push({ text: first.name, dynamic: invocation.dynamic.has(first.index) });
  }
  if (fromFile.length > 0 || loads.length > 0 || programs.some((p) => p.dynamic)) {
    out.push(
      finding(
        "tool.awk-unparsed",
        `${invocation.name} runs a program from a file, an extension, or text computed at run time`,
        command,
      ),
    );
  }
  const infos = programs.filter((p) => !p.dynamic).map((p) => readAwkProgram(p.text));
  if (infos.some((i) => i.executes))
    out.push(finding("tool.awk-exec", `the ${invocation.name} program runs commands`, command));
  if (infos.some((i) => i.writes))
    out.push(finding("tool.awk-write", `the ${invocation.name} program writes files`, command));
  return out;
}

const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

/** find primaries and options that take one argument (which is then not a primary itself). */
const FIND_WITH_ARGUMENT = new Set([
  "-name",
  "-iname",
  "-path",
  "-ipath",
  "-wholename",
  "-iwholename",
  "-regex",
  "-iregex",
  "-lname",
  "-ilname",
  "-newer",
  "-anewer",
  "-cnewer",
  "-samefile",
  "-type",
  "-xtype",
  "-user",
  "-group",
  "-uid",
  "-gid",
  "-perm",
  "-size",
  "-mtime",
  "-atime",
  "-ctime",
  "-mmin",
  "-amin",
  "-cmin",
  "-used",
  "-links",
  "-inum",
  "-fstype",
  "-maxdepth",
  "-mindepth",
  "-printf",
  "-regextype",
  "-context",
  "-files0-from",
  "-D",
  "-O",
]);

/** find tests that narrow what matches (so a removal does not take everything under the starting point). */
const FIND_FILTERS = new Set([
  "-name",
  "-iname",
  "-path",
  "-ipath",
  "-wholename",
  "-iwholename",
  "-regex",
  "-iregex",
  "-lname",
  "-ilname",
  "-samefile",
  "-type",
  "-xtype",
  "-user",
  "-group",
  "-uid",
  "-gid",
  "-perm",
  "-size",
  "-mtime",
  "-atime",
  "-ctime",
  "-mmin",
  "-amin",
  "-cmin",
  "-used",
  "-links",
  "-inum",
  "-fstype",
  "-context",
]);

/** An unfiltered `find START -delete` (or `-exec rm`) removes everything under START, like `rm -rf START`. */
function unfilteredRemoval(invocation: Invocation, context: SafetyContext): Finding[] {
  const out: Finding[] = [];
  for (const [i, word] of invocation.args.entries()) {
    if (word.startsWith("-") || word === "(" || word === "!") break;
    const target = targetOf(word, invocation.dynamic.has(i), context);
    const path = target.kind === "path" ? target.path : target.kind === "glob" ? target.parent : undefined;
    const catastrophe = path === undefined ? undefined : catastropheOf(path, context);
    if (catastrophe !== undefined && catastrophe !== "workspace-root") {
      out.push(
        finding(
          REMOVAL_CODE[catastrophe],
          `find ${word} with no filter removes everything under it`,
          invocation.command,
          word,
        ),
      );
    }
  }
  return out;
}

const REMOVAL_CODE = {
  root: "rm.recursive-root",
  home: "rm.recursive-home",
  "workspace-root": "rm.recursive-workspace-root",
  system: "rm.recursive-system",
} as const;
// The workspace root is left out on purpose: `find . -delete` asks (tool.find-delete), it is not denied.

function classifyFind(invocation: Invocation, context?: SafetyContext): Finding[] {
  const command = invocation.command;
  const out: Finding[] = [];
  if (invocation.name === "find") {
    const args = invocation.args;
    let filtered = false;
    let removes = false;
    for (let i = 0; i < args.length; i++) {
      const word = args[i]!;
      if (invocation.dynamic.has(i)) {
        out.push(finding("tool.find-dynamic", `find word ${word} is computed at run time`, command, word));
        continue;
      }
      if (FIND_EXEC.has(word))
        out.push(finding("tool.exec-option", `find ${word} runs a program for every match`, command, word));
      if (word === "-delete")
        out.push(finding("tool.find-delete", "find -delete removes every match", command, word));
      if (
        word === "-delete" ||
        (FIND_EXEC.has(word) && /^(rm|shred|unlink|srm)$/.test(programName(args[i + 1] ?? "")))
      ) {
        removes = true;
      }
      if (/^-(empty|true|false|readable|writable|executable|nouser|nogroup)$/.test(word)) filtered = true;
      if (FIND_WITH_ARGUMENT.has(word) || /^-newer[aBcmt][aBcmt]$/.test(word)) {
        if (FIND_FILTERS.has(word) || word.startsWith("-newer")) filtered = true;
        if (invocation.dynamic.has(i + 1)) {
          out.push(
            finding(
              "tool.find-dynamic",
              `find word ${args[i + 1]!} is computed at run time`,
              command,
              args[i + 1],
            ),
          );
        }
        i++;
      }
    }
    if (removes && !filtered && context !== undefined) out.push(...unfilteredRemoval(invocation, context));
  }
  if (invocation.name === "fd" || invocation.name === "fdfind") {
    for (const word of invocation.args) {
      if (word === "--") break;
      const long = /^--(exec|exec-batch)(=|$)/.test(word);
      const short = /^-[A-Za-z]*[xX]/.test(word) && !word.startsWith("--");
      if (long || short)
        out.push(finding("tool.exec-option", `fd ${word} runs a program for the matches`, command, word));
    }
  }
  return out;
}

function execOption(invocation: Invocation, options: ParsedArg[], what: string): Finding[] {
  return options.map((p) => {
    const written = p.kind === "short" ? `-${p.name}` : `--${p.name}`;
    return finding("tool.exec-option", `${invocation.name} ${written} ${what}`, invocation.command, written);
  });
}

function classifyRg(invocation: Invocation): Finding[] {
  if (invocation.name !== "rg") return [];
  const parsed = parseOptions(invocation.args, RG_OPTIONS);
  const pre = parsed.filter((p) => p.kind === "long" && (p.name === "pre" || p.name === "hostname-bin"));
  return [
    ...execOption(invocation, pre, "runs a program on every file or for the host name"),
    ...execOption(
      invocation,
      optionsNamed(parsed, "z", "search-zip"),
      "runs decompression programs on compressed files",
    ),
  ];
}

function classifyTar(invocation: Invocation): Finding[] {
  if (!["tar", "gtar", "bsdtar"].includes(invocation.name)) return [];
  const args = [...invocation.args];
  if (args[0] !== undefined && /^[A-Za-z]+$/.test(args[0])) args[0] = `-${args[0]}`;
  const parsed = parseOptions(args, TAR_OPTIONS);
  const out = execOption(
    invocation,
    optionsNamed(
      parsed,
      "IF",
      "to-command",
      "use-compress-program",
      "rsh-command",
      "info-script",
      "new-volume-script",
    ),
    "runs another program",
  );
  for (const p of parsed) {
    if (p.kind === "long" && p.name.startsWith("checkpoint-a") && /^(exec|sh)/i.test(p.value ?? "")) {
      out.push(
        finding(
          "tool.exec-option",
          `tar --checkpoint-action=${p.value ?? ""} runs a command`,
          invocation.command,
          `--${p.name}`,
        ),
      );
    }
  }
  return out;
}

const SSH_EXEC_KEYS =
  /^(proxycommand|localcommand|permitlocalcommand|knownhostscommand|match|proxyusefdpass)\b/i;

function classifyRemoteShells(invocation: Invocation): Finding[] {
  const name = invocation.name;
  const out: Finding[] = [];
  if (name === "rsync") {
    const parsed = parseOptions(invocation.args, RSYNC_OPTIONS);
    out.push(
      ...execOption(
        invocation,
        optionsNamed(parsed, "e", "rsh", "rsync-path"),
        "runs a given program to transfer files",
      ),
    );
  }
  if (["ssh", "scp", "sftp", "autossh", "slogin"].includes(name)) {
    const parsed = parseOptions(
      invocation.args,
      name === "scp" ? SCP_OPTIONS : name === "sftp" ? SFTP_OPTIONS : SSH_OPTIONS,
    );
    for (const p of optionsNamed(parsed, "o", "")) {
      if (SSH_EXEC_KEYS.test((p.value ?? "").trim())) {
        out.push(
          finding(
            "tool.exec-option",
            `${name} -o ${p.value ?? ""} runs a local command`,
            invocation.command,
            "-o",
          ),
        );
      }
    }
    if (name !== "ssh")
      out.push(
        ...execOption(invocation, optionsNamed(parsed, "S", ""), "runs a given program as the transport"),
      );
  }
  if (name === "zip") {
    for (const word of invocation.args) {
      if (word.startsWith("-TT") || /^--unzip-c/.test(word))
        out.push(
          finding(
            "tool.exec-option",
            `zip ${word} runs a program to test the archive`,
            invocation.command,
            word,
          ),
        );
    }
  }
  return out;
}

function classifyRunners(invocation: Invocation): Finding[] {
  const name = invocation.name;
  const command = invocation.command;
  const out: Finding[] = [];
  if (name === "sort") {
    const parsed = parseOptions(invocation.args, SORT_OPTIONS);
    out.push(
      ...execOption(
        invocation,
        optionsNamed(parsed, "", "compress-program"),
        "runs a program to compress temporary files",
      ),
    );
  }
  if (name === "xargs" || name === "parallel") {
    const parsed = parseOptions(invocation.args, XARGS_OPTIONS);
    const program = operands(parsed)[0];
    if (program !== undefined)
      out.push(
        finding(
          "tool.xargs",
          `${name} runs ${program.name} with arguments read from input`,
          command,
          program.name,
        ),
      );
  }
  const envWord = programIsEnv(command.argv)
    ? command.argv
    : name === "env"
      ? [invocation.programWord, ...invocation.args]
      : undefined;
  if (envWord !== undefined) {
    const parsed = parseOptions(envWord.slice(1), ENV_OPTIONS);
    out.push(
      ...execOption(
        invocation,
        optionsNamed(parsed, "S", "split-string"),
        "splits a string into a command line that is not inspected",
      ),
    );
  }
  if (["vi", "vim", "nvim", "view", "ex", "gvim", "mvim", "rvim"].includes(name)) {
    for (const word of invocation.args) {
      if (word === "--") break;
      if (
        word === "-c" ||
        word === "--cmd" ||
        word === "-S" ||
        word === "-s" ||
        word === "-u" ||
        (word.startsWith("+") && !/^\+\d*$/.test(word))
      ) {
        out.push(
          finding(
            "tool.exec-option",
            `${name} ${word} runs editor commands, which can run shell commands`,
            command,
            word,
          ),
        );
      }
    }
  }
  if (
    name === "emacs" &&
    invocation.args.some((w) => /^(--eval|-l|--load|-f|--funcall|-batch|--batch|--script|-x)(=|$)/.test(w))
  ) {
    out.push(finding("tool.exec-option", "emacs runs Lisp given on the command line", command));
  }
  if (["npm", "pnpm", "yarn", "npx", "cnpm"].includes(name)) {
    const scriptShell = invocation.args.find((a) => /^--script-shell(=|$)/.test(a));
    const configSet = invocation.args.indexOf("script-shell");
    if (scriptShell !== undefined || (configSet > 0 && invocation.args.includes("set"))) {
      out.push(
        finding(
          "tool.exec-option",
          `${name} script-shell picks the program that runs package scripts`,
          command,
          scriptShell ?? "script-shell",
        ),
      );
    }
  }
  if (name === "man") {
    const parsed = parseOptions(invocation.args, {
      shortValue: "PHCMLmSsep",
      longValue: ["pager", "html", "config-file", "manpath", "preprocessor"],
    });
    out.push(
      ...execOption(
        invocation,
        optionsNamed(parsed, "PHp", "pager", "html", "preprocessor"),
        "runs a given program to display pages",
      ),
    );
  }
  return out;
}

function programIsEnv(argv: readonly string[]): boolean {
  const first = argv[0];
  return first !== undefined && (first === "env" || first.endsWith("/env"));
}

/** Option-level rules for tools usually thought read-only: find, fd, sed, awk, rg, sort, tar, zip, rsync, ssh, env, vim, man, xargs, date, printf, file. */
export function classifyTools(invocation: Invocation, context?: SafetyContext): Finding[] {
  const out = classifyFind(invocation, context);
  for (const more of [
    classifySed(invocation),
    classifyAwk(invocation),
    classifyRg(invocation),
    classifyTar(invocation),
    classifyRemoteShells(invocation),
    classifyRunners(invocation),
    classifyStateOptions(invocation),
  ])
    for (let i = 0; i < more.length; i++) out.push(more[i]!);
  return out;
}
