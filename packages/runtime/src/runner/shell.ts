import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { SlashiError, SlashiErrorCode } from "@slashi/core";
import { isPosixShell } from "@slashi/core/internal";

/** A program and its arguments, ready for execa (never with `shell: true`). */
export interface Invocation {
  /** Program to start. */
  file: string;
  /** Its arguments. */
  args: string[];
  /** Pass `args` to Windows verbatim (cmd.exe lines built by Slashi). */
  windowsVerbatimArguments?: boolean;
}

/** The family of a shell, chosen from its file name. */
export type ShellFamily = "posix" | "fish" | "cmd" | "powershell";

/** The shell family of a shell path (`/usr/bin/zsh`, `C:\…\pwsh.exe`), or `undefined` for an unknown shell. */
export function shellFamily(shell: string): ShellFamily | undefined {
  const base = path.win32
    .basename(path.posix.basename(shell))
    .toLowerCase()
    .replace(/\.exe$/, "");
  // core's POSIX family (`bash`, `zsh5`, `yash`…), and busybox, whose `sh` applet a `$SHELL` of it runs
  if (isPosixShell(base) || base === "busybox") return "posix";
  if (base === "fish") return "fish";
  if (base === "cmd") return "cmd";
  if (base === "pwsh" || base === "powershell") return "powershell";
  return undefined;
}

/**
 * The shell for script mode: the given one, else `$SHELL`, else `/bin/sh`; on Windows the given one, else
 * `%ComSpec%`, else `cmd.exe`.
 */
export function defaultShell(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (platform === "win32") return env.ComSpec ?? env.COMSPEC ?? "cmd.exe";
  return env.SHELL && env.SHELL !== "" ? env.SHELL : "/bin/sh";
}

/**
 * How to run a script in a shell, by family: POSIX shells and fish get `-c script`; PowerShell gets
 * `-NoProfile -NonInteractive -Command script`; cmd.exe gets one verbatim line `/d /v:off /e:on /s /c "script"`
 * (delayed expansion off, no AutoRun). An unknown shell fails closed with `RUN_INVALID`: quoting and analysis
 * follow the real target shell, and Slashi will not guess one.
 */
export function shellInvocation(shell: string, script: string): Invocation {
  const family = shellFamily(shell);
  if (script.includes("\0")) {
    throw new SlashiError(SlashiErrorCode.RUN_INVALID, "the script contains a NUL character");
  }
  switch (family) {
    case "posix":
    case "fish":
      return { file: shell, args: ["-c", script] };
    case "powershell":
      return { file: shell, args: ["-NoProfile", "-NonInteractive", "-Command", script] };
    case "cmd":
      if (/[\r\n]/.test(script)) {
        throw new SlashiError(SlashiErrorCode.RUN_INVALID, "a cmd.exe script cannot contain CR or LF");
      }
      return {
        file: shell,
        args: ["/d", "/v:off", "/e:on", "/s", "/c", `"${script}"`],
        windowsVerbatimArguments: true,
      };
    default:
      throw new SlashiError(
        SlashiErrorCode.RUN_INVALID,
        `unknown shell ${JSON.stringify(shell)}: Slashi runs scripts only in shells it knows (sh, bash, zsh, fish, cmd, pwsh)`,
        { shell },
      );
  }
}

const BATCH = /\.(?:bat|cmd)$/i;

function isFile(candidate: string): boolean {
  try {
    return statSync(candidate).isFile();
  } catch {
    return false;
  }
}

/**
 * On Windows, where `argv[0]` would resolve (as given, or through PATH and PATHEXT). Used only to catch batch
 * files; returns `undefined` when nothing is found.
 */
export function resolveWindowsProgram(
  program: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
): string | undefined {
  const extensions = (env.PATHEXT ?? env.Pathext ?? ".COM;.EXE;.BAT;.CMD").split(";").filter(Boolean);
  const hasDir = /[\\/]/.test(program);
  const dirs = hasDir ? [""] : [cwd, ...(env.PATH ?? env.Path ?? "").split(";").filter(Boolean)];
  const hasExt = path.win32.extname(program) !== "";
  for (const dir of dirs) {
    // Native joins: on Windows they are win32 joins; elsewhere (tests) they match the real file system.
    const base = dir === "" ? path.resolve(cwd, program) : path.join(dir, program);
    const candidates = hasExt ? [base] : extensions.map((ext) => base + ext.toLowerCase());
    for (const candidate of candidates) if (isFile(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Refuses an argv whose program is a Windows batch file (`.bat`/`.cmd` in any case, including npm-style `.cmd`
 * shims found through PATHEXT): cmd.exe re-parses such a command line, so an argv array cannot be passed
 * safely (Node refuses it too since CVE-2024-27980). Run it in script mode with cmd-quoted arguments instead.
 */
export function assertNotBatchArgv(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  platform: NodeJS.Platform = process.platform,
): void {
  const program = argv[0];
  if (program === undefined || platform !== "win32") return;
  const resolved = BATCH.test(program) ? program : resolveWindowsProgram(program, env, cwd);
  if (resolved !== undefined && BATCH.test(resolved)) {
    throw new SlashiError(
      SlashiErrorCode.RUN_INVALID,
      `${program} is a batch file (${path.win32.basename(resolved)}); run it in script mode with cmd quoting, never with an argument array`,
      { program },
    );
  }
}

/** True when `file` exists and is executable by this process. */
export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return isFile(file);
  } catch {
    return false;
  }
}

/** Finds a program on PATH (POSIX), or `undefined`. */
export function findOnPath(program: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (program.includes("/")) return isExecutable(program) ? program : undefined;
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, program);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}
