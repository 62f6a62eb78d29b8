// Shared helpers for the CLI tests: run the built binary with an isolated config and state directory.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { codeLoadingVariables } from "@slashi/runtime";
import { scratchDir } from "@slashi/test-utils";
import { execa, type Result } from "execa";
import { beforeAll } from "vitest";
import type { Io } from "../src/io.js";

/** The built binary. */
export const BIN = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

/** Fails with a clear message when the binary was not built (the test task depends on the build). */
export function assertBuilt(): void {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`pnpm --filter @slashi/cli build\` first`);
}

export { tempDir } from "@slashi/test-utils";

/**
 * An environment with its own config, state and home, free of the caller's XDG and SLASHI settings, with the
 * decision service off.
 */
export function isolatedEnv(root: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith("SLASHI_") || k.startsWith("XDG_") || k === "NO_COLOR") continue;
    // The test runner's own (pnpm sets NODE_PATH): with one, no command could be always-allowed.
    if (codeLoadingVariables({ [k]: v }).length > 0) continue;
    env[k] = v;
  }
  return {
    ...env,
    HOME: path.join(root, "home"),
    SLASHI_CONFIG_DIR: path.join(root, "config"),
    SLASHI_STATE_DIR: path.join(root, "state"),
    // Each test answers in-process; test/service.test.ts covers the decision service.
    SLASHI_SERVICE: "off",
    ...extra,
  };
}

/** Runs the binary; never rejects on a non-zero status. */
export function slashi(
  args: readonly string[],
  options: { env: Record<string, string>; cwd?: string; input?: string },
): Promise<Result<{ reject: false; extendEnv: false }>> & {
  kill: (signal?: NodeJS.Signals) => boolean;
  pid?: number;
} {
  return execa(process.execPath, [BIN, ...args], {
    env: options.env,
    extendEnv: false,
    cwd: options.cwd ?? process.cwd(),
    reject: false,
    ...(options.input !== undefined ? { input: options.input } : { stdin: "ignore" }),
  }) as unknown as Promise<Result<{ reject: false; extendEnv: false }>> & {
    kill: (signal?: NodeJS.Signals) => boolean;
    pid?: number;
  };
}

/** A scratch root for the binary's tests: its environment, a workspace and a way to run `slashi` in it. */
export interface CliSandbox {
  /** The root (removed after the tests); `home/`, `config/` and `state/` below it are the environment's. */
  dir: string;
  /** The workspace, `<dir>/project`, with a `.git` folder. */
  ws: string;
  /** {@link isolatedEnv} of `dir`, with `extra`. */
  env: Record<string, string>;
  /** Runs the binary in `ws` with `env`, feeding `input` on stdin when given. */
  run: (args: readonly string[], input?: string) => ReturnType<typeof slashi>;
}

/**
 * A {@link CliSandbox} for the tests of one file or `describe` (call it there, not in a test): the root is a
 * `scratchDir`, removed when those tests are done; before them the binary is checked to be built and the
 * workspace and home are made. In a skipped suite nothing is made.
 */
export function cliSandbox(prefix: string, extra: Record<string, string> = {}): CliSandbox {
  const dir = scratchDir(prefix);
  const ws = path.join(dir, "project");
  const env = isolatedEnv(dir, extra);
  beforeAll(() => {
    assertBuilt();
    mkdirSync(path.join(ws, ".git"), { recursive: true });
    mkdirSync(path.join(dir, "home"), { recursive: true });
  });
  return {
    dir,
    ws,
    env,
    run: (args, input) => slashi(args, { env, cwd: ws, ...(input !== undefined ? { input } : {}) }),
  };
}

/**
 * Writes `<dir>/<name>`, a policy on top of the recommended preset that allows each of `programs` (by its first
 * word), and returns its path: for a test whose command the policy must let through to what it checks.
 */
export function allowingPolicy(dir: string, programs: readonly string[], name = "allow-policy.json"): string {
  const file = path.join(dir, name);
  writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      extends: ["recommended"],
      rules: programs.map((program) => ({ match: [program], decision: "allow" })),
    }),
  );
  return file;
}

/** Writes `<packsDir>/packs.lock.json` as `slashi pack install` leaves it, one entry per pack (`sha512-AAAA` integrity). */
export function writePacksLock(
  packsDir: string,
  packs: Record<string, { version: string; dir: string; manifestSha256: string }>,
): void {
  const entries = Object.fromEntries(
    Object.entries(packs).map(([name, p]) => [
      name,
      {
        version: p.version,
        integrity: "sha512-AAAA",
        registry: "https://registry.npmjs.org/",
        installedAt: "2026-12-01T00:00:00.000Z",
        dir: p.dir,
        signature: "unsigned",
        manifestSha256: p.manifestSha256,
      },
    ]),
  );
  writeFileSync(
    path.join(packsDir, "packs.lock.json"),
    JSON.stringify({ format: "slashi.packs-lock", version: 1, packs: entries }),
  );
}

/**
 * An in-process terminal for `main`: what was written to stdout and stderr, and `answers` typed at the prompts
 * (interactive only when answers are given).
 */
export function scriptedIo(
  env: Record<string, string>,
  cwd: string,
  answers?: string,
): Io & { out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (c: Buffer) => (out += c.toString()));
  stderr.on("data", (c: Buffer) => (err += c.toString()));
  return {
    stdout,
    stderr,
    stdin: Readable.from(answers === undefined ? [] : [answers]),
    env,
    cwd,
    interactive: answers !== undefined,
    color: false,
    out: () => out,
    err: () => err,
  };
}
