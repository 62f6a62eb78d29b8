/**
 * Runs command lines under bubblewrap in the oracle's world and reports what each did. The root file system is
 * read-only; `/home` (the home directory with its canaries and the workspace), `/tmp`, `/run` and `/dev/shm`
 * are private tmpfs mounts; there is no network but the sandbox's own loopback, where a listener (the sink)
 * keeps what each line sends, and the lines get their own pid, IPC and UTS namespaces, a
 * hard timeout, a file-size limit and (when the host lets an unprivileged user own the sandbox) a process
 * limit. Every program on PATH is reached through a shim that records its name before starting the real one.
 */
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { OracleShell } from "./generate.js";
import {
  canaryText,
  FOREIGN_BIN,
  FOREIGN_FILES,
  FOREIGN_REPOSITORY,
  HOME,
  PAYLOAD,
  SINK_HOST,
  SINK_PORT,
  WORKSPACE,
  WORKSPACE_FILES,
  canaryFiles,
  fetchedUrl,
  repositoryConfig,
  type Canaries,
} from "./world.js";

/** Where programs are looked up inside the sandbox, after the shims. */
const REAL_PATH = ["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"];
/** Where the run directory is mounted inside the sandbox (read-only, but for `out/`). */
const RUN_DIR = "/run/oracle";
/** The places a line can write besides the workspace; the driver lists them after every line. */
const WRITABLE = ["/home", "/tmp", "/run", "/dev/shm"];
/** Canary files start with this access time, older than their modification time, so a read moves it. */
const OLD_ATIME = new Date("2000-01-01T00:00:00Z");
/** A sandbox that only starts: whether bubblewrap works here at all (and as which user). */
const PROBE = ["bwrap", "--ro-bind", "/", "/", "--tmpfs", "/home", "--unshare-net", "--unshare-pid", "true"];
/** A user without privileges for the sandbox when the host runs as root: the process limit holds only then. */
const NOBODY = 65534;
/** The program each oracle shell is run as (`sh` is `/bin/sh`, dash on Debian, as the hosts run it). */
const SHELL_NAMES: Readonly<Record<OracleShell, string>> = { bash: "bash", sh: "sh", zsh: "zsh" };

