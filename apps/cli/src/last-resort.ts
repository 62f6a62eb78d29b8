/**
 * The binary's last word: what `bin.ts` prints and exits with for an error nothing else caught (the in-process
 * bundle could not load, the decision service failed to start). The text goes through the one error table
 * ({@link formatError}: control characters shown, a `SlashiError`'s code, the bug-report line) and the status
 * through {@link toExitCode}, like every other error of the CLI. The values of secret-named environment
 * variables are replaced (an error may quote a command line or an environment), and the stack trace is printed
 * only when {@link DEBUG_ENV} asks for it, its lines made visible the same way.
 */
import { showControls } from "@slashi/core";
import { isSecretEnvName, redactSecrets } from "@slashi/runtime";
import { formatError, toExitCode } from "./errors.js";

/** The environment variable that adds the stack trace to the last-resort error (`SLASHI_DEBUG=1`). */
export const DEBUG_ENV = "SLASHI_DEBUG";

/** What the binary writes to stderr and the status it exits with. */
export interface LastResortReport {
  /** The text for stderr, ending in a newline. */
  text: string;
  /** The exit status. */
  status: number;
}

/**
 * The report for an error that reached the binary's outermost handler.
 * @param error - anything thrown
 * @param env - the process environment: secret values to hide, {@link DEBUG_ENV}
 */
export function lastResortReport(error: unknown, env: NodeJS.ProcessEnv): LastResortReport {
  const secrets = Object.entries(env)
    .filter(([name, value]) => value !== undefined && value !== "" && isSecretEnvName(name))
    .map(([, value]) => value as string);
  const stack = error instanceof Error && typeof error.stack === "string" ? error.stack : undefined;
  const debug = env[DEBUG_ENV] !== undefined && env[DEBUG_ENV] !== "" && env[DEBUG_ENV] !== "0";
  const lines = [formatError(error)];
  // The stack starts with the message, shown above; only its frames are added.
  if (debug && stack !== undefined) lines.push(showControls(stack.split("\n").slice(1).join("\n")));
  return {
    text: `${lines.map((line) => redactSecrets(line, secrets)).join("\n")}\n`,
    status: toExitCode(error),
  };
}
