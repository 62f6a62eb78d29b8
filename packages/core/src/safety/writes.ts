import { basename, scanOptions, type Word } from "../shell/options.js";
import { COPY_OPTIONS, FLOCK_OPTIONS, SORT_OPTIONS, UNIQ_OPTIONS } from "../shell/tool-options.js";
import { invocationOf, operands, optionsNamed, parseOptions, type Invocation } from "./argv.js";
import { finding } from "./codes.js";
import { isBlockDevice } from "./destroy.js";
import { gitOutputFiles, gitWorktreeWrites } from "./git.js";
import { inPlaceFlag } from "./inline.js";
import { literalPrefix, resolvePath } from "./paths.js";
import { removalOf } from "./rm.js";
import { isProtectedPath, isSensitiveWrite } from "./sensitive.js";
import { inWorkspace } from "./targets.js";
import { sedCall } from "./tools.js";
import type { ExtractedCommand } from "../shell/types.js";
import type { Finding, SafetyContext } from "./types.js";

/** A place a command writes to. */
export interface WriteTarget {
  /** The target as written (after quote removal), or the source text of a dynamic word. */
  word: string;
  /** The word is computed at run time. */
  dynamic: boolean;
  /** How it is written, for messages: `>`, `tee`, `sort -o`, `cp`. */
  via: string;
  /**
   * `side`: a redirection or an output option of a tool that otherwise only reads (such writes ask unless
   * workspace writes are allowed); `main`: what the command is for (`cp`, `rm`, `sed -i`), left to policy
   * except for sensitive and protected paths; `build`: an output option of a project's build or test entry point
   * (`go build -o`, `go test -coverprofile=`), which is what the build is for inside the workspace and a write
   * like `side` anywhere else.
   */
  kind: "side" | "main" | "build";
  /** The command changes only metadata or creates empty entries (`chmod`, `touch`, `mkdir`). */
  metadataOnly?: boolean;
}

const WRITE_OPS = new Set([">", ">>", ">|", "&>", "&>>", "<>", ">&", "&>|"]);
const HARMLESS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

/** Write targets of a command's redirections (fd duplications such as `2>&1` are not writes). */
export function redirectWrites(command: ExtractedCommand): WriteTarget[] {
  const out: WriteTarget[] = [];
  for (const r of command.redirects) {
    if (!WRITE_OPS.has(r.op)) continue;
    if (r.target !== null && (r.op === ">&" || r.op === "<>") && /^(\d+|-)$/.test(r.target)) continue;
    if (r.target !== null && r.op === ">&" && /^\d+-?$/.test(r.target)) continue;
    const word = r.target ?? r.text.replace(/^\s*(\d+|\{\w+\})?(>>|>\||>&|&>>|&>\||&>|<>|>)\s*/, "");
    out.push({ word, dynamic: r.target === null, via: r.op, kind: "side" });
  }
  return out;
}

/** PowerShell cmdlets that write files: the parameters naming the target, and its position when unnamed. */
const POWERSHELL_WRITERS: Record<string, { params: string[]; position: number; kind: WriteTarget["kind"] }> =
  {
    "set-content": { params: ["path", "literalpath"], position: 0, kind: "main" },
    sc: { params: ["path", "literalpath"], position: 0, kind: "main" },
    "add-content": { params: ["path", "literalpath"], position: 0, kind: "main" },
    ac: { params: ["path", "literalpath"], position: 0, kind: "main" },
    "out-file": { params: ["filepath", "literalpath", "path"], position: 0, kind: "side" },
    "new-item": { params: ["path"], position: 0, kind: "main" },
    ni: { params: ["path"], position: 0, kind: "main" },
    "copy-item": { params: ["destination"], position: 1, kind: "main" },
    copy: { params: ["destination"], position: 1, kind: "main" },
    cpi: { params: ["destination"], position: 1, kind: "main" },
    "move-item": { params: ["destination", "path", "literalpath"], position: 1, kind: "main" },
    mi: { params: ["destination", "path", "literalpath"], position: 1, kind: "main" },
    "remove-item": { params: ["path", "literalpath"], position: 0, kind: "main" },
  };

/** PowerShell parameters of those cmdlets that take a value but are not targets. */
const POWERSHELL_VALUED = [
  "value",
  "encoding",
  "itemtype",
  "filter",
  "include",
  "exclude",
  "credential",
  "stream",
  "width",
  "inputobject",
];

const EDITORS = new Set([
  "vi",
  "vim",
  "nvim",
  "view",
  "ex",
  "ed",
  "nano",
  "pico",
  "emacs",
  "micro",
  "joe",
  "kak",
  "helix",
  "hx",
  "gedit",
  "kate",
]);

