/**
 * Which words of a command name files the program will read: its file operands, option values that are files
 * (`grep -f`, `jq --rawfile`, `sort --files0-from`), script commands that read (`sed r`), and whether it reads
 * folders recursively (`grep -r`, `rg`, `tar c`, `cp -r`). Programs not described here count every operand as
 * a read, which is the safe reading.
 */
import { hasOption, operands, optionsNamed, parseOptions, type Invocation, type OptionSpec } from "./argv.js";
import {
  AWK_OPTIONS,
  COPY_OPTIONS,
  DATE_OPTIONS,
  GREP_OPTIONS,
  RG_OPTIONS,
  RSYNC_OPTIONS,
  SCP_OPTIONS,
  SED_OPTIONS,
  SORT_OPTIONS,
  TAR_OPTIONS,
  UNIQ_OPTIONS,
} from "../shell/tool-options.js";
import { gitNoIndexReads, gitObjectPathReads } from "./git.js";
import { sedCall } from "./tools.js";

/** A word the program reads as a file. */
export interface ReadWord {
  /** The word (its value when static, its source text when dynamic). */
  text: string;
  /** Whether the word is only known when the shell runs. */
  dynamic: boolean;
  /** The program reads the folder's whole tree. */
  recursive: boolean;
  /** The folder relative paths are taken from, when the program changes it (`tar -C dir`). */
  base?: string;
  /**
   * The file names more files the program reads, only known when it runs: a list of files (`--files0-from`,
   * `tar -T`, `md5sum -c`), or more options of the program (`curl -K`, `wget --config`), which can name files.
   */
  lists?: "files" | "options";
}

/** Programs whose arguments never name files to read (values, names, patterns, numbers). */
const NO_FILES: ReadonlySet<string> = new Set([
  "echo",
  "printf",
  "true",
  "false",
  ":",
  "pwd",
  "whoami",
  "id",
  "groups",
  "uname",
  "arch",
  "nproc",
  "seq",
  "expr",
  "sleep",
  "which",
  "type",
  "hostname",
  "tr",
  "export",
  "unset",
  "local",
  "declare",
  "typeset",
  "readonly",
  "set",
  "shift",
  "exit",
  "return",
  "read",
  "wait",
  "kill",
  "jobs",
  "let",
  "alias",
  "unalias",
  "shopt",
  "umask",
  "ulimit",
  "getopts",
  "break",
  "continue",
  "yes",
  "clear",
  "reset",
  "tput",
  "printenv",
  "env",
  "command",
  "builtin",
  "hash",
  "times",
  "trap",
]);

/** Programs that only look at names and metadata: they neither open files nor change them. */
const NAMES_ONLY: ReadonlySet<string> = new Set([
  "ls",
  "dir",
  "stat",
  "du",
  "df",
  "test",
  "[",
  "cd",
  "pushd",
  "popd",
  "dirs",
  "realpath",
  "readlink",
  "dirname",
  "basename",
  "exa",
  "eza",
  "lsd",
  "tree",
]);

/**
 * Programs that look at names and metadata, never at file contents: {@link NAMES_ONLY}, the tree walkers and
 * the metadata writers (whose writes the write checks see). Their operands are not reads; options of theirs
 * that do read files (`du --files0-from`, `tree --fromfile`) are described in the reader table.
 */
export const METADATA_ONLY: ReadonlySet<string> = new Set([
  ...NAMES_ONLY,
  "mkdir",
  "chmod",
  "chown",
  "touch",
  "find",
  "fd",
  "fdfind",
]);

/** Which operands a program reads. */
type OperandsRead = "all" | "first" | "but-first" | "but-last" | "none";

