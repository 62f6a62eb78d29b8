/**
 * Package scripts a package script runs: `npm run X`, `npm test`, `yarn X`, `pnpm X`… in a script body (read with
 * core's shell analysis), recursively, with their `pre`/`post` scripts. Script runners that pick scripts by
 * pattern and another package's scripts are refused.
 */
import path from "node:path";
import type { ExtractedCommand } from "@slashi/core";
import { analysed, dynamicWord } from "./shell-text.js";

/** Package managers that run package scripts. */
export const PACKAGE_MANAGERS: ReadonlySet<string> = new Set(["npm", "pnpm", "yarn", "bun"]);
/** Subcommands that run package scripts. */
const SCRIPT_RUNS = new Set([
  "run",
  "run-script",
  "rum",
  "urn",
  "test",
  "t",
  "tst",
  "start",
  "stop",
  "restart",
]);
/** Programs that run package scripts by name or pattern. */
const SCRIPT_RUNNERS = new Set([
  "npm-run-all",
  "npm-run-all2",
  "run-s",
  "run-p",
  "concurrently",
  "turbo",
  "nx",
  "lerna",
  "wireit",
]);

/** The script a nested package-manager command runs: its name, `undefined` for none, or a refusal. */
export function nestedScript(
  command: ExtractedCommand,
  scripts: Readonly<Record<string, string>>,
  owner: string,
): string | undefined | { refused: string } {
  const [program, sub, name] = command.effective;
  const manager = path.posix.basename(program ?? "");
  if (SCRIPT_RUNNERS.has(manager))
    return { refused: `the "${owner}" script runs other scripts with ${manager}` };
  if (!PACKAGE_MANAGERS.has(manager) || sub === undefined) return undefined;
  const other = command.effective
    .slice(1)
    .find((w) => /^(--prefix|-C|--dir|--filter|-F|-w|--workspace|-r|--recursive|--cwd)(=|$)/.test(w));
  if (other !== undefined)
    return { refused: `the "${owner}" script runs a script of another package (${manager} ${other})` };
  if (command.effective.slice(1, 3).some((_, i) => dynamicWord(command, i + 1)))
    return { refused: `the "${owner}" script runs a package script named only at run time` };
  if (command.cwd !== undefined)
    return { refused: `the "${owner}" script runs ${manager} after changing directory` };
  if (sub === "test" || sub === "t" || sub === "tst") return "test";
  if (sub === "start") return "start";
  if (SCRIPT_RUNS.has(sub)) {
    if (sub === "stop" || sub === "restart" || name === undefined || name.startsWith("-"))
      return { refused: `the "${owner}" script runs ${manager} ${sub} with options Slashi does not follow` };
    return name;
  }
  // yarn X, pnpm X, bun X: a script of that name runs.
  if (manager !== "npm" && Object.hasOwn(scripts, sub)) return sub;
  return undefined;
}

/**
 * The package scripts that `names` run through nested `npm run X`, `npm test`, `yarn X`…, recursively, each
 * with its `pre`/`post` scripts, in order of discovery (without the given names). Refused: a body that runs a
 * command named only at run time, another package's scripts, a script runner that picks scripts by pattern.
 */
export function nestedScripts(
  names: readonly string[],
  scripts: Readonly<Record<string, string>>,
): string[] | { refused: string } {
  const seen = new Set(names);
  const queue = [...names];
  const out: string[] = [];
  while (queue.length > 0) {
    const owner = queue.shift() as string;
    const body = scripts[owner];
    if (body === undefined) continue;
    const commands = analysed(body, `the "${owner}" script`);
    if (!Array.isArray(commands)) return commands;
    for (const command of commands) {
      if (command.effective.length === 0) continue;
      if (!command.staticProgram)
        return { refused: `the "${owner}" script runs a command named only at run time` };
      const nested = nestedScript(command, scripts, owner);
      if (nested === undefined) continue;
      if (typeof nested !== "string") return nested;
      if (!Object.hasOwn(scripts, nested))
        return { refused: `the "${owner}" script runs "${nested}", which package.json does not have` };
      for (const name of [`pre${nested}`, nested, `post${nested}`]) {
        if (seen.has(name) || !Object.hasOwn(scripts, name)) continue;
        seen.add(name);
        out.push(name);
        queue.push(name);
      }
    }
  }
  return out;
}