/** tsc options (lower case) whose value is a file or folder it writes. */
const TSC_WRITERS = new Set([
  "generatecpuprofile",
  "generatetrace",
  "outdir",
  "outfile",
  "out",
  "declarationdir",
  "tsbuildinfofile",
]);

/**
 * go flags (single or double dash, `=value` or the next word) whose value is a file or folder the build or test
 * writes: the binary, test profiles and traces, the build's debug traces.
 */
const GO_WRITERS = new Set([
  "o",
  "coverprofile",
  "cpuprofile",
  "memprofile",
  "blockprofile",
  "mutexprofile",
  "trace",
  "outputdir",
  "debug-actiongraph",
  "debug-deps-trace",
  "debug-trace",
]);

/** Write targets named by a command's arguments (destinations, in-place files, output options). */
export function argumentWrites(invocation: Invocation, context: SafetyContext): WriteTarget[] {
  const { name, args } = invocation;
  const out: WriteTarget[] = [];
  const at = (index: number, via: string, kind: WriteTarget["kind"]): void => {
    out.push({ word: args[index]!, dynamic: invocation.dynamic.has(index), via, kind });
  };
  const value = (word: string, dynamic: boolean, via: string, kind: WriteTarget["kind"]): void => {
    out.push({ word, dynamic, via, kind });
  };
  const removal = removalOf(invocation, context);
  if (removal !== undefined) {
    for (const t of removal.targets) value(t.word, t.kind !== "path", name, "main");
    return out;
  }
  switch (name) {
    case "tee": {
      const parsed = parseOptions(args, {});
      for (const op of operands(parsed)) at(op.index, "tee", "side");
      break;
    }
    case "cp":
    case "mv":
    case "install":
    case "ln":
    case "link": {
      const parsed = parseOptions(args, COPY_OPTIONS);
      const targetDir = optionsNamed(parsed, "t", "target-directory")[0];
      const ops = operands(parsed);
      if (targetDir?.value !== undefined)
        value(targetDir.value, invocation.dynamic.has(targetDir.index + 1), name, "main");
      if (name === "mv") for (const op of ops) at(op.index, "mv", "main");
      else if (targetDir === undefined && ops.length > 0) {
        const last = ops[ops.length - 1]!;
        if (ops.length === 1 && (name === "ln" || name === "link"))
          value(last.name.split("/").pop() ?? last.name, false, name, "main");
        else at(last.index, name, "main");
      }
      break;
    }
    case "touch":
    case "truncate":
    case "mkdir":
    case "mkfifo":
    case "chmod":
    case "chown":
    case "chgrp":
    case "chattr":
    case "setfacl":
    case "xattr": {
      const parsed = parseOptions(args, {
        shortValue: name === "truncate" ? "sr" : name === "touch" ? "drt" : name === "mkdir" ? "m" : "",
        longValue: ["size", "reference", "date", "mode", "from"],
      });
      let ops = operands(parsed);
      if (
        ["chmod", "chown", "chgrp", "setfacl"].includes(name) &&
        !parsed.some((p) => p.kind === "long" && p.name.startsWith("ref"))
      )
        ops = ops.slice(1);
      for (const op of ops)
        out.push({
          word: args[op.index]!,
          dynamic: invocation.dynamic.has(op.index),
          via: name,
          kind: "main",
          metadataOnly: name !== "truncate",
        });
      break;
    }
    case "dd":
      args.forEach((a, i) => {
        if (a.startsWith("of=")) value(a.slice(3), invocation.dynamic.has(i), "dd of=", "main");
      });
      break;
    case "sort":
    case "shuf":
    case "base64":
    case "gbase64":
    case "tree": {
      const parsed = parseOptions(
        args,
        name === "sort"
          ? SORT_OPTIONS
          : {
              shortValue: name === "shuf" ? "noi" : "o",
              longValue: ["output", "random-source", "input-range", "head-count"],
            },
      );
      for (const p of optionsNamed(parsed, "o", "output")) {
        if (p.value !== undefined)
          value(
            p.value,
            invocation.dynamic.has(p.index) || invocation.dynamic.has(p.index + 1),
            `${name} -o`,
            "side",
          );
      }
      break;
    }
    case "uniq": {
      const parsed = parseOptions(args, UNIQ_OPTIONS);
      const ops = operands(parsed);
      if (ops.length >= 2) at(ops[1]!.index, "uniq", "side");
      break;
    }
    case "find":
      args.forEach((a, i) => {
        if (/^-(fprint|fprint0|fprintf|fls)$/.test(a) && i + 1 < args.length) at(i + 1, `find ${a}`, "side");
      });
      break;
    case "git":
      for (const o of gitOutputFiles(invocation)) value(o.path, false, `git ${o.option}`, "side");
      for (const w of gitWorktreeWrites(invocation)) at(w.index, "git", "main");
      break;
    case "curl": {
      const parsed = parseOptions(args, {
        shortValue: "oXHdFuAbceEKmrTwxyz",
        longValue: [
          "output",
          "url",
          "header",
          "data",
          "request",
          "user",
          "config",
          "cookie-jar",
          "dump-header",
          "trace",
          "trace-ascii",
          "stderr",
          "etag-save",
          "hsts",
          "alt-svc",
        ],
      });
      for (const p of optionsNamed(
        parsed,
        "oc",
        "output",
        "cookie-jar",
        "dump-header",
        "trace",
        "trace-ascii",
        "stderr",
        "etag-save",
      )) {
        if (p.value !== undefined && p.value !== "-")
          value(
            p.value,
            invocation.dynamic.has(p.index) || invocation.dynamic.has(p.index + 1),
            `curl ${p.kind === "short" ? `-${p.name}` : `--${p.name}`}`,
            "side",
          );
      }
      break;
    }
    case "wget":
    case "wget2": {
      const parsed = parseOptions(args, {
        shortValue: "OoaPeiUtTwQ",
        longValue: [
          "output-document",
          "output-file",
          "append-output",
          "directory-prefix",
          "execute",
          "input-file",
          "user-agent",
        ],
      });
      for (const p of optionsNamed(parsed, "Ooa", "output-document", "output-file", "append-output")) {
        if (p.value !== undefined && p.value !== "-")
          value(
            p.value,
            invocation.dynamic.has(p.index) || invocation.dynamic.has(p.index + 1),
            `wget -${p.kind === "short" ? p.name : p.name}`,
            "side",
          );
      }
      break;
    }
    case "tsc":
      // tsc reads its options case-insensitively; these write files or folders even with --noEmit
      for (let i = 0; i < args.length; i++) {
        const m = /^--?([A-Za-z]+)(?:=(.*))?$/.exec(args[i]!);
        if (m === null || !TSC_WRITERS.has(m[1]!.toLowerCase())) continue;
        if (m[2] !== undefined) value(m[2], invocation.dynamic.has(i), `tsc --${m[1]!}`, "side");
        else if (i + 1 < args.length) at(++i, `tsc --${m[1]!}`, "side");
      }
      break;
    case "cargo":
      for (let i = 1; i < args.length; i++) {
        const m = /^--(target-dir|artifact-dir|out-dir)(?:=(.*))?$/.exec(args[i]!);
        if (m === null) continue;
        if (m[2] !== undefined) value(m[2], invocation.dynamic.has(i), `cargo --${m[1]!}`, "build");
        else if (i + 1 < args.length) at(++i, `cargo --${m[1]!}`, "build");
      }
      break;
    case "go":
      for (let i = 1; i < args.length; i++) {
        const m = /^--?([A-Za-z.-]+)(?:=(.*))?$/.exec(args[i]!);
        const flag = m?.[1]?.replace(/^test\./, "");
        if (m === null || flag === undefined || !GO_WRITERS.has(flag)) continue;
        if (m[2] !== undefined) value(m[2], invocation.dynamic.has(i), `go -${m[1]!}`, "build");
        else if (i + 1 < args.length) at(++i, `go -${m[1]!}`, "build");
      }
      break;
    default:
      break;
  }
  const powershell = Object.hasOwn(POWERSHELL_WRITERS, name) ? POWERSHELL_WRITERS[name] : undefined;
  if (powershell !== undefined) {
    const positional: number[] = [];
    for (let i = 0; i < args.length; i++) {
      const word = args[i]!;
      const param = /^-([A-Za-z]+)(:.*)?$/.exec(word);
      if (!param) {
        positional.push(i);
        continue;
      }
      const p = param[1]!.toLowerCase();
      const named = powershell.params.some((n) => n.startsWith(p)) && p.length >= 2;
      if (param[2] !== undefined) {
        if (named) value(param[2].slice(1), invocation.dynamic.has(i), name, powershell.kind);
        continue;
      }
      if (named && i + 1 < args.length) at(++i, name, powershell.kind);
      else if (POWERSHELL_VALUED.some((n) => n.startsWith(p)) && p.length >= 2) i++;
    }
    const index = positional[powershell.position];
    if (index !== undefined && !out.some((t) => t.via === name)) at(index, name, powershell.kind);
  }
  const sed = sedCall(invocation);
  if (sed !== undefined) {
    if (sed.inPlace !== undefined) for (const i of sed.files) at(i, `sed ${sed.inPlace}`, "main");
    if (!sed.sandbox)
      for (const s of sed.scripts)
        for (const w of s.writes) if (!HARMLESS.test(w)) value(w, false, "sed w", "side");
  }
  const perlInPlace = inPlaceFlag(invocation);
  if (perlInPlace !== undefined) {
    const parsed = parseOptions(args, { shortValue: "eEIMmx", shortOptionalValue: "il0" });
    const ops = operands(parsed);
    const hasCode = parsed.some((p) => p.kind === "short" && (p.name === "e" || p.name === "E"));
    for (const op of hasCode ? ops : ops.slice(1)) at(op.index, `${name} ${perlInPlace}`, "main");
  }
  if (EDITORS.has(name)) {
    args.forEach((a, i) => {
      if (!a.startsWith("-") && !a.startsWith("+")) at(i, name, "main");
    });
  }
  return out;
}

