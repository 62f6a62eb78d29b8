import { hasOption, operands, parseOptions, type Invocation } from "./argv.js";
import { finding, type SafetyCode } from "./codes.js";
import { catastropheOf, inWorkspace, targetOf, type Catastrophe, type Target } from "./targets.js";
import type { Finding, SafetyContext } from "./types.js";

/** Programs that remove files, and whether they can recurse. */
const REMOVERS: Record<string, "recursive" | "flat"> = {
  rm: "recursive",
  srm: "recursive",
  rmdir: "flat",
  unlink: "flat",
  shred: "flat",
};

/** Windows removers: cmd's `rd`/`rmdir`/`del`/`erase` (`/s` recurses) and PowerShell's `Remove-Item`. */
const WINDOWS_REMOVERS = new Set(["rd", "del", "erase", "remove-item", "ri"]);

const CODE_OF: Record<Catastrophe, SafetyCode> = {
  root: "rm.recursive-root",
  home: "rm.recursive-home",
  "workspace-root": "rm.recursive-workspace-root",
  system: "rm.recursive-system",
};

const WHAT: Record<Catastrophe, string> = {
  root: "the whole file system",
  home: "the home directory",
  "workspace-root": "the workspace root or a folder above it",
  system: "a system or top-level directory",
};

/** The removal targets of an rm-family command and whether it recurses; `undefined` if it is not one. */
export function removalOf(
  invocation: Invocation,
  context: SafetyContext,
): { recursive: boolean; noPreserveRoot: boolean; targets: Target[] } | undefined {
  const name = invocation.name;
  const windowsStyle = WINDOWS_REMOVERS.has(name) || (name === "rmdir" && context.platform === "windows");
  if (windowsStyle) return windowsRemoval(invocation, context);
  const kind = Object.hasOwn(REMOVERS, name) ? REMOVERS[name] : undefined;
  if (kind === undefined) return undefined;
  const parsed = parseOptions(
    invocation.args,
    name === "shred"
      ? { shortValue: "ns", longValue: ["iterations", "size", "random-source", "remove"] }
      : {},
  );
  const recursive = kind === "recursive" && hasOption(parsed, "rR", "recursive");
  const noPreserveRoot = parsed.some(
    (p) => p.kind === "long" && p.name.length >= 1 && "no-preserve-root".startsWith(p.name),
  );
  const targets = operands(parsed).map((p) => targetOf(p.name, invocation.dynamic.has(p.index), context));
  return { recursive, noPreserveRoot, targets };
}

function windowsRemoval(invocation: Invocation, context: SafetyContext) {
  let recursive = false;
  const targets: Target[] = [];
  const args = invocation.args;
  const powershell = invocation.name === "remove-item" || invocation.name === "ri";
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const lower = word.toLowerCase();
    if (!powershell && /^\/[a-z]/i.test(word) && word.length <= 3) {
      if (lower.startsWith("/s")) recursive = true;
      continue;
    }
    if (powershell && word.startsWith("-")) {
      const param = lower.replace(/^-+/, "").replace(/:.*$/, "");
      if (param.length >= 1 && "recurse".startsWith(param)) recursive = true;
      if (
        ["path", "literalpath", "lp", "pspath"].some((n) => param.length >= 1 && n.startsWith(param)) &&
        i + 1 < args.length
      ) {
        targets.push(targetOf(args[++i]!, invocation.dynamic.has(i), context));
      }
      continue;
    }
    targets.push(targetOf(word, invocation.dynamic.has(i), context));
  }
  return { recursive, noPreserveRoot: false, targets };
}

/**
 * What the host's mount table says about removing `path` recursively: `mounted` when it is a mount point or
 * holds one (rm crosses into it), `unknown` when the host has file-system facts but no mount table, `undefined`
 * when it holds no mount point or the host gives no file-system facts at all (the words alone decide).
 * The path is checked as written and with its links resolved. For a glob the path is its parent folder: a mount
 * point there, or below, loses its files as well.
 */
function mountRisk(path: string, context: SafetyContext): "mounted" | "unknown" | undefined {
  const fs = context.fs;
  if (fs === undefined) return undefined;
  let mounts: readonly string[] | undefined;
  try {
    mounts = fs.mountPoints?.();
  } catch {
    mounts = undefined;
  }
  if (mounts === undefined) return "unknown";
  let real: string | undefined;
  try {
    real = fs.realpath(path);
  } catch {
    real = undefined;
  }
  const spellings = real === undefined || real === path ? [path] : [path, real];
  const holds = (dir: string): boolean => {
    const prefix = dir.endsWith("/") ? dir : `${dir}/`;
    return mounts.some((mount) => mount === dir || mount.startsWith(prefix));
  };
  return spellings.some(holds) ? "mounted" : undefined;
}

