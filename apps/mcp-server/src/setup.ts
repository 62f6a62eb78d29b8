/**
 * How the server opens the runtime's policy session: the managed policy (only when its ownership check passes),
 * the user policy (`<config dir>/policy.json`; without one the `recommended` preset), the workspace policy
 * (its allow rules count only once the person approved its content with `slashi trust`), and the installed
 * packs they extend. Nothing a tool call sends can change any of this: the files are read from the user's own
 * directories and the workspace the server was started in, and re-read when they change.
 */
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ShellParserOptions } from "@slashi/core";
import {
  bundledParserFiles,
  openPolicySession,
  workspaceOf,
  type PackLayerLoader,
  type PolicySession,
} from "@slashi/runtime";

/** The parser's wasm files shipped next to the bundle, when there. */
function parserFiles(): ShellParserOptions | undefined {
  return bundledParserFiles(path.dirname(fileURLToPath(import.meta.url)));
}

/** The installed packs a policy extends; the registry client is loaded only when some policy names a pack. */
const packLayers: PackLayerLoader = async (names, options) =>
  (await import("@slashi/registry-client")).loadInstalledPackLayers(names, options);

/** A path from the host's MCP config: `~/` is the home directory (no shell expands it there), else from `cwd`. */
function expandHome(file: string, cwd: string, env: NodeJS.ProcessEnv): string {
  if (file === "~" || file.startsWith("~/")) return path.join(env.HOME || homedir(), file.slice(1));
  return path.resolve(cwd, file);
}

/**
 * Opens the session the server decides under.
 * @param options.cwd - the server's working directory (the workspace is found from it)
 * @param options.workspace - the `--workspace` directory instead of `cwd`: the workspace is the one it belongs to
 *   (the runtime's `workspaceOf`: the git root above it, or the directory, which need not exist)
 * @param options.enkaiduConfig - the `--enkaidu-config` file, relative to `cwd` (`~/` is the home directory)
 */
export function openServerSession(options: {
  env: NodeJS.ProcessEnv;
  cwd: string;
  workspace?: string;
  shell: string;
  enkaiduConfig?: string;
}): Promise<PolicySession> {
  const parser = parserFiles();
  return openPolicySession({
    env: options.env,
    cwd: options.cwd,
    ...(options.workspace === undefined
      ? {}
      : { workspaceRoot: workspaceOf(path.resolve(options.cwd, options.workspace)).root }),
    shell: options.shell,
    ...(options.enkaiduConfig === undefined
      ? {}
      : { enkaiduConfig: expandHome(options.enkaiduConfig, options.cwd, options.env) }),
    ...(parser === undefined ? {} : { parser }),
    packLayers,
  });
}