/** How a reading program lays out its arguments. */
interface ReaderSpec {
  options: OptionSpec;
  /** Short letters and long names whose values are files the program reads. */
  fileOptions?: { short: string; long: readonly string[] };
  /** Of those, the ones whose file names more files the program reads (`--files0-from`). */
  listOptions?: { short: string; long: readonly string[] };
  /** Whether the operands are such lists (`md5sum -c`). */
  listOperands?: (args: ReturnType<typeof parseOptions>) => boolean;
  /** The first operand is a pattern or program, unless one of these options gives it. */
  programFirst?: { short: string; long: readonly string[] };
  /**
   * Operands that are read: `all`, only the `first` (the second is an output), all `but-first` (the first is the
   * archive written) or all `but-last`.
   */
  operands?: OperandsRead | ((args: ReturnType<typeof parseOptions>) => OperandsRead);
  /** Whether the tree under each operand is read. */
  recursive?: (args: ReturnType<typeof parseOptions>, invocation: Invocation) => boolean;
}

const GREP: ReaderSpec = {
  options: GREP_OPTIONS,
  fileOptions: { short: "f", long: ["file", "exclude-from"] },
  programFirst: { short: "ef", long: ["regexp", "file"] },
  recursive: (parsed) =>
    hasOption(parsed, "rR", "recursive", "dereference-recursive") ||
    optionsNamed(parsed, "d", "directories").some((p) => /^r/.test(p.value ?? "")),
};

const RG: ReaderSpec = {
  options: RG_OPTIONS,
  fileOptions: { short: "f", long: ["file", "ignore-file"] },
  programFirst: { short: "ef", long: ["regexp", "file"] },
  // `--files` lists the names it would search, `--type-list` its file types: neither reads a file's content (rg
  // takes no abbreviation: `--file` is the pattern file)
  recursive: (parsed) =>
    !parsed.some((p) => p.kind === "long" && (p.name === "files" || p.name === "type-list")),
};

const SED: ReaderSpec = {
  options: SED_OPTIONS,
  fileOptions: { short: "f", long: ["file"] },
  programFirst: { short: "ef", long: ["expression", "file"] },
};

const AWK: ReaderSpec = {
  options: AWK_OPTIONS,
  fileOptions: { short: "fEi", long: ["file", "exec", "include"] },
  programFirst: { short: "feE", long: ["file", "source", "exec"] },
};

const HEAD: ReaderSpec = {
  options: {
    shortValue: "nc",
    longValue: ["lines", "bytes", "pid", "sleep-interval", "max-unchanged-stats"],
  },
};

/**
 * Programs that take more of their own options from a file (or `-`, standard input): `curl -K`, `wget --config`
 * and `wget -e` (one startup command). Those options can name files the program reads and sends.
 */
const OPTIONS_FILES: ReadonlyMap<string, { options: OptionSpec; short: string; long: string[] }> = new Map([
  ["curl", { options: { shortValue: "K", longValue: ["config"] }, short: "K", long: ["config"] }],
  [
    "wget",
    {
      options: { shortValue: "e", longValue: ["config", "execute"] },
      short: "e",
      long: ["config", "execute"],
    },
  ],
  [
    "wget2",
    {
      options: { shortValue: "e", longValue: ["config", "execute"] },
      short: "e",
      long: ["config", "execute"],
    },
  ],
]);

/** GNU `--files0-from=F`: F lists the files to read, NUL-separated. */
const FILES0_FROM = { short: "", long: ["files0-from"] } as const;

const RECURSIVE_R = (parsed: ReturnType<typeof parseOptions>): boolean =>
  hasOption(parsed, "rRa", "recursive", "archive");