/** Where a write target may land: a path, or any place below a folder (dynamic tail), or unknown. */
function placesOf(target: WriteTarget, context: SafetyContext): { path: string | null; below: boolean } {
  if (!target.dynamic) return { path: resolvePath(target.word, context), below: false };
  const { prefix, stop } = literalPrefix(target.word, context);
  if (stop === null) return { path: resolvePath(prefix, context), below: false };
  const slash = prefix.lastIndexOf("/");
  if (slash < 0) return { path: null, below: true };
  return { path: resolvePath(prefix.slice(0, slash + 1), context), below: true };
}

/**
 * Files a runner in front of the program opens for writing itself: `flock FILE cmd` (and `flock FILE -c cmd`)
 * creates its lock file when it is missing, wherever that is. A descriptor number (`flock 9`) opens nothing.
 * Only the runners the analysis unwrapped (`wrappers`) are looked for, in the words before the program.
 */
export function runnerWrites(command: ExtractedCommand): WriteTarget[] {
  if (!command.wrappers.includes("flock")) return [];
  const words: Word[] = command.argv.map((text, i) => ({ text, dynamic: command.dynamic.includes(i) }));
  const end = command.effectiveStart ?? words.length;
  const out: WriteTarget[] = [];
  for (let k = 0; k < end; k++) {
    if (words[k]!.dynamic || basename(words[k]!.text) !== "flock") continue;
    const file = words[scanOptions(words, k + 1, FLOCK_OPTIONS).next];
    if (file === undefined || /^\d+$/.test(file.text)) continue;
    out.push({ word: file.text, dynamic: file.dynamic, via: "flock", kind: "side", metadataOnly: true });
  }
  return out;
}

