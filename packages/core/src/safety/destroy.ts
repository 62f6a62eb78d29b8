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

function permissions(invocation: Invocation, context: SafetyContext): Finding[] {
  const { name, args, command } = invocation;
  if (!["chmod", "chown", "chgrp", "chattr", "setfacl"].includes(name)) return [];
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

function infrastructure(invocation: Invocation): Finding[] {
  const { name, args, command } = invocation;
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
  out.push(
    ...power(invocation),
    ...killAll(invocation),
    ...permissions(invocation, context),
    ...infrastructure(invocation),
  );
  return out;
}

const SHELL_OPENER = /(^|[\s;&|(])(sh|bash|zsh|dash|ksh|mksh|ash|fish|eval|source|\.)(\s|$)/;

/**
 * Removes heredoc bodies that are data (`cat <<'EOF'`), keeping bodies fed to a shell (`bash <<EOF`), which
 * run as scripts.
 */
function withoutHeredocData(script: string): string {
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
    for (const m of line.matchAll(/(?<!<)<<(?!<)(-?)\s*(['"]?)([A-Za-z0-9_.-]+)\2/g)) {
      const before = line.slice(0, m.index);
      pending.push({ delimiter: m[3]!, strip: m[1] === "-", keep: SHELL_OPENER.test(before) });
    }
  }
  return out.join("\n");
}

/** A command that runs its next quoted word as a script: `bash -c '…'`, `sh -xc "…"`, `eval '…'`. */
const RUNS_PAYLOAD =
  /(?:^|[\s;&|(])(?:\S*\/)?(?:(?:sh|bash|zsh|dash|ksh|mksh|ash|yash)\s+(?:-[A-Za-z]+\s+)*-[A-Za-z]*c[A-Za-z]*|eval)\s+$/;

/**
 * Splits a script into the texts a shell would run: the script with quoted strings replaced by a placeholder
 * (quoted text is data), plus, recursively, the quoted payloads of `bash -c` and `eval`.
 */
function liveTexts(script: string, depth = 0): string[] {
  const payloads: string[] = [];
  let live = "";
  let segment = "";
  const n = script.length;
  let i = 0;
  while (i < n) {
    const c = script[i]!;
    if (c === "\\") {
      live += script.slice(i, i + 2);
      segment += "_";
      i += 2;
      continue;
    }
    const ansi = c === "$" && script[i + 1] === "'";
    if (c === "'" || c === '"' || ansi) {
      const quote = ansi ? "'" : c;
      let j = i + (ansi ? 2 : 1);
      let content = "";
      while (j < n && script[j] !== quote) {
        if ((quote === '"' || ansi) && script[j] === "\\" && j + 1 < n) {
          content += script[j + 1];
          j += 2;
          continue;
        }
        content += script[j];
        j++;
      }
      if (depth < 4 && RUNS_PAYLOAD.test(segment)) payloads.push(...liveTexts(content, depth + 1));
      live += "_";
      segment += "_";
      i = j + 1;
      continue;
    }
    live += c;
    segment = /[;&|\n]/.test(c) ? "" : segment + c;
    i++;
  }
  return [live, ...payloads];
}

/**
 * Looks for a fork bomb in a script: a function that calls itself in a pipeline sent to the background
 * (`:(){ :|:& };:`, `bomb() { bomb | bomb & }; bomb`), also inside a `bash -c` or `eval` payload and in a
 * heredoc fed to a shell. Quoted text and data heredocs (`echo ':(){ :|:& };:'`, `cat <<'EOF'`) are data.
 * Command-by-command analysis cannot see it, so this reads the script text.
 */
export function detectForkBomb(script: string): Finding | undefined {
  for (const live of liveTexts(withoutHeredocData(script))) {
    const found = forkBombIn(live.replace(/\s+/g, " "));
    if (found !== undefined) return found;
  }
  return undefined;
}

function forkBombIn(text: string): Finding | undefined {
  const definitions =
    /(?:function\s+([^\s(){}|&;<>]+)\s*(?:\(\s*\))?|([^\s(){}|&;<>]+)\s*\(\s*\))\s*\{([^}]*)\}/g;
  for (const m of text.matchAll(definitions)) {
    const fn = m[1] ?? m[2]!;
    const name = fn.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const body = m[3]!;
    const selfPipe = new RegExp(`(^|[\\s;&|{])${name}\\s*\\|\\s*${name}\\s*&`);
    const selfBackground = new RegExp(`(^|[\\s;&|{])${name}\\s*&[^&]*${name}`);
    if (selfPipe.test(body) || selfBackground.test(body)) {
      return {
        code: "destroy.fork-bomb",
        severity: "deny",
        message: `function ${fn} calls itself in the background without end (a fork bomb)`,
        command: m[0].trim(),
        subject: fn,
      };
    }
  }
  return undefined;
}