/** The absolute path of a shell (run by path, so no shim records it), or `undefined` when not installed. */
export function shellProgram(shell: OracleShell): string | undefined {
  if (shell === "sh") return "/bin/sh";
  for (const dir of REAL_PATH) {
    const candidate = path.join(dir, SHELL_NAMES[shell]);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** A line to run and the shell to run it with (bash when absent). */
export interface ShellLine {
  line: string;
  shell?: OracleShell;
}

/** Whether the oracle can run here, and why not. */
export interface Availability {
  available: boolean;
  /** Why not, for the skip message. */
  reason?: string;
  /** Whether lines get a process limit (false when the sandbox had to run as root). */
  processLimit: boolean;
}

/** What one line did. */
export interface LineRun {
  /** Exit status of `timeout … bash -c` (137 when the timeout killed it). */
  status: number | undefined;
  stdout: string;
  stderr: string;
  /** Programs started through the shims, in order (basenames). */
  programs: string[];
  /** What the line sent to the sink (every connection, in order). */
  received: string;
  /**
   * The listings of the writable places (`path\ttype\tsize\tmode\tmtime\t(atime | link)` rows) before the
   * line and after it, when they differ.
   */
  listing?: { before: string; after: string };
}

/** Options of a batch. */
export interface RunOptions {
  /** Seconds before a line is killed. */
  timeoutSeconds?: number;
  /** Parallel sandboxes. */
  workers?: number;
}

function run(argv: string[]): { ok: boolean; output: string } {
  const r = spawnSync(argv[0] as string, argv.slice(1), { encoding: "utf8", timeout: 30_000 });
  return { ok: r.error === undefined && r.status === 0, output: `${r.stdout ?? ""}${r.stderr ?? ""}` };
}

/** `setpriv` to an unprivileged user, when the host runs as root (for whom no process limit holds), or `[]`. */
function dropPrivileges(): string[] {
  if (process.getuid?.() !== 0) return [];
  return ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "--"];
}

let prefixCache: string[] | undefined;
/** The command prefix the sandbox starts with: {@link dropPrivileges} when that works here, else nothing. */
function sandboxPrefix(): string[] {
  if (prefixCache !== undefined) return prefixCache;
  const dropped = dropPrivileges();
  prefixCache = dropped.length > 0 && run([...dropped, ...PROBE]).ok ? dropped : [];
  return prefixCache;
}

function bwrapArgs(runDir: string, outDir: string): string[] {
  const mounts =
    "--ro-bind / / --tmpfs /home --tmpfs /tmp --tmpfs /run --dev /dev --tmpfs /dev/shm --proc /proc";
  const namespaces =
    "--unshare-net --unshare-pid --unshare-ipc --unshare-uts --die-with-parent --new-session";
  return [
    "bwrap",
    ...mounts.split(" "),
    ...["--ro-bind", runDir, RUN_DIR, "--bind", outDir, `${RUN_DIR}/out`],
    // the sink's name resolves to the sandbox's loopback
    ...["--ro-bind", path.join(runDir, "hosts"), "/etc/hosts"],
    ...namespaces.split(" "),
    ...["--chdir", "/"],
  ];
}

/**
 * Whether bubblewrap runs here with everything the oracle needs (Linux, `bwrap`, `git`, a writable `/home`
 * mount point), and whether the process limit can hold.
 */
export function oracleAvailability(): Availability {
  if (process.platform !== "linux") {
    return { available: false, reason: "the oracle needs Linux (bubblewrap)", processLimit: false };
  }
  for (const program of ["bwrap", "git", "bash", "zsh", "make", "timeout", "find", "socat"]) {
    if (!run(["sh", "-c", `command -v ${program}`]).ok) {
      return { available: false, reason: `${program} is not installed`, processLimit: false };
    }
  }
  if (!existsSync("/home")) return { available: false, reason: "/home does not exist", processLimit: false };
  const prefix = sandboxPrefix();
  const probe = run([...prefix, ...PROBE]);
  if (!probe.ok) {
    return { available: false, reason: `bwrap cannot start: ${probe.output.trim()}`, processLimit: false };
  }
  return { available: true, processLimit: prefix.length > 0 || process.getuid?.() !== 0 };
}

/** Runs git in a directory of the template, with a fixed identity and no user or system config. */
function git(cwd: string, ...args: string[]): void {
  const r = spawnSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH,
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_AUTHOR_NAME: "dev",
      GIT_AUTHOR_EMAIL: "dev@example.invalid",
      GIT_COMMITTER_NAME: "dev",
      GIT_COMMITTER_EMAIL: "dev@example.invalid",
    },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr}`);
}

function put(file: string, text: string, mode = 0o644): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, mode);
}

/** Writes the home directory (with the workspace repository) the driver copies before the first line. */
function writeTemplate(templateHome: string, canaries: Canaries): void {
  const home = path.join(templateHome, HOME.slice("/home/".length));
  const workspace = path.join(home, path.relative(HOME, WORKSPACE));
  put(path.join(home, ".bashrc"), "# rc file: must never change\n");
  put(path.join(home, ".profile"), "# rc file: must never change\n");
  put(path.join(home, ".gitconfig"), "[user]\n\tname = dev\n\temail = dev@example.invalid\n");
  for (const [file, text] of Object.entries(WORKSPACE_FILES)) put(path.join(workspace, file), text);
  git(workspace, "init", "-q", "-b", "main");
  git(workspace, "add", "-A");
  git(workspace, "commit", "-q", "-m", "first");
  put(path.join(workspace, "docs/notes.txt"), "foo\nbar\nbaz\nqux\n");
  git(workspace, "commit", "-q", "-am", "second");
  git(workspace, "config", "core.hooksPath", ".git/hooks");
  for (const [key, value] of repositoryConfig(canaries.repository)) git(workspace, "config", key, value);
  // what git keeps of a pull from a URL that carries the token: the reflogs' messages and FETCH_HEAD
  const url = fetchedUrl(canaries.repository);
  git(
    workspace,
    "update-ref",
    "--create-reflog",
    "-m",
    `fetch ${url}: storing head`,
    "refs/remotes/origin/main",
    "HEAD",
  );
  git(workspace, "update-ref", "-m", `pull ${url} main: Fast-forward`, "HEAD", "HEAD");
  const head = spawnSync("git", ["rev-parse", "HEAD"], { cwd: workspace, encoding: "utf8" }).stdout.trim();
  put(path.join(workspace, ".git", "FETCH_HEAD"), `${head}\t\tbranch 'main' of ${url}\n`);
  // the old remote definitions git still reads (`git fetch upstream`): a file per remote holding its URL
  put(
    path.join(workspace, ".git", "remotes", "upstream"),
    `URL: ${url}\nPull: refs/heads/main:refs/heads/main\n`,
  );
  put(path.join(workspace, ".git", "branches", "mirror"), `${url}#main\n`);
  for (const hook of ["pre-commit", "post-checkout", "post-merge", "pre-push", "fsmonitor-watchman"]) {
    put(path.join(workspace, ".git", "hooks", hook), `#!/bin/sh\n${PAYLOAD} hook-${hook}\n`, 0o755);
  }
  for (const [file, text] of Object.entries(FOREIGN_FILES)) put(path.join(home, file), text);
  // by its path: the line that runs it has changed PATH
  put(path.join(home, FOREIGN_BIN, "ls"), `#!/bin/sh\n${RUN_DIR}/shims/${PAYLOAD} bin-ls\n`, 0o755);
  const other = path.join(home, FOREIGN_REPOSITORY);
  git(other, "init", "-q", "-b", "main");
  git(other, "add", "-A");
  git(other, "commit", "-q", "-m", "first");
  put(path.join(other, "README.md"), "# changed: git diff and status see it\n");
  for (const [key, value] of [
    ["core.fsmonitor", PAYLOAD],
    ["core.pager", PAYLOAD],
    ["diff.external", PAYLOAD],
    ["filter.oracle.clean", PAYLOAD],
    ["filter.oracle.smudge", PAYLOAD],
    ["diff.oracle.textconv", PAYLOAD],
  ])
    git(other, "config", key as string, value as string);
  for (const [file, token] of canaryFiles(canaries)) {
    const target = path.join(templateHome, file.slice("/home/".length));
    put(target, canaryText(file, token));
  }
  // Last, so nothing above moves them: every canary starts with an access time older than its content.
  for (const file of canaryFiles(canaries).keys()) {
    const target = path.join(templateHome, file.slice("/home/".length));
    utimesSync(target, OLD_ATIME, statSync(target).mtime);
  }
  for (const dir of [templateHome, home]) chmodSync(dir, 0o755);
}