/** The mount-table finding for a recursive removal of `path`, if any. */
function mountFinding(
  path: string,
  word: string,
  program: string,
  invocation: Invocation,
  context: SafetyContext,
): Finding | undefined {
  const risk = mountRisk(path, context);
  if (risk === "mounted") {
    return finding(
      "rm.mount-point",
      `${program} recursively removes ${word}, which is or holds a mount point: it would delete the mounted files too`,
      invocation.command,
      word,
    );
  }
  if (risk === "unknown") {
    return finding(
      "rm.mount-unknown",
      `${program} recursively removes ${word}, and this host's mount table cannot be read to rule out a mount point there`,
      invocation.command,
      word,
    );
  }
  return undefined;
}

/** rm, srm, rmdir, unlink, shred (and Windows `rd /s`, `del`, `Remove-Item -Recurse`): what they remove. */
export function classifyRemoval(invocation: Invocation, context: SafetyContext): Finding[] {
  const removal = removalOf(invocation, context);
  if (removal === undefined) return [];
  const { recursive, noPreserveRoot, targets } = removal;
  const command = invocation.command;
  const out: Finding[] = [];
  const program = invocation.name;
  if (noPreserveRoot) {
    out.push(
      finding(
        "rm.no-preserve-root",
        `${program} --no-preserve-root disables the guard against removing /`,
        command,
        "--no-preserve-root",
      ),
    );
  }
  for (const target of targets) {
    if (target.kind === "unknown") {
      if (recursive) {
        out.push(
          finding(
            "rm.recursive-dynamic",
            `${program} recursively removes ${target.word}, which is only known at run time`,
            command,
            target.word,
          ),
        );
      }
      continue;
    }
    if (target.kind === "glob") {
      const catastrophe = catastropheOf(target.parent, context, true);
      if (catastrophe !== undefined) {
        out.push(
          finding(
            CODE_OF[catastrophe],
            `${program} ${target.word} removes everything in ${WHAT[catastrophe]}`,
            command,
            target.word,
          ),
        );
      } else if (!inWorkspace(target.parent, context)) {
        out.push(
          finding(
            "rm.outside-workspace",
            `${program} removes ${target.word} outside the workspace`,
            command,
            target.word,
          ),
        );
      } else if (recursive) {
        out.push(
          finding(
            "rm.recursive",
            `${program} recursively removes ${target.word} inside the workspace`,
            command,
            target.word,
          ),
        );
      }
      if (recursive && catastrophe === undefined) {
        const mount = mountFinding(target.parent, target.word, program, invocation, context);
        if (mount !== undefined) out.push(mount);
      }
      continue;
    }
    if (recursive) {
      const catastrophe = catastropheOf(target.path, context);
      if (catastrophe !== undefined) {
        out.push(
          finding(
            CODE_OF[catastrophe],
            `${program} recursively removes ${target.word}: ${WHAT[catastrophe]}`,
            command,
            target.word,
          ),
        );
      } else if (inWorkspace(target.path, context)) {
        out.push(
          finding(
            "rm.recursive",
            `${program} recursively removes ${target.word} inside the workspace`,
            command,
            target.word,
          ),
        );
      } else {
        out.push(
          finding(
            "rm.outside-workspace",
            `${program} recursively removes ${target.word} outside the workspace`,
            command,
            target.word,
          ),
        );
      }
      if (catastrophe === undefined) {
        const mount = mountFinding(target.path, target.word, program, invocation, context);
        if (mount !== undefined) out.push(mount);
      }
    } else if (!inWorkspace(target.path, context)) {
      out.push(
        finding(
          "rm.outside-workspace",
          `${program} removes ${target.word} outside the workspace`,
          command,
          target.word,
        ),
      );
    }
  }
  const fromInput =
    command.appendsArguments === true || command.wrappers.some((w) => w === "xargs" || w === "parallel");
  if (targets.length === 0 && fromInput) {
    out.push(finding("rm.targets-from-input", `${program} removes files named on standard input`, command));
  }
  if (out.length === 0) {
    const verb = program === "shred" ? "overwrites" : "removes";
    out.push(
      finding("rm.delete", `${program} ${verb} ${targets.map((t) => t.word).join(" ") || "files"}`, command),
    );
  }
  return out;
}
