import { hasOption, operands, parseOptions, type Invocation } from "./argv.js";
import { finding } from "./codes.js";
import { catastropheOf, targetOf } from "./targets.js";
import type { Finding, SafetyContext } from "./types.js";

/** Block devices by path: disks, partitions, device-mapper volumes, raw disks on macOS. */
const BLOCK_DEVICE =
  /^\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d|mapper\/|dm-\d|md\d|loop\d|sr\d|nbd\d|zd\d|bcache\d|root$|disk\/|mem$|kmem$|port$)/i;

/** True when a path names a block device. */
export function isBlockDevice(path: string): boolean {
  return BLOCK_DEVICE.test(path) || /^\\\\\.\\physicaldrive/i.test(path);
}

const FILESYSTEM_MAKERS = /^(mkfs(\..+)?|mke2fs|mkswap|wipefs|newfs(_.+)?|mkdosfs|mkntfs|mkexfatfs|mkfs_.+)$/;
const PARTITIONERS = new Set([
  "fdisk",
  "sfdisk",
  "cfdisk",
  "parted",
  "gdisk",
  "sgdisk",
  "cgdisk",
  "diskpart",
]);
const POWER = new Set(["shutdown", "reboot", "poweroff", "halt", "kexec"]);

function power(invocation: Invocation): Finding[] {
  const { name, args, command } = invocation;
  if (POWER.has(name)) {
    if (name === "shutdown" && args.some((a) => a === "-c" || a === "/a")) return [];
    return [finding("destroy.power", `${name} stops or restarts the machine`, command, name)];
  }
  if ((name === "init" || name === "telinit") && args.some((a) => /^[06sS1]$/.test(a))) {
    return [finding("destroy.power", `${name} ${args.join(" ")} changes the run level`, command, args[0])];
  }
  if (name === "systemctl" || name === "loginctl") {
    const verb = args.find((a) => !a.startsWith("-"));
    if (
      verb !== undefined &&
      /^(poweroff|reboot|halt|kexec|soft-reboot|rescue|emergency|isolate)$/.test(verb)
    ) {
      return [finding("destroy.power", `${name} ${verb} stops or restarts the machine`, command, verb)];
    }
  }
  if (name === "stop-computer" || name === "restart-computer")
    return [finding("destroy.power", `${name} stops or restarts the machine`, command, name)];
  return [];
}

function killAll(invocation: Invocation): Finding[] {
  const { name, args, command } = invocation;
  if (name === "killall5")
    return [finding("destroy.kill-all", "killall5 signals every process", command, name)];
  if (name === "kill") {
    let operandsStarted = false;
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a === "--") {
        operandsStarted = true;
        continue;
      }
      if (!operandsStarted && (a === "-s" || a === "-n")) {
        i++;
        continue;
      }
      const isPidAll =
        a === "-1" &&
        (operandsStarted || args.slice(0, i).some((x) => /^-(\d+|[A-Z]+|SIG[A-Z]+|s|n)$/.test(x)));
      if (isPidAll || (operandsStarted && a === "-1"))
        return [
          finding("destroy.kill-all", "kill -1 signals every process the user may signal", command, "-1"),
        ];
    }
    return [];
  }
  if (name === "pkill" || name === "killall") {
    const parsed = parseOptions(args, { shortValue: name === "pkill" ? "sgGPtuUFO" : "sugyoZ" });
    const patterns = operands(parsed).map((p) => p.name);
    if (patterns.some((p) => /^(\.\*?|\.\+|\^|\$|\^\.\*\$?|\.\*\$|)$/.test(p))) {
      return [
        finding(
          "destroy.kill-all",
          `${name} with a pattern that matches every process`,
          command,
          patterns[0],
        ),
      ];
    }
    if (name === "killall" && hasOption(parsed, "", "all")) return [];
    if (hasOption(parsed, "u", "") && patterns.length === 0)
      return [finding("destroy.kill-all", `${name} -u kills every process of a user`, command, "-u")];
  }
  return [];
}

const PERMISSION_TOOLS = new Set(["chmod", "chown", "chgrp", "chattr", "setfacl"]);

