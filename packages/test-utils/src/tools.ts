// The real programs and installs tests drive (shells, bubblewrap, git, an agent's published package…). A test
// whose program is missing skips with a message on a developer's machine; under CI, where `.ci/run` installs
// them, a missing one fails the run instead, so a broken CI set-up cannot pass by running nothing.
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";

/**
 * The programs `.ci/run` makes sure of on the CI machine (Debian packages it installs when missing, the Node it
 * runs on, and `script`, `flock` from Debian's essential `bsdutils` and `util-linux`). {@link requireTool} takes
 * only these; a test of another program (pwsh, python3, gcc, curl…) looks it up with {@link findTool} and skips
 * without it, also under CI, and `CONTRIBUTING.md` lists it.
 */
export const CI_TOOLS = [
  "bash",
  "dash",
  "zsh",
  "fish",
  "bwrap",
  "socat",
  "rg",
  "openssl",
  "git",
  "make",
  "setpriv",
  "flock",
  "script",
  "node",
  "npm",
] as const;

/** A program {@link requireTool} may require. */
export type CiTool = (typeof CI_TOOLS)[number];

/** Whether the tests run under CI: `CI` is set to anything but empty, `0` or `false`. */
export function underCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== "" && value !== "0" && value !== "false";
}

function executable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The absolute path of the program `name`: the first executable file of that name in a directory of `env.PATH`
 * (an absolute `name` is checked as it is); `undefined` when there is none. Never throws: for a program CI does
 * not install, or to ask whether one is there.
 */
export function findTool(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (path.isAbsolute(name)) return executable(name) ? name : undefined;
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (dir === "" || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, process.platform === "win32" ? `${name}.exe` : name);
    if (executable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Decides a test's skip when something it needs is missing: `missing` is why it cannot run (`undefined` when it
 * can). Returns `true` (skip) with a warning naming `what` needs it, `false` when nothing is missing; under CI a
 * missing piece throws instead, so the file fails. For what `.ci/run` installs that is not a program on PATH (a
 * package of `e2e/*\/install.sh`, a working bubblewrap); use it as `describe.skipIf(skipUnlessCi(reason, what))`,
 * after any platform condition (`process.platform !== "linux" || skipUnlessCi(…)`).
 */
export function skipUnlessCi(missing: string | undefined, what: string): boolean {
  if (missing === undefined) return false;
  const message = `${what}: ${missing}`;
  if (underCi()) throw new Error(`${message} (CI installs it: see .ci/run)`);
  // eslint-disable-next-line no-console -- a skip names what it did not run, in the test run's output
  console.warn(`skipped, ${message}`);
  return true;
}

/**
 * The absolute path of `name`, one of the programs `.ci/run` installs ({@link CI_TOOLS}), or `undefined` when it
 * is missing, so that the test skips (with a warning naming `what` needs it). Under CI a missing program throws:
 * the tests that need it fail instead of passing by not running.
 */
export function requireTool(name: CiTool, what = "a test"): string | undefined {
  if (!isCiTool(name))
    throw new Error(
      `${name} is not installed by .ci/run: look it up with findTool and list it in CONTRIBUTING.md`,
    );
  const found = findTool(name);
  if (found !== undefined) return found;
  skipUnlessCi(`${name} is not installed`, what);
  return undefined;
}

/** Whether `.ci/run` installs the program `name` ({@link CI_TOOLS}): then a test may not skip without it under CI. */
export function isCiTool(name: string): name is CiTool {
  return (CI_TOOLS as readonly string[]).includes(name);
}