/**
 * Every place one command writes, as the classifier reads them: its redirections, what a runner in front of it
 * opens, and the targets its arguments name (destinations, in-place files, output options). Hosts use it where
 * they must know where bound content writes (an approval refused for a write into a place that runs later).
 */
export function writeTargetsOf(command: ExtractedCommand, context: SafetyContext): WriteTarget[] {
  const out = [...redirectWrites(command), ...runnerWrites(command)];
  if (command.lookupOnly) return out;
  const invocation = invocationOf(command);
  return invocation === undefined ? out : [...out, ...argumentWrites(invocation, context)];
}

/** Classifies every write of a command: protected and sensitive paths deny, side writes ask. */
export function classifyWrites(
  targets: readonly WriteTarget[],
  command: ExtractedCommand,
  context: SafetyContext,
): Finding[] {
  const out: Finding[] = [];
  for (const target of targets) {
    if (!target.dynamic && HARMLESS.test(target.word)) continue;
    const { path, below } = placesOf(target, context);
    // a dynamic tail under a folder may name anything inside it: test a child of the folder
    const probe = path === null ? null : below ? `${path.replace(/\/$/, "")}/x` : path;
    if (probe !== null && isProtectedPath(probe, context)) {
      out.push(
        finding(
          "self.protected-write",
          `${target.via} writes to ${target.word}, which holds Slashi's or an agent's settings`,
          command,
          target.word,
        ),
      );
      continue;
    }
    if (probe !== null && isSensitiveWrite(probe, context, target.metadataOnly === true)) {
      out.push(
        finding(
          "write.sensitive-path",
          `${target.via} writes to ${target.word}, a sensitive path`,
          command,
          target.word,
        ),
      );
      continue;
    }
    if (path !== null && !below && isBlockDevice(path) && target.kind === "side") {
      out.push(
        finding(
          "destroy.block-device",
          `${target.via} writes to the block device ${target.word}`,
          command,
          target.word,
        ),
      );
      continue;
    }
    if (target.kind === "main") continue;
    if (target.kind === "build" && !target.dynamic && path !== null && inWorkspace(path, context)) continue;
    if (target.dynamic || path === null) {
      out.push(
        finding(
          "write.dynamic-target",
          `${target.via} writes to ${target.word}, a name computed at run time`,
          command,
          target.word,
        ),
      );
      continue;
    }
    if (context.allowWorkspaceWrites && inWorkspace(path, context)) continue;
    out.push(finding("write.file", `${target.via} writes to ${target.word}`, command, target.word));
  }
  return out;
}
