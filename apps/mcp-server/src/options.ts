/**
 * Command-line options of `slashi-mcp`. They tune limits and where the server looks. The one that adds policy,
 * `--enkaidu-config`, names the person's Enkaidu session config, read as their own layer only when it lies outside
 * the workspace (a file in the repository only restricts); no tool call can name a policy.
 */

/** Parsed options. */
export interface CliOptions {
  /** Workspace root (default: the git root above the current directory, else the current directory). */
  workspace?: string;
  /** Shell for analysis and scripts (default `$SHELL`, else `/bin/sh`). */
  shell?: string;
  /** Run commands in the cordon. */
  cordon: boolean;
  /** An Enkaidu session config (YAML) to stack after the user policy. */
  enkaiduConfig?: string;
  /** Default timeout (ms). */
  timeoutMs: number;
  /** Largest timeout a call may ask for (ms). */
  maxTimeoutMs: number;
  /** Output kept per stream (bytes). */
  maxOutputBytes: number;
  /** Commands running at once. */
  maxConcurrent: number;
  /** Calls waiting for a slot. */
  maxQueued: number;
  /** Print help and exit. */
  help: boolean;
  /** Print the version and exit. */
  version: boolean;
}

/** A wrong option. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** The help text. */
export const USAGE = `slashi-mcp: a policy-guarded shell tool over MCP (stdio)

Usage: slashi-mcp [options]

Options:
  --workspace DIR        workspace root (default: the git root above the current directory)
  --shell PATH           shell to analyse and run scripts with (default: $SHELL, else /bin/sh)
  --cordon               run every command inside the cordon (sandbox); refuse when it cannot be enforced
  --enkaidu-config FILE  also apply this Enkaidu session config (tool_settings.shell_command, ENKAIDU_* fallbacks)
  --timeout SECONDS      default timeout of a command (default 120)
  --max-timeout SECONDS  largest timeout a call may ask for (default 3600)
  --max-output BYTES     output kept per stream (default 102400)
  --max-concurrent N     commands running at once (default 4)
  --max-queued N         calls waiting for a free slot before BUSY (default 16)
  --version              print the version
  --help                 print this help

The policy is the user's own (<config dir>/policy.json, the managed policy, and the trusted workspace's
.vscode/slashi-policy.json); without one the recommended preset applies. Logs go to stderr.`;

function positive(name: string, value: string | undefined, integer: boolean): number {
  if (value === undefined) throw new UsageError(`${name} needs a value`);
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
    throw new UsageError(`${name} must be a positive ${integer ? "whole " : ""}number, not "${value}"`);
  }
  return n;
}

/** Parses the command line. */
export function parseOptions(argv: readonly string[]): CliOptions {
  const options: CliOptions = {
    cordon: false,
    timeoutMs: 120_000,
    maxTimeoutMs: 3_600_000,
    maxOutputBytes: 100 * 1024,
    maxConcurrent: 4,
    maxQueued: 16,
    help: false,
    version: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i] as string;
    const eq = raw.indexOf("=");
    const name = raw.startsWith("--") && eq > 0 ? raw.slice(0, eq) : raw;
    const inline = raw.startsWith("--") && eq > 0 ? raw.slice(eq + 1) : undefined;
    const value = (): string | undefined => inline ?? argv[++i];
    switch (name) {
      case "--workspace":
        options.workspace = value();
        if (!options.workspace) throw new UsageError("--workspace needs a directory");
        break;
      case "--shell":
        options.shell = value();
        if (!options.shell) throw new UsageError("--shell needs a path");
        break;
      case "--cordon":
        options.cordon = true;
        break;
      case "--enkaidu-config":
        options.enkaiduConfig = value();
        if (!options.enkaiduConfig) throw new UsageError("--enkaidu-config needs a file");
        break;
      case "--timeout":
        options.timeoutMs = Math.round(positive(name, value(), false) * 1000);
        break;
      case "--max-timeout":
        options.maxTimeoutMs = Math.round(positive(name, value(), false) * 1000);
        break;
      case "--max-output":
        options.maxOutputBytes = positive(name, value(), true);
        break;
      case "--max-concurrent":
        options.maxConcurrent = positive(name, value(), true);
        break;
      case "--max-queued": {
        const v = value();
        const n = Number(v);
        if (!Number.isInteger(n) || n < 0)
          throw new UsageError(`--max-queued must be a whole number, not "${v}"`);
        options.maxQueued = n;
        break;
      }
      case "--help":
      case "-h":
        options.help = true;
        break;
      case "--version":
        options.version = true;
        break;
      default:
        throw new UsageError(`unknown option ${raw} (see slashi-mcp --help)`);
    }
  }
  if (options.timeoutMs > options.maxTimeoutMs) options.maxTimeoutMs = options.timeoutMs;
  return options;
}