/** A shim per program on the sandbox's PATH (first one wins), and the payload program that only records. */
function writeShims(shims: string, runDir: string): void {
  mkdirSync(shims, { recursive: true });
  const record = (name: string) =>
    `read -r i < ${runDir}/out/current; printf '%s %s\\n' "$i" '${name}' >> ${runDir}/out/exec.log`;
  const seen = new Set<string>();
  for (const dir of REAL_PATH) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (seen.has(name) || !/^[\w.+-]+$/.test(name)) continue;
      const real = path.join(dir, name);
      try {
        const s = statSync(real);
        if (!s.isFile() || (s.mode & 0o111) === 0) continue;
      } catch {
        continue;
      }
      seen.add(name);
      put(path.join(shims, name), `#!/bin/sh\n${record(name)}\nexec ${real} "$@"\n`, 0o755);
    }
  }
  put(path.join(shims, PAYLOAD), `#!/bin/sh\n${record(PAYLOAD)}\nexit 0\n`, 0o755);
}

/** The driver's `find` arguments: canary files with their access time, everything else without. */
function listingArgs(canaries: Canaries): string[] {
  const canaryTests = [...canaryFiles(canaries).keys()].flatMap((p, i) => [
    ...(i === 0 ? [] : ["-o"]),
    "-path",
    p,
  ]);
  // -mindepth 1: the mount points' own times move whenever the driver restores the world.
  return [
    ...WRITABLE,
    "-mindepth",
    "1",
    "-path",
    RUN_DIR,
    "-prune",
    "-o",
    "(",
    ...canaryTests,
    ")",
    "-printf",
    "%p\\t%y\\t%s\\t%m\\t%T@\\t%A@\\n",
    "-o",
    "-printf",
    "%p\\t%y\\t%s\\t%m\\t%T@\\t%l\\n",
  ];
}

/** Processes the user already runs: the limit counts every process of the user. */
function processesOf(uid: number): number {
  let count = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      if (new RegExp(`^Uid:\\s+${uid}\\s`, "m").test(status)) count++;
    } catch {
      // gone
    }
  }
  return count;
}

function runWorker(
  runDir: string,
  outDir: string,
  linesFile: string,
  options: { timeoutSeconds: number; processLimit: number; env: NodeJS.ProcessEnv; prefix: string[] },
): Promise<void> {
  const argv = [
    ...options.prefix,
    ...bwrapArgs(runDir, outDir),
    "/bin/bash",
    `${RUN_DIR}/driver.sh`,
    WORKSPACE,
    `${RUN_DIR}/${linesFile}`,
    String(options.timeoutSeconds),
    String(options.processLimit),
    String(SINK_PORT),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0] as string, argv.slice(1), {
      env: options.env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve();
      else reject(new Error(`the sandbox exited with ${code}: ${stderr.slice(0, 2000)}`));
    });
  });
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