function permissions(invocation: Invocation, context: SafetyContext): Finding[] {
  const { name, args, command } = invocation;
  if (!PERMISSION_TOOLS.has(name)) return [];
  const parsed = parseOptions(args, {
    longValue: ["reference", "from"],
    shortValue: name === "setfacl" ? "mMxX" : "",
  });
  let ops = operands(parsed);
  const usesReference = parsed.some((p) => p.kind === "long" && p.name.startsWith("ref"));
  if (!usesReference && name !== "setfacl") ops = ops.slice(1);
  const out: Finding[] = [];
  for (const op of ops) {
    const target = targetOf(op.name, invocation.dynamic.has(op.index), context);
    const path = target.kind === "path" ? target.path : target.kind === "glob" ? target.parent : undefined;
    if (path === undefined) continue;
    const catastrophe = catastropheOf(path, context, true);
    if (catastrophe === "root" || catastrophe === "home" || catastrophe === "system") {
      out.push(
        finding(
          "destroy.permissions",
          `${name} changes ${op.name}, ${catastrophe === "home" ? "the home directory" : catastrophe === "root" ? "the root of the file system" : "a system directory"}`,
          command,
          op.name,
        ),
      );
    }
  }
  return out;
}

/** The programs {@link infrastructure} has rules for. */
const INFRASTRUCTURE_TOOLS = new Set([
  "terraform",
  "tofu",
  "terragrunt",
  "kubectl",
  "oc",
  "kubecolor",
  "pulumi",
  "aws",
  "gsutil",
  "gcloud",
  "docker",
  "podman",
  "helm",
]);

function infrastructure(invocation: Invocation): Finding[] {
  const { name, args, command } = invocation;
  if (!INFRASTRUCTURE_TOOLS.has(name)) return [];
  const words = args.filter((a) => !a.startsWith("-"));
  if (
    (name === "terraform" || name === "tofu" || name === "terragrunt") &&
    (words.includes("destroy") || (words[0] === "apply" && args.includes("-destroy")))
  ) {
    return [
      finding(
        "destroy.infrastructure",
        `${name} destroy deletes the managed infrastructure`,
        command,
        "destroy",
      ),
    ];
  }
  const dryRun = args.some((a) => /^--dry-run(=(client|server))?$/.test(a));
  if ((name === "kubectl" || name === "oc" || name === "kubecolor") && words.includes("delete") && !dryRun) {
    return [finding("destroy.infrastructure", `${name} delete removes cluster resources`, command, "delete")];
  }
  if (name === "pulumi" && words[0] === "destroy")
    return [
      finding("destroy.infrastructure", "pulumi destroy deletes the stack's resources", command, "destroy"),
    ];
  if (
    name === "aws" &&
    words[0] === "s3" &&
    (words[1] === "rm" || words[1] === "rb") &&
    args.some((a) => a === "--recursive" || a === "--force")
  ) {
    return [finding("destroy.bulk-remote", `aws s3 ${words[1]} deletes objects in bulk`, command, words[1])];
  }
  if (
    (name === "gsutil" || name === "gcloud") &&
    (words.includes("rm") || words.includes("delete")) &&
    args.some((a) => /^-[a-zA-Z]*r|^--recursive$/.test(a))
  ) {
    return [finding("destroy.bulk-remote", `${name} deletes objects recursively`, command)];
  }
  if ((name === "docker" || name === "podman") && words.includes("prune")) {
    return [
      finding(
        "destroy.bulk-remote",
        `${name} ${words.join(" ")} deletes containers, images or volumes in bulk`,
        command,
        "prune",
      ),
    ];
  }
  if (name === "helm" && (words[0] === "uninstall" || words[0] === "delete")) {
    return [
      finding("destroy.bulk-remote", "helm uninstall removes a release from the cluster", command, words[0]),
    ];
  }
  return [];
}

/** Hard-deny destroyers and other machine-level destruction. */
export function classifyDestroyers(invocation: Invocation, context: SafetyContext): Finding[] {
  const { name, args, command } = invocation;
  const out: Finding[] = [];
  if (FILESYSTEM_MAKERS.test(name))
    out.push(finding("destroy.filesystem", `${name} creates or wipes a file system`, command, name));
  if (PARTITIONERS.has(name)) {
    const listing =
      args.length > 0 &&
      args.every(
        (a) =>
          /^(-l|--list|-s|--show-size|print|-p|--print|-v|--version|-h|--help)$/.test(a) ||
          (!a.startsWith("-") && isBlockDevice(a)),
      ) &&
      args.some((a) => /^(-l|--list|-s|--show-size|print|-p|--print|-v|--version|-h|--help)$/.test(a));
    if (!listing)
      out.push(finding("destroy.partition", `${name} can rewrite a partition table`, command, name));
  }
  if (name === "dd") {
    for (const a of args) {
      if (a.startsWith("of=") && isBlockDevice(a.slice(3)))
        out.push(finding("destroy.block-device", `dd ${a} overwrites a block device`, command, a));
    }
  }
  if (["shred", "cp", "tee", "cat", "pv", "badblocks", "blkdiscard", "nvme", "hdparm"].includes(name)) {
    const devices = args.filter((a) => isBlockDevice(a));
    if (devices.length > 0 && name !== "cat" && name !== "pv") {
      const writes =
        name === "cp"
          ? devices.includes(args[args.length - 1]!)
          : name === "badblocks"
            ? args.some((a) => /^-[a-zA-Z]*w/.test(a))
            : name === "hdparm"
              ? args.some((a) => /security-erase|--trim-sector|--write-sector/.test(a))
              : name === "nvme"
                ? args.some((a) => /^(format|sanitize)$/.test(a))
                : true;
      if (writes)
        out.push(
          finding(
            "destroy.block-device",
            `${name} writes to the block device ${devices[0] ?? ""}`,
            command,
            devices[0],
          ),
        );
    }
  }
  if (name === "crontab" && args.some((a) => /^-[a-zA-Z]*r/.test(a)))
    out.push(finding("destroy.crontab", "crontab -r deletes the whole crontab", command, "-r"));
  if (name === "format" && args.some((a) => /^[a-z]:$/i.test(a)))
    out.push(finding("destroy.filesystem", "format erases a drive", command, args[0]));
  for (const more of [
    power(invocation),
    killAll(invocation),
    permissions(invocation, context),
    infrastructure(invocation),
  ])
    for (const f of more) out.push(f);
  return out;
}

