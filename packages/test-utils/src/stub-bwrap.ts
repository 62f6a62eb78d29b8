import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Writes a "bubblewrap" into `dir` that skips its options and runs the command unconfined, as a broken setuid
 * bwrap or a planted stub would: put `dir` first on PATH and every cordoned run must refuse. Returns `dir`.
 * POSIX only (a `#!/bin/sh` script).
 */
export function writeStubBwrap(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, "bwrap"),
    '#!/bin/sh\nwhile [ "$1" != "--" ]; do shift; done\nshift\nexec "$@"\n',
    {
      mode: 0o755,
    },
  );
  return dir;
}
