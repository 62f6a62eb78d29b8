/** `slashi hook install claude|gemini|cursor [--project|--user]`. */
import { homedir } from "node:os";
import path from "node:path";
import { resolveWorkspace } from "../context.js";
import { UsageError } from "../errors.js";
import { AGENTS, type Agent } from "../hooks/formats.js";
import { installHook, settingsFile } from "../hooks/install.js";
import { println, type Io } from "../io.js";
import type { ParsedArgs } from "../options.js";

/** Runs `slashi hook install`. */
export async function hookInstall(args: ParsedArgs, io: Io): Promise<number> {
  const [agent, ...extra] = args.operands;
  if (agent === undefined || !AGENTS.includes(agent as Agent)) {
    throw new UsageError(
      `slashi hook install needs an agent: ${AGENTS.join(", ")}`,
      "example: slashi hook install claude",
    );
  }
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  if (args.flags.project === true && args.flags.user === true)
    throw new UsageError("give --project or --user, not both");
  const scope = args.flags.user === true ? "user" : "project";
  const cwd = path.resolve(io.cwd, typeof args.flags.cwd === "string" ? args.flags.cwd : ".");
  const root = scope === "project" ? (await resolveWorkspace(cwd)).root : cwd;
  const home = io.env.HOME ?? homedir();
  const command = typeof args.flags.command === "string" ? args.flags.command : "slashi";
  const file = settingsFile(agent as Agent, scope, root, home);
  const result = await installHook(agent as Agent, file, command);
  if (!result.changed) {
    println(io.stdout, `${file} already runs \`${command} hook ${agent}\`; nothing changed`);
  } else {
    println(
      io.stdout,
      `added \`${command} hook ${agent}\` to ${file}${result.backup ? ` (previous file kept as ${result.backup})` : ""}`,
    );
  }
  return 0;
}
