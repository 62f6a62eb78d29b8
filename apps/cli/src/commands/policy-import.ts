/** `slashi policy import enkaidu FILE`: an Enkaidu config as a native policy file, with what changed in meaning. */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { nativePolicyFromEnkaidu } from "@slashi/core";
import { readEnkaiduPolicy, SLASHI_FILES, writeFileAtomic } from "@slashi/runtime";
import { enkaiduReadOptions, slashiPaths } from "../context.js";
import { CliError, ExitCode } from "../errors.js";
import { readIfPresent } from "../files.js";
import { jsonText, println, type Io } from "../io.js";
import type { ParsedArgs } from "../options.js";

/**
 * `slashi policy import enkaidu FILE [--output F|-] [--force]`: reads the Enkaidu config (with the `ENKAIDU_*`
 * fallbacks), writes the equivalent native policy (by default the user policy file, never over an existing file
 * without `--force`, which keeps a backup) and prints every change of meaning.
 */
export async function policyImport(args: ParsedArgs, io: Io): Promise<number> {
  const [format, source, ...rest] = args.operands;
  if (format !== "enkaidu" || source === undefined || rest.length > 0) {
    throw new CliError("usage: slashi policy import enkaidu FILE", ExitCode.USAGE);
  }
  const file = path.resolve(io.cwd, source);
  const paths = slashiPaths(io);
  // Its cordon keys are checked for the workspace of the working directory, as a host reading it there would.
  const layer = await readEnkaiduPolicy(file, await enkaiduReadOptions(io, io.cwd));
  const settings = layer.enkaidu;
  if (settings === undefined) throw new CliError(`${file}: no Enkaidu settings`, ExitCode.INVALID_INPUT);
  const { document, changes } = nativePolicyFromEnkaidu(settings);
  const text = `${jsonText({ $schema: "https://slashi.dev/schemas/policy.json", ...document }, 2)}\n`;
  const output =
    typeof args.flags.output === "string"
      ? args.flags.output
      : path.join(paths.configDir, SLASHI_FILES.userPolicy);
  if (output === "-") {
    io.stdout.write(text);
  } else {
    const target = path.resolve(io.cwd, output);
    const previous = await readIfPresent(target);
    const there = previous !== undefined;
    if (there && args.flags.force !== true) {
      throw new CliError(
        `${target} already exists; nothing was written`,
        ExitCode.USAGE,
        "use --force to replace it (the old file is kept with .slashi-backup), or --output FILE",
      );
    }
    if (there) await writeFile(`${target}.slashi-backup`, previous);
    await writeFileAtomic(target, text);
    println(io.stdout, `wrote ${target}${there ? ` (previous file kept as ${target}.slashi-backup)` : ""}`);
  }
  const out = output === "-" ? io.stderr : io.stdout;
  println(out, "What changes in meaning:");
  for (const change of changes) println(out, `  - ${change}`);
  return ExitCode.OK;
}