const READERS: ReadonlyMap<string, ReaderSpec> = new Map<string, ReaderSpec>([
  ["cat", { options: {} }],
  ["tac", { options: { shortValue: "s", longValue: ["separator"] } }],
  ["head", HEAD],
  ["tail", HEAD],
  [
    "wc",
    {
      options: { longValue: ["files0-from"] },
      fileOptions: { short: "", long: ["files0-from"] },
      listOptions: FILES0_FROM,
    },
  ],
  ["grep", GREP],
  ["egrep", GREP],
  ["fgrep", GREP],
  ["rg", RG],
  ["sed", SED],
  ["gsed", SED],
  ["awk", AWK],
  ["gawk", AWK],
  ["mawk", AWK],
  ["nawk", AWK],
  [
    "sort",
    {
      options: SORT_OPTIONS,
      fileOptions: { short: "", long: ["files0-from", "random-source"] },
      listOptions: FILES0_FROM,
    },
  ],
  [
    "uniq",
    {
      options: UNIQ_OPTIONS,
      operands: "first",
    },
  ],
  [
    "cut",
    {
      options: {
        shortValue: "bcdf",
        longValue: ["bytes", "characters", "delimiter", "fields", "output-delimiter"],
      },
    },
  ],
  [
    "diff",
    {
      options: {
        shortValue: "CUIFLxXS",
        longValue: ["context", "unified", "ignore-matching-lines", "label", "exclude", "exclude-from"],
      },
      fileOptions: { short: "X", long: ["exclude-from", "from-file", "to-file"] },
      recursive: (parsed) => hasOption(parsed, "r", "recursive"),
    },
  ],
  [
    "du",
    {
      options: {
        shortValue: "BdtX",
        longValue: [
          "block-size",
          "max-depth",
          "threshold",
          "exclude-from",
          "files0-from",
          "exclude",
          "time-style",
        ],
        longOptionalValue: ["time"],
      },
      fileOptions: { short: "X", long: ["exclude-from", "files0-from"] },
      listOptions: FILES0_FROM,
      operands: "none",
    },
  ],
  [
    "tree",
    {
      options: { shortValue: "LPIoH", longValue: ["filelimit", "timefmt", "sort", "charset"] },
      // with --fromfile the operands are listings tree reads and prints
      operands: (parsed) => (hasOption(parsed, "", "fromfile") ? "all" : "none"),
    },
  ],
  ["cmp", { options: { shortValue: "in", longValue: ["ignore-initial", "bytes"] } }],
  ["comm", { options: { longValue: ["output-delimiter"] } }],
  ["join", { options: { shortValue: "aejot12", longValue: [] } }],
  ["paste", { options: { shortValue: "d", longValue: ["delimiters"] } }],
  ["nl", { options: { shortValue: "bdfhilnpsvw" } }],
  ["od", { options: { shortValue: "AjNSstw" } }],
  ["hexdump", { options: { shortValue: "efnos" }, fileOptions: { short: "f", long: [] } }],
  ["xxd", { options: { shortValue: "cglosn" }, operands: "first" }],
  ["fold", { options: { shortValue: "w", longValue: ["width"] } }],
  ["fmt", { options: { shortValue: "wpgd", longValue: ["width", "prefix", "goal"] } }],
  ["column", { options: { shortValue: "csoNRHWEl" } }],
  ["expand", { options: { shortValue: "t", longValue: ["tabs"] } }],
  ["unexpand", { options: { shortValue: "t", longValue: ["tabs"] } }],
  ["strings", { options: { shortValue: "nteo" } }],
  ["base64", { options: { shortValue: "w", longValue: ["wrap"] } }],
  ["base32", { options: { shortValue: "w", longValue: ["wrap"] } }],
  [
    "date",
    {
      options: DATE_OPTIONS,
      operands: "none",
      fileOptions: { short: "fr", long: ["file", "reference"] },
    },
  ],
  [
    "cp",
    {
      options: COPY_OPTIONS,
      operands: "but-last",
      recursive: RECURSIVE_R,
    },
  ],
  ["scp", { options: SCP_OPTIONS, operands: "but-last", recursive: RECURSIVE_R }],
  [
    "rsync",
    {
      options: RSYNC_OPTIONS,
      fileOptions: { short: "", long: ["files-from", "password-file", "exclude-from", "include-from"] },
      listOptions: { short: "", long: ["files-from"] },
      operands: "but-last",
      recursive: RECURSIVE_R,
    },
  ],
  [
    "zip",
    {
      options: { shortValue: "bnt", longValue: [] },
      operands: "but-first",
      recursive: (parsed) => hasOption(parsed, "rR", "recurse-paths", "recurse-patterns"),
    },
  ],
]);

/** Checksum programs: they read every operand and print digests. */
export const CHECKSUM_PROGRAMS: readonly string[] = [
  "md5sum",
  "sha1sum",
  "sha224sum",
  "sha256sum",
  "sha384sum",
  "sha512sum",
  "b2sum",
  "cksum",
  "sum",
];