/** Programs that run a heredoc fed to them as a script. */
const SHELL_NAMES = "sh|bash|zsh|dash|ksh|mksh|ash|fish|eval|source|\\.";
/** The first shell word of a line that is followed by white space (later words stay openers: monotonic). */
const SHELL_OPENER_WORD = new RegExp(`(?:^|[\\s;&|(])(?:${SHELL_NAMES})\\s`);
/** A shell word ending a short tail of text; with and without the start of the line as boundary. */
const SHELL_OPENER_END_AT_START = new RegExp(`(?:^|[\\s;&|(])(?:${SHELL_NAMES})$`);
const SHELL_OPENER_END = new RegExp(`[\\s;&|(](?:${SHELL_NAMES})$`);
const HEREDOC = /(?<!<)<<(?!<)(-?)\s*(['"]?)([A-Za-z0-9_.-]+)\2/g;

/**
 * True when the text of `line` before `end` names a shell, `eval` or `source` as a word (`bash <<EOF` feeds the
 * heredoc to a shell). Linear: the first white-space-terminated shell word of the line is found once, and the
 * shell word right before `end` is tested on a short tail.
 */
function opensShell(line: string, end: number, firstOpenerEnd: number): boolean {
  if (firstOpenerEnd <= end) return true;
  const from = Math.max(0, end - 8);
  const tail = line.slice(from, end);
  return (from === 0 ? SHELL_OPENER_END_AT_START : SHELL_OPENER_END).test(tail);
}

/**
 * Removes heredoc bodies that are data (`cat <<'EOF'`), keeping bodies fed to a shell (`bash <<EOF`), which
 * run as scripts.
 */
function withoutHeredocData(script: string): string {
  if (!script.includes("<<")) return script;
  const lines = script.split("\n");
  const out: string[] = [];
  const pending: { delimiter: string; strip: boolean; keep: boolean }[] = [];
  for (const line of lines) {
    const current = pending[0];
    if (current !== undefined) {
      const candidate = current.strip ? line.replace(/^\t+/, "") : line;
      if (candidate === current.delimiter) pending.shift();
      if (current.keep) out.push(line);
      continue;
    }
    out.push(line);
    if (!line.includes("<<")) continue;
    const opener = SHELL_OPENER_WORD.exec(line);
    const firstOpenerEnd = opener === null ? Infinity : opener.index + opener[0].length;
    for (const m of line.matchAll(HEREDOC)) {
      pending.push({
        delimiter: m[3]!,
        strip: m[1] === "-",
        keep: opensShell(line, m.index, firstOpenerEnd),
      });
    }
  }
  return out.join("\n");
}

const PAYLOAD_SHELLS = ["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash"];
const SPACE = /\s/;
const OPTION_WORD = /^-[A-Za-z]+$/;
const COMMAND_OPTION_WORD = /^-[A-Za-z]*c[A-Za-z]*$/;

/** True when `prefix` lets a program word start there: nothing, a folder path (`/bin/`) or an opening `(`. */
function programPrefix(prefix: string): boolean {
  return prefix === "" || prefix.endsWith("/") || prefix.endsWith("(");
}

/**
 * True when the text of a command so far (`pieces`, quoted parts already replaced) ends with a program that
 * runs its next quoted word as a script: `bash -c `, `sh -xc `, `/bin/bash -e -c `, `eval `. Reads backwards
 * from the end and stops at the first word that is neither an option nor a shell, so the work is bounded by
 * the text since the previous quoted word.
 */
function runsPayload(pieces: readonly string[]): boolean {
  let p = pieces.length - 1;
  let o = p >= 0 ? pieces[p]!.length - 1 : -1;
  /** The character at the cursor, or `undefined` at the start. */
  const at = (): string | undefined => {
    while (p >= 0 && o < 0) {
      p--;
      if (p >= 0) o = pieces[p]!.length - 1;
    }
    return p >= 0 ? pieces[p]![o] : undefined;
  };
  const first = at();
  if (first === undefined || !SPACE.test(first)) return false;
  /** The word before the cursor, moving the cursor before it; `undefined` at the start. */
  const word = (): string | undefined => {
    let c = at();
    while (c !== undefined && SPACE.test(c)) {
      o--;
      c = at();
    }
    if (c === undefined) return undefined;
    const chars: string[] = [];
    while (c !== undefined && !SPACE.test(c)) {
      chars.push(c);
      o--;
      c = at();
    }
    return chars.reverse().join("");
  };
  const last = word();
  if (last === undefined) return false;
  if (last.endsWith("eval") && programPrefix(last.slice(0, -4))) return true;
  if (!COMMAND_OPTION_WORD.test(last)) return false;
  for (let w = word(); w !== undefined; w = word()) {
    if (OPTION_WORD.test(w)) continue;
    const program = w;
    return PAYLOAD_SHELLS.some(
      (shell) => program.endsWith(shell) && programPrefix(program.slice(0, -shell.length)),
    );
  }
  return false;
}

/** Characters after which a `#` starts a comment. */
const COMMENT_START = /[\s;&|()<>]/;
/** Characters the live-text scan stops at; everything else is copied as it is. */
const LIVE_SPECIAL = /[\\#'"$;&|\n]/g;

/** The content of a quoted string opened before `from`, and the index of its closing quote (or the end). */
function quoted(script: string, from: number, quote: string, escapes: boolean): [string, number] {
  if (!escapes) {
    const end = script.indexOf(quote, from);
    const stop = end < 0 ? script.length : end;
    return [script.slice(from, stop), stop];
  }
  const parts: string[] = [];
  let start = from;
  let j = from;
  while (j < script.length && script[j] !== quote) {
    if (script[j] === "\\" && j + 1 < script.length) {
      parts.push(script.slice(start, j), script[j + 1]!);
      j += 2;
      start = j;
      continue;
    }
    j++;
  }
  parts.push(script.slice(start, j));
  return [parts.join(""), j];
}

/**
 * Splits a script into the texts a shell would run: the script with quoted strings replaced by a placeholder
 * (quoted text is data) and comments removed, plus, recursively, the quoted payloads of `bash -c` and `eval`.
 * Linear in the length of the script (payloads are read once more per level, at most four levels).
 */
function liveTexts(script: string, depth = 0): string[] {
  const payloads: string[] = [];
  const live: string[] = [];
  const segment: string[] = [];
  const n = script.length;
  const special = new RegExp(LIVE_SPECIAL.source, "g");
  let i = 0;
  let wordStart = true;
  while (i < n) {
    special.lastIndex = i;
    const k = special.exec(script)?.index ?? n;
    if (k > i) {
      const run = script.slice(i, k);
      live.push(run);
      segment.push(run);
      wordStart = COMMENT_START.test(run[run.length - 1]!);
      i = k;
      if (i >= n) break;
    }
    const c = script[i]!;
    if (c === "\\") {
      live.push(script.slice(i, i + 2));
      segment.push("_");
      i += 2;
      wordStart = false;
      continue;
    }
    if (c === "#" && wordStart) {
      const end = script.indexOf("\n", i);
      i = end < 0 ? n : end;
      continue;
    }
    const ansi = c === "$" && script[i + 1] === "'";
    if (c === "'" || c === '"' || ansi) {
      const quote = ansi ? "'" : c;
      const [content, end] = quoted(script, i + (ansi ? 2 : 1), quote, quote === '"' || ansi);
      if (depth < 4 && runsPayload(segment))
        for (const text of liveTexts(content, depth + 1)) payloads.push(text);
      live.push("_");
      segment.push("_");
      i = end + 1;
      wordStart = false;
      continue;
    }
    live.push(c);
    if (c === ";" || c === "&" || c === "|" || c === "\n") {
      segment.length = 0;
      wordStart = true;
    } else {
      segment.push(c);
      wordStart = false;
    }
    i++;
  }
  return [live.join(""), ...payloads];
}

/**
 * Looks for a fork bomb in a script: a function that calls itself in a pipeline sent to the background
 * (`:(){ :|:& };:`, `bomb() { bomb | bomb & }; bomb`), also inside a `bash -c` or `eval` payload and in a
 * heredoc fed to a shell. Quoted text, comments and data heredocs (`echo ':(){ :|:& };:'`, `# :(){…}`,
 * `cat <<'EOF'`) are data. Command-by-command analysis cannot see it, so this reads the script text.
 * The time it takes grows linearly with the length of the script.
 */
export function detectForkBomb(script: string): Finding | undefined {
  if (!script.includes("&")) return undefined;
  for (const live of liveTexts(withoutHeredocData(script))) {
    if (!live.includes("&")) continue;
    const found = forkBombIn(live.replace(/\s+/g, " "));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Characters that end a word in the scan: white space and `(){}|&;<>`. */
const WORD_END = /[\s(){}|&;<>]/;

/** The runs of word characters of a text, as `[start, end)` pairs, in order. */
function wordRuns(text: string): number[] {
  const runs: number[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const boundary = i === text.length || WORD_END.test(text[i]!);
    if (boundary && start >= 0) {
      runs.push(start, i);
      start = -1;
    } else if (!boundary && start < 0) start = i;
  }
  return runs;
}

/** Skips one space (the text has single spaces only). */
function space(text: string, i: number): number {
  return text[i] === " " ? i + 1 : i;
}

/**
 * Where a function's body starts (after `{`) when `( )` (required, or optional after `function name`) and `{`
 * follow at `i`, or -1.
 */
function bodyStart(text: string, i: number, parens: "required" | "optional"): number {
  let p = space(text, i);
  if (text[p] === "(") {
    const close = space(text, p + 1);
    if (text[close] === ")") p = space(text, close + 1);
    else if (parens === "required") return -1;
  } else if (parens === "required") return -1;
  return text[p] === "{" ? p + 1 : -1;
}

/** Characters after which a word in a function body counts as a command (`[\s;&|{]`, or the body's start). */
const CALL_START = new Set([" ", ";", "&", "|", "{"]);

/** True when the body calls `name` in a pipeline into itself sent to the background, or in the background and again. */
function callsItselfInBackground(body: string, name: string): boolean {
  const runs = wordRuns(body);
  for (let r = 0; r < runs.length; r += 2) {
    const start = runs[r]!;
    const end = runs[r + 1]!;
    if (end - start !== name.length || !body.startsWith(name, start)) continue;
    if (start > 0 && !CALL_START.has(body[start - 1]!)) continue;
    let p = space(body, end);
    if (body[p] === "|") {
      // name | name &
      p = space(body, p + 1);
      if (
        body.startsWith(name, p) &&
        (p + name.length === body.length || WORD_END.test(body[p + name.length]!))
      ) {
        const q = space(body, p + name.length);
        if (body[q] === "&") return true;
      }
      continue;
    }
    if (body[p] === "&") {
      // name & … name, before the next &
      const next = body.indexOf("&", p + 1);
      const again = body.indexOf(name, p + 1);
      if (again >= 0 && (next < 0 || again + name.length <= next)) return true;
    }
  }
  return false;
}

/**
 * Finds function definitions (`name() {…}`, `function name {…}`, `function name() {…}`) in a text with single
 * spaces, and returns the first whose body calls itself in the background. Each character is read a bounded
 * number of times.
 */
function forkBombIn(text: string): Finding | undefined {
  const runs = wordRuns(text);
  let from = 0;
  for (let r = 0; r < runs.length; r += 2) {
    const start = runs[r]!;
    const end = runs[r + 1]!;
    if (start < from) continue;
    let name: string | undefined;
    let open = -1;
    if (end - start === 8 && text.startsWith("function", start) && text[end] === " ") {
      const next = runs[r + 2];
      if (next === end + 1) {
        open = bodyStart(text, runs[r + 3]!, "optional");
        if (open >= 0) name = text.slice(next, runs[r + 3]!);
      }
    }
    if (name === undefined) {
      open = bodyStart(text, end, "required");
      if (open >= 0) name = text.slice(start, end);
    }
    if (name === undefined) continue;
    const close = text.indexOf("}", open);
    if (close < 0) return undefined;
    from = close + 1;
    if (callsItselfInBackground(text.slice(open, close), name)) {
      return {
        code: "destroy.fork-bomb",
        severity: "deny",
        message: `function ${name} calls itself in the background without end (a fork bomb)`,
        command: text.slice(start, close + 1).trim(),
        subject: name,
      };
    }
  }
  return undefined;
}
