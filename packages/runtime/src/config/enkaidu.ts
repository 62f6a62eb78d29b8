/**
 * Reading an Enkaidu session config (`enkaidu.yml`, `.enkaidu/config.yml`) and the `ENKAIDU_*` environment into
 * a policy layer, unchanged: the YAML is parsed here, its `tool_settings.shell_command` read with Enkaidu's
 * defaults by the core, and every problem reported with the file, line and JSON path.
 */
import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { homedir } from "node:os";
import {
  SlashiError,
  SlashiErrorCode,
  enkaiduPolicyDocument,
  enkaiduSettingsFrom,
  isSlashiError,
} from "@slashi/core";
import { isExtendsPath } from "@slashi/core/internal";
import type { EnkaiduOs, PolicyDocument } from "@slashi/core";
import { checkEnkaiduCordonKeys, type EnkaiduCordonContext } from "./enkaidu-cordon.js";

/** Enkaidu config files are small; a larger one is refused rather than read. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** Options for {@link readEnkaiduPolicy}. */
export interface ReadEnkaiduOptions {
  /** Reads an environment variable, for the `ENKAIDU_*` fallbacks. Default: `process.env`. */
  env?: (name: string) => string | undefined;
  /** The platform whose Enkaidu constants apply. Default: `process.platform`. */
  platform?: NodeJS.Platform;
  /**
   * Where the file's `session.readonly` and `cordon.policy` paths are checked against what Slashi's cordon
   * honours. Default: the home directory and no workspace, so every `read_write_paths` entry is refused.
   */
  cordon?: EnkaiduCordonContext;
}

/** The Enkaidu OS for a Node platform. */
export function enkaiduOs(platform: NodeJS.Platform): EnkaiduOs {
  return platform === "win32" ? "windows" : "unix";
}

/**
 * Whether an `extends` entry names an Enkaidu config: a path (core's `isExtendsPath`: `./x.yml`, `~/x.yml`,
 * `.enkaidu/config.yml`) to a `.yml`/`.yaml` file. A pack whose name ends in `.yml` (`@acme/policy.yml`) is a pack.
 */
export function isEnkaiduConfigPath(entry: string): boolean {
  return isExtendsPath(entry) && /\.ya?ml$/i.test(entry);
}

/**
 * Reads an Enkaidu config file (or, with `file` undefined, only the `ENKAIDU_*` environment) into the policy
 * document of an Enkaidu layer. The file's `session.readonly` and `cordon.policy` paths are checked against what
 * Slashi's cordon honours (`checkEnkaiduCordonKeys`): a key it cannot honour is refused, never ignored.
 * @throws SlashiError `IO_FAILED` when the file cannot be read or is not a regular file, `INVALID_POLICY`
 *   with file, line, column and JSON path for YAML syntax errors, values of the wrong type and cordon keys
 *   Slashi cannot honour
 */
export async function readEnkaiduPolicy(
  file: string | undefined,
  options: ReadEnkaiduOptions = {},
): Promise<PolicyDocument> {
  const env = options.env ?? ((name: string) => process.env[name]);
  const os = enkaiduOs(options.platform ?? process.platform);
  if (file === undefined) return enkaiduPolicyDocument(enkaiduSettingsFrom({ env, os }));
  const text = await readConfigText(file);
  // yaml is CommonJS under Node: bundlers hand its exports over as `default` only.
  const loaded = await import("yaml");
  const { LineCounter, parseDocument } = ("default" in loaded ? loaded.default : loaded) as typeof loaded;
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const syntax = document.errors[0];
  if (syntax) {
    const at = lines.linePos(syntax.pos[0]);
    throw new SlashiError(
      SlashiErrorCode.INVALID_POLICY,
      `${file}:${at.line}:${at.col}: ${syntax.message.split("\n")[0] ?? "invalid YAML"}`,
      { file, line: at.line, column: at.col },
    );
  }
  try {
    const config: unknown = document.toJS();
    const settings = enkaiduSettingsFrom({ config, file, env, os });
    await checkEnkaiduCordonKeys(config, file, options.cordon ?? { home: homedir() });
    return enkaiduPolicyDocument(settings);
  } catch (error) {
    if (!isSlashiError(error) || typeof error.data.jsonPath !== "string") throw error;
    const path = error.data.jsonPath.split("/").slice(1);
    const node = document.getIn(
      path.map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
      true,
    ) as { range?: [number, number, number] } | undefined;
    const at = node?.range ? lines.linePos(node.range[0]) : undefined;
    throw new SlashiError(
      error.code,
      at === undefined
        ? error.message
        : `${file}:${at.line}:${at.col}: ${error.message.replace(`${file}: `, "")}`,
      { ...error.data, ...(at === undefined ? {} : { line: at.line, column: at.col }) },
      { cause: error },
    );
  }
}

/** Reads a regular file of bounded size; a FIFO or device is refused without blocking on it. */
async function readConfigText(file: string): Promise<string> {
  try {
    const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw new Error("not a regular file");
      if (info.size > MAX_CONFIG_BYTES) throw new Error(`larger than ${MAX_CONFIG_BYTES} bytes`);
      return await handle.readFile("utf8");
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new SlashiError(
      SlashiErrorCode.IO_FAILED,
      `cannot read the Enkaidu config ${file}: ${(error as Error).message}`,
      { file },
      { cause: error },
    );
  }
}