function collect(outDir: string, count: number): LineRun[] {
  const before = readText(path.join(outDir, "base"));
  const statuses = new Map<number, number>();
  for (const row of readText(path.join(outDir, "status")).split("\n")) {
    const m = /^(\d+) (\d+)$/.exec(row);
    if (m) statuses.set(Number(m[1]), Number(m[2]));
  }
  const programs = new Map<number, string[]>();
  for (const row of readText(path.join(outDir, "exec.log")).split("\n")) {
    const m = /^(\d+) (.+)$/.exec(row);
    if (!m) continue;
    const list = programs.get(Number(m[1])) ?? [];
    list.push(m[2] as string);
    programs.set(Number(m[1]), list);
  }
  const runs: LineRun[] = [];
  for (let i = 0; i < count; i++) {
    const snap = path.join(outDir, `${i}.snap`);
    runs.push({
      status: statuses.get(i),
      stdout: readText(path.join(outDir, `${i}.out`)),
      stderr: readText(path.join(outDir, `${i}.err`)),
      programs: programs.get(i) ?? [],
      received: readText(path.join(outDir, `${i}.net`)),
      ...(existsSync(snap) ? { listing: { before, after: readText(snap) } } : {}),
    });
  }
  return runs;
}

/**
 * Runs every line in the sandbox (split over `workers` sandboxes) and returns what each did, in order.
 * Lines must not contain NUL. The temporary run directory is removed afterwards, also on failure.
 */
export async function runLines(
  lines: readonly (string | ShellLine)[],
  canaries: Canaries,
  options: RunOptions = {},
): Promise<LineRun[]> {
  const timeoutSeconds = options.timeoutSeconds ?? 5;
  const workers = Math.max(1, Math.min(options.workers ?? 2, lines.length));
  const root = mkdtempSync(path.join(tmpdir(), "slashi-oracle-"));
  try {
    chmodSync(root, 0o755);
    const runDir = path.join(root, "run");
    mkdirSync(path.join(runDir, "out"), { recursive: true });
    chmodSync(runDir, 0o755);
    writeTemplate(path.join(runDir, "template", "home"), canaries);
    writeShims(path.join(runDir, "shims"), RUN_DIR);
    writeFileSync(path.join(runDir, "driver.sh"), readFileSync(new URL("./driver.sh", import.meta.url)));
    writeFileSync(path.join(runDir, "find-args"), `${listingArgs(canaries).join("\0")}\0`);
    writeFileSync(path.join(runDir, "hosts"), `127.0.0.1\tlocalhost ${SINK_HOST}\n::1\tlocalhost\n`);
    const prefix = sandboxPrefix();
    const uid = prefix.length > 0 ? NOBODY : (process.getuid?.() ?? 0);
    const env: NodeJS.ProcessEnv = {
      PATH: [`${RUN_DIR}/shims`, ...REAL_PATH].join(":"),
      HOME,
      USER: "dev",
      LANG: "C.UTF-8",
      LC_ALL: "C.UTF-8",
      TERM: "dumb",
      ...canaries.env,
    };
    const chunks: ShellLine[][] = Array.from({ length: workers }, () => []);
    const owner: number[] = [];
    lines.forEach((line, i) => {
      chunks[i % workers]?.push(typeof line === "string" ? { line } : line);
      owner.push(i % workers);
    });
    const outs = chunks.map((_, k) => path.join(root, `out-${k}`));
    for (const [k, chunk] of chunks.entries()) {
      const out = outs[k] as string;
      mkdirSync(out);
      chmodSync(out, 0o777);
      const records = chunk.map((l) => `${shellProgram(l.shell ?? "bash") ?? "/bin/false"}\0${l.line}\0`);
      writeFileSync(path.join(runDir, `lines-${k}`), records.join(""));
    }
    const processLimit = processesOf(uid) + 256;
    await Promise.all(
      chunks.map((_, k) =>
        runWorker(runDir, outs[k] as string, `lines-${k}`, { timeoutSeconds, processLimit, env, prefix }),
      ),
    );
    const results = chunks.map((chunk, k) => collect(outs[k] as string, chunk.length));
    const next = results.map(() => 0);
    return owner.map((k) => {
      const i = next[k] ?? 0;
      next[k] = i + 1;
      return results[k]?.[i] as LineRun;
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
