import type { ExtractedCommand, ShellAnalysis } from "../shell/types.js";
import { invocationOf } from "./argv.js";
import { classifyContainers } from "./containers.js";
import { classifyDestroyers, detectForkBomb } from "./destroy.js";
import { classifyDirectoryCode, classifyUnknownDirectory, commandContexts } from "./directory.js";
import { classifyEnvironment } from "./environment.js";
import { classifyGit } from "./git.js";
import { classifyInline } from "./inline.js";
import { classifyLine } from "./line.js";
import { classifyNetwork } from "./network.js";
import { classifyProgram } from "./program.js";
import { classifyRemoval } from "./rm.js";
import { classifySecrets } from "./secrets.js";
import { classifyTools } from "./tools.js";
import type { Finding, SafetyContext } from "./types.js";
import { argumentWrites, classifyWrites, redirectWrites, runnerWrites } from "./writes.js";

/** Keeps the first finding per code and subject, deny before ask, otherwise in classifier order. */
function tidy(findings: readonly Finding[]): Finding[] {
  if (findings.length === 0) return [];
  if (findings.length === 1) return [findings[0]!];
  const seen = new Set<string>();
  const unique = findings.filter((f) => {
    const key = `${f.code}\u0000${f.subject ?? ""}\u0000${f.command ?? ""}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return [...unique.filter((f) => f.severity === "deny"), ...unique.filter((f) => f.severity === "ask")];
}

/**
 * Runs every safety classifier over one extracted command: program identity, removals, git, option-level
 * rules, inline code, destroyers, network and supply chain, the environment, containers, tools that run the
 * directory's code, writes (redirections, output options, destinations), secret reads and self-protection.
 * Pure: no file system, no environment. The command is judged in the directory it really runs in
 * (`command.cwd`, `env -C`), resolved against `context.cwd`; when an earlier `cd` may have failed, in each
 * directory it may run in.
 * @param command - one simple command from `analyzeShell`, or built with `commandFromArgv`
 * @param context - where it runs (cwd, workspace root, home, protected paths)
 * @returns findings, `deny` ones first; empty when nothing stands out
 */
export function classifyCommand(command: ExtractedCommand, context: SafetyContext): Finding[] {
  const contexts = commandContexts(command, context);
  if (contexts.length === 1) return classifyIn(command, contexts[0]!);
  // an earlier `cd` may have failed: every directory it may run in counts
  return tidy(contexts.flatMap((c) => classifyIn(command, c)));
}

/** {@link classifyCommand} in one directory. */
function classifyIn(command: ExtractedCommand, context: SafetyContext): Finding[] {
  if (command.lookupOnly) {
    // `command -v x` does not run x, but its redirections still write and read files
    return tidy([
      ...classifyWrites(redirectWrites(command), command, context),
      ...classifySecrets(undefined, command, context),
    ]);
  }
  const invocation = invocationOf(command);
  const findings: Finding[] = classifyProgram(invocation, command, context);
  const writes = redirectWrites(command);
  append(writes, runnerWrites(command));
  if (invocation !== undefined) {
    append(findings, classifyRemoval(invocation, context));
    append(findings, classifyGit(invocation, context));
    append(findings, classifyTools(invocation, context));
    append(findings, classifyInline(invocation));
    append(findings, classifyDestroyers(invocation, context));
    append(findings, classifyNetwork(invocation));
    append(findings, classifyDirectoryCode(invocation, context));
    append(findings, classifyUnknownDirectory(invocation, context));
    append(findings, classifyEnvironment(invocation));
    append(findings, classifyContainers(invocation, context));
    append(writes, argumentWrites(invocation, context));
  }
  if (writes.length > 0) append(findings, classifyWrites(writes, command, context));
  append(findings, classifySecrets(invocation, command, context));
  return tidy(findings);
}

/** Appends `more` to `to` without spreading (most classifiers find nothing). */
function append<T>(to: T[], more: readonly T[]): void {
  for (let i = 0; i < more.length; i++) to.push(more[i]!);
}

/**
 * Classifies every command of an analysed script, plus what only the script text shows (fork bombs) and what
 * only the whole line shows (a secret read with a network send, decoded bytes run as code, `/dev/tcp`).
 * The analyser's own findings are not repeated here.
 * @param analysis - the result of `analyzeShell`
 * @param context - where the script runs
 * @param script - the script text, for script-level checks; optional
 */
export function classifyAnalysis(
  analysis: ShellAnalysis,
  context: SafetyContext,
  script?: string,
): Finding[] {
  const findings = analysis.commands.flatMap((command) => classifyCommand(command, context));
  if (script !== undefined) {
    const bomb = detectForkBomb(script);
    if (bomb !== undefined) findings.unshift(bomb);
    append(findings, classifyLine(script, analysis, context));
  }
  return tidy(findings);
}