/** A checksum program with `-c`/`--check` reads the files its operands list. */
const CHECKSUM: ReaderSpec = {
  options: { shortValue: "", longValue: [] },
  listOperands: (parsed) => hasOption(parsed, "c", "check"),
};

for (const sum of CHECKSUM_PROGRAMS) (READERS as Map<string, ReaderSpec>).set(sum, CHECKSUM);
(READERS as Map<string, ReaderSpec>).set("file", {
  options: {
    shortValue: "emfFP",
    longValue: ["exclude", "files-from", "magic-file", "separator", "parameter"],
  },
  fileOptions: { short: "fm", long: ["files-from", "magic-file"] },
  listOptions: { short: "f", long: ["files-from"] },
});

/** The words a tar call reads: inputs when creating or appending, the archive, `-T` lists; all recursive. */
function tarReads(invocation: Invocation): ReadWord[] {
  const args = [...invocation.args];
  if (args[0] !== undefined && /^[A-Za-z]+$/.test(args[0])) args[0] = `-${args[0]}`;
  const parsed = parseOptions(args, TAR_OPTIONS);
  const out: ReadWord[] = [];
  const dynamic = (i: number): boolean => invocation.dynamic.has(i) || invocation.dynamic.has(i + 1);
  let base: string | undefined;
  for (const p of parsed) {
    if (
      (p.kind === "short" && p.name === "C") ||
      (p.kind === "long" && "directory".startsWith(p.name) && p.name.length > 1)
    ) {
      base = p.value;
      if (p.value !== undefined) out.push({ text: p.value, dynamic: dynamic(p.index), recursive: false });
      continue;
    }
    const isFileList =
      (p.kind === "short" && "fTX".includes(p.name)) ||
      (p.kind === "long" && ["file", "files-from", "exclude-from"].some((n) => n.startsWith(p.name)));
    const lists =
      (p.kind === "short" && p.name === "T") || (p.kind === "long" && "files-from".startsWith(p.name));
    if (isFileList && p.value !== undefined)
      out.push({
        text: p.value,
        dynamic: dynamic(p.index),
        recursive: false,
        ...(lists ? { lists: "files" as const } : {}),
      });
    if (p.kind === "operand")
      out.push({
        text: p.name,
        dynamic: invocation.dynamic.has(p.index),
        recursive: true,
        ...(base === undefined ? {} : { base }),
      });
  }
  return out;
}

/** jq: filter first (unless `-f`), then files; `--rawfile`/`--slurpfile NAME FILE` read, `--args` ends files. */
function jqReads(invocation: Invocation): ReadWord[] {
  const out: ReadWord[] = [];
  const args = invocation.args;
  let filterGiven = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const at = (k: number): ReadWord => ({
      text: args[k] ?? "",
      dynamic: invocation.dynamic.has(k),
      recursive: false,
    });
    if (word === "--args" || word === "--jsonargs") break;
    if (word === "--rawfile" || word === "--slurpfile") {
      if (i + 2 < args.length) out.push(at(i + 2));
      i += 2;
      continue;
    }
    if (word === "--arg" || word === "--argjson") {
      i += 2;
      continue;
    }
    if (word === "-f" || word === "--from-file") {
      if (i + 1 < args.length) out.push(at(i + 1));
      filterGiven = true;
      i++;
      continue;
    }
    if (word === "-L" || word === "--indent") {
      i++;
      continue;
    }
    if (word.startsWith("-") && word !== "-") continue;
    if (!filterGiven) {
      filterGiven = true;
      continue;
    }
    out.push(at(i));
  }
  return out;
}

/**
 * The file GNU find reads its starting points from (`-files0-from F`, NUL-separated; find 4.9): a list of files,
 * whose every entry find names in an error when it is not a path (so it prints the list). find reads no other
 * file's content.
 */
function findReads(invocation: Invocation): ReadWord[] {
  const out: ReadWord[] = [];
  invocation.args.forEach((word, i) => {
    if (word !== "-files0-from") return;
    const dynamic = invocation.dynamic.has(i + 1);
    out.push({ text: invocation.args[i + 1] ?? "-", dynamic, recursive: false, lists: "files" });
  });
  return out;
}

