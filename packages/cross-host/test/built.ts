// What the cross-host tests start besides the hosts' sources: the built `slashi` binary, a local registry, a
// pseudo-terminal. Each is looked up once here; a missing one skips the tests that need it, except under CI, where
// it is an error.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { verdaccioUnavailable } from "@slashi/test-utils";

/** The built `slashi` binary. */
export const SLASHI = fileURLToPath(new URL("../../../apps/cli/dist/bin.js", import.meta.url));

/** Whether verdaccio is installed (`e2e/registry/install.sh`); throws under CI when it is not. */
export function registryInstalled(): boolean {
  const missing = verdaccioUnavailable();
  if (missing !== undefined && process.env.CI) throw new Error(`verdaccio is not installed: ${missing}`);
  return missing === undefined;
}

/**
 * util-linux `script`, which gives a host a terminal a person answers on; `undefined` when it is missing (an
 * error under CI on Linux, naming `what` needs it).
 */
export function pseudoTerminal(what: string): string | undefined {
  const found = ["/usr/bin/script", "/bin/script"].find((p) => existsSync(p));
  if (found === undefined && process.platform === "linux" && process.env.CI)
    throw new Error(`util-linux \`script\` is missing: ${what} needs a pseudo-terminal`);
  return found;
}
