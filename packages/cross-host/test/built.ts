// What the cross-host tests start besides the hosts' sources: the built `slashi` binary, a local registry, a
// pseudo-terminal. Each is looked up once here; a missing one skips the tests that need it, except under CI, where
// it is an error (`@slashi/test-utils`' `skipUnlessCi`, `requireTool`).
import { fileURLToPath } from "node:url";
import { requireTool, verdaccioUnavailable } from "@slashi/test-utils";

/** The built `slashi` binary. */
export const SLASHI = fileURLToPath(new URL("../../../apps/cli/dist/bin.js", import.meta.url));

/** Whether verdaccio is installed (`e2e/registry/install.sh`); throws under CI when it is not. */
export function registryInstalled(): boolean {
  return verdaccioUnavailable() === undefined;
}

/**
 * util-linux `script`, which gives a host a terminal a person answers on; `undefined` when it is missing (an
 * error under CI, naming `what` needs it).
 */
export function pseudoTerminal(what: string): string | undefined {
  return requireTool("script", what);
}