/**
 * The words a command reads as files, or `undefined` when its program reads none (`echo`, `ls`, `test`).
 * Programs not described count every operand and every option value (`--x=$y`) as read.
 */
export function readWords(invocation: Invocation): ReadWord[] | undefined {
  const name = invocation.name;
  if (NO_FILES.has(name)) return undefined;
  if (name === "find") return findReads(invocation);
  if (METADATA_ONLY.has(name) && !READERS.has(name)) return undefined;
  if (name === "tar" || name === "gtar" || name === "bsdtar") return tarReads(invocation);
  if (name === "jq" || name === "gojq" || name === "jaq") return jqReads(invocation);
  const spec = READERS.get(name);
  const parsed = parseOptions(invocation.args, spec?.options ?? {});
  const dynamic = (i: number): boolean => invocation.dynamic.has(i);
  const recursive = spec?.recursive?.(parsed, invocation) ?? false;
  const out: ReadWord[] = [];
  const fileOptions = spec?.fileOptions;
  for (const p of parsed) {
    if (p.kind === "operand" || p.value === undefined) continue;
    const isFile =
      fileOptions !== undefined && optionsNamed([p], fileOptions.short, ...fileOptions.long).length > 0;
    const lists =
      spec?.listOptions !== undefined &&
      optionsNamed([p], spec.listOptions.short, ...spec.listOptions.long).length > 0;
    // an undescribed program's option values may be files too (`--config=$X`)
    if (isFile || spec === undefined)
      out.push({
        text: p.value,
        dynamic: dynamic(p.index) || dynamic(p.index + 1),
        recursive: false,
        ...(lists ? { lists: "files" as const } : {}),
      });
  }
  let files = operands(parsed);
  const given = spec?.programFirst;
  if (given !== undefined && optionsNamed(parsed, given.short, ...given.long).length === 0)
    files = files.slice(1);
  const which = typeof spec?.operands === "function" ? spec.operands(parsed) : (spec?.operands ?? "all");
  if (which === "none") files = [];
  else if (which === "first") files = files.slice(0, 1);
  else if (which === "but-first") files = files.slice(1);
  else if (which === "but-last") files = files.slice(0, -1);
  const listed = spec?.listOperands?.(parsed) === true;
  for (const p of files)
    out.push({
      text: p.name,
      dynamic: dynamic(p.index),
      recursive,
      ...(listed ? { lists: "files" as const } : {}),
    });
  if (recursive && files.length === 0 && which === "all")
    out.push({ text: ".", dynamic: false, recursive: true });
  if (name === "git") out.push(...(gitNoIndexReads(invocation) ?? []), ...gitObjectPathReads(invocation));
  const optionFiles = OPTIONS_FILES.get(name);
  if (optionFiles !== undefined) {
    const own = parseOptions(invocation.args, optionFiles.options);
    for (const p of optionsNamed(own, optionFiles.short, ...optionFiles.long)) {
      const dyn = dynamic(p.index) || dynamic(p.index + 1);
      out.push({ text: p.value ?? "-", dynamic: dyn, recursive: false, lists: "options" });
    }
  }
  const sed = spec === SED ? sedCall(invocation) : undefined;
  for (const script of sed?.scripts ?? [])
    for (const file of script.reads) out.push({ text: file, dynamic: false, recursive: false });
  return out;
}

/**
 * Whether a command may open a file by a path relative to the directory it runs in: false for programs that
 * open no file ({@link NO_FILES}, {@link NAMES_ONLY}) and for described readers whose every read word is a
 * static absolute path (`cat /etc/hosts`, `date`); true for everything else, including programs that load the
 * directory's configuration (git, npm), which are not described here.
 */
export function readsRelativePaths(invocation: Invocation): boolean {
  const name = invocation.name;
  if (NO_FILES.has(name) || (NAMES_ONLY.has(name) && !READERS.has(name))) return false;
  if (!READERS.has(name)) return true;
  const reads = readWords(invocation) ?? [];
  return reads.some((r) => r.dynamic || r.base !== undefined || !/^[/~]/.test(r.text));
}
