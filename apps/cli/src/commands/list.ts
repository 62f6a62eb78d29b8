/**
 * `slashi list`: every slash command of the working directory in lookup order (the runtime's command
 * catalogue), each with its source, and the ones a command of the same name that comes first hides.
 */
import { hiddenBy, sourceName, untrustedNotes } from "@slashi/runtime";
import { ExitCode } from "../errors.js";
import { jsonText, paint, println, shown, type Io } from "../io.js";
import type { ParsedArgs } from "../options.js";
import { cwdFlag, loadCommands } from "./slash/catalogue.js";

/** `slashi list`. */
export async function listCommand(args: ParsedArgs, io: Io): Promise<number> {
  const loaded = await loadCommands(io, cwdFlag(args, io));
  const rows = loaded.entries.map((e) => {
    const winner = hiddenBy(loaded, e);
    return {
      name: `/${e.name}`,
      description: e.definition.description ?? "",
      source: e.source,
      ...(e.pack ? { pack: e.pack.id, version: e.pack.version } : {}),
      ...(winner ? { hiddenBy: sourceName(winner) } : {}),
    };
  });
  if (args.flags.json === true) {
    println(
      io.stdout,
      jsonText(
        {
          workspace: loaded.workspace.root,
          trusted: loaded.trusted,
          commands: rows,
          untrustedTeamCommands: loaded.untrustedTeamCommands,
          untrustedPacks: loaded.untrustedPacks,
          problems: loaded.problems.map((p) => ({
            file: p.file,
            code: p.error.code,
            message: p.error.message,
            ...(typeof p.error.data.jsonPath === "string" ? { jsonPath: p.error.data.jsonPath } : {}),
          })),
        },
        2,
      ),
    );
  } else {
    if (rows.length === 0 && loaded.problems.length === 0)
      println(io.stdout, shown`no commands (add them to ${loaded.userFile} or ${loaded.teamFile})`);
    const width = Math.max(0, ...rows.map((r) => shown`${r.name}`.length));
    for (const r of rows) {
      const where =
        r.pack !== undefined
          ? shown`pack ${r.pack}@${r.version}`
          : r.source === "workspace"
            ? "workspace"
            : "";
      const notes = [
        where,
        r.hiddenBy !== undefined ? shown`hidden by the ${r.hiddenBy} command` : "",
      ].filter((n) => n !== "");
      println(
        io.stdout,
        shown`${r.name}`.padEnd(width) +
          shown`  ${r.description}` +
          (notes.length ? paint(io, "dim", `  (${notes.join("; ")})`) : ""),
      );
    }
  }
  for (const note of untrustedNotes(loaded)) println(io.stderr, shown`${note}`);
  for (const p of loaded.problems)
    println(io.stderr, shown`slashi: warning: ${p.file} is not loaded: ${p.error.message}`);
  return loaded.problems.length > 0 ? ExitCode.INVALID_INPUT : ExitCode.OK;
}
