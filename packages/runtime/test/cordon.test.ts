// The cordon with REAL bubblewrap: network cut, secrets hidden, writes confined, protected entries read-only.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { spawn, spawnSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import { createServer as createNetServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECRET_LOCATIONS } from "@slashi/core";
import { requireTool, skipUnlessCi, tempDir, type TempDir } from "@slashi/test-utils";
import {
  cordonAvailability,
  probeCordon,
  runCommand,
  SECCOMP_DENIED,
  type CordonPolicy,
  type RunRequest,
} from "../src/index.js";

const availability = cordonAvailability();
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const noBubblewrap = skipUnlessCi(
  availability.available ? undefined : availability.reason,
  "the bubblewrap tests",
);

// Real bubblewrap runs (gcc, make, git inside): the timeouts are hang guards, roomy for a loaded CI machine.
describe.skipIf(noBubblewrap)("cordon (bubblewrap)", { timeout: 180_000 }, () => {
  // Outside /tmp on purpose: the cordon gives commands a private /tmp, so a host directory under /tmp would be
  // invisible inside rather than read-only.
  let scratch: TempDir | undefined;
  let root: string;
  let workspace: string;
  let home: string;
  let outside: string;
  let slashiConfig: string;
  let server: Server;
  let port: number;
  const savedStateDir = process.env.SLASHI_STATE_DIR;

  beforeAll(async () => {
    // A checkout may itself live under /tmp (CI clones anywhere): then use /var/tmp, which the cordon leaves
    // read-only like any other host directory.
    const base = /^\/tmp(\/|$)/.test(packageDir) ? "/var/tmp" : packageDir;
    // Made here, not at describe level, so a run without bubblewrap makes no folder.
    scratch = tempDir(".tmp-cordon-", base);
    root = scratch.dir;
    chmodSync(root, 0o755);
    // Where the cordon remembers its proof: this test's own state directory, not the user's.
    process.env.SLASHI_STATE_DIR = path.join(root, "state");
    workspace = path.join(root, "app");
    home = path.join(root, "home");
    outside = path.join(root, "outside");
    slashiConfig = path.join(home, ".config", "slashi");
    mkdirSync(path.join(workspace, ".vscode"), { recursive: true });
    mkdirSync(path.join(workspace, ".git", "hooks"), { recursive: true });
    writeFileSync(path.join(workspace, ".vscode", "slashi.json"), '{"commands":{}}\n');
    mkdirSync(path.join(home, ".ssh"), { recursive: true });
    writeFileSync(path.join(home, ".ssh", "id_rsa"), "-----BEGIN FAKE KEY-----\n");
    mkdirSync(path.join(home, ".aws"));
    writeFileSync(path.join(home, ".aws", "credentials"), "[default]\naws_secret_access_key=fake\n");
    writeFileSync(path.join(home, ".netrc"), "machine example.com password fake\n");
    mkdirSync(slashiConfig, { recursive: true });
    writeFileSync(path.join(slashiConfig, "policy.json"), "{}\n");
    mkdirSync(outside);
    server = createServer((_, response) => response.end("hello from the host"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    port = typeof address === "object" && address ? address.port : 0;
  });

  afterAll(async () => {
    if (savedStateDir === undefined) delete process.env.SLASHI_STATE_DIR;
    else process.env.SLASHI_STATE_DIR = savedStateDir;
    scratch?.remove();
    await new Promise((resolve) => server.close(resolve));
  });

  const policy = (extra: Partial<CordonPolicy> = {}): CordonPolicy => ({
    workspace,
    home,
    slashiDirs: [slashiConfig],
    ...extra,
  });

  const sh = (script: string, extra: Partial<RunRequest> = {}) =>
    runCommand({
      script,
      shell: "/bin/sh",
      cwd: workspace,
      env: { PATH: process.env.PATH, HOME: home },
      cordon: policy(),
      timeoutMs: 60_000,
      ...extra,
    });

  const fetchScript = (p: number) =>
    `fetch("http://127.0.0.1:${p}/").then(r => r.text()).then(t => { console.log("GOT " + t); }, e => { console.log("FAILED " + (e.cause?.code ?? e.message)); process.exit(3); })`;

  it("cuts the network: a loopback server is reachable outside and not inside", async () => {
    const outsideRun = await runCommand({
      argv: [process.execPath, "-e", fetchScript(port)],
      cwd: workspace,
    });
    expect(outsideRun.stdout).toContain("GOT hello from the host");

    const insideRun = await runCommand({
      argv: [process.execPath, "-e", fetchScript(port)],
      cwd: workspace,
      cordon: policy(),
      timeoutMs: 60_000,
    });
    expect(insideRun.exitCode).toBe(3);
    expect(insideRun.stdout).toMatch(/FAILED (ECONNREFUSED|ENETUNREACH)/);
    expect(insideRun.stdout).not.toContain("hello from the host");
  });

  it("cuts the network for curl too when curl is installed", async (context) => {
    if (!existsSync("/usr/bin/curl")) context.skip();
    const result = await sh(`curl -s --max-time 5 http://127.0.0.1:${port}/`);
    expect(result.exitCode).toBe(7);
    expect(result.stdout).toBe("");
  });

  it("keeps the network when the policy allows it for the command", async () => {
    const result = await runCommand({
      argv: [process.execPath, "-e", fetchScript(port)],
      cwd: workspace,
      cordon: policy({ network: true }),
      timeoutMs: 60_000,
    });
    expect(result.stdout).toContain("GOT hello from the host");
  });

  it("hides secret files and directories of the home directory", async () => {
    expect(readFileSync(path.join(home, ".ssh", "id_rsa"), "utf8")).toContain("FAKE KEY");
    const result = await sh(
      'cat "$HOME/.ssh/id_rsa"; echo "ssh:$?"; cat "$HOME/.aws/credentials"; echo "aws:$?"; ' +
        'cat "$HOME/.netrc"; echo "netrc:$?"; ls -A "$HOME/.ssh" | wc -l',
    );
    expect(result.stdout).not.toContain("FAKE KEY");
    expect(result.stdout).not.toContain("aws_secret_access_key");
    expect(result.stdout).not.toContain("password fake");
    expect(result.stdout).toMatch(/ssh:1/);
    expect(result.stdout).toMatch(/aws:1/);
    expect(result.stdout).toMatch(/netrc:1/); // /dev/null bound on a nodev mount: "Permission denied"
    expect(result.stdout.trim().split("\n").at(-1)?.trim()).toBe("0");
  });

  it("hides Slashi's own config directory", async () => {
    const result = await sh(`cat "${slashiConfig}/policy.json"; echo "rc:$?"`);
    expect(result.stdout).toMatch(/rc:1/);
  });

  it("lets the workspace be written and nothing outside it", async () => {
    const result = await sh(
      `echo inside > made-inside.txt; echo "in:$?"; echo out > "${outside}/made-outside.txt"; echo "out:$?"; ` +
        `echo tmp > /tmp/made-in-tmp.txt; echo "tmp:$?"; echo home > "$HOME/made-in-home.txt"; echo "home:$?"`,
    );
    expect(result.stdout).toMatch(/in:0/);
    expect(result.stdout).toMatch(/out:[1-9]/);
    expect(result.stdout).toMatch(/tmp:0/);
    expect(result.stdout).toMatch(/home:[1-9]/);
    expect(result.stderr).toMatch(/Read-only file system/);
    expect(readFileSync(path.join(workspace, "made-inside.txt"), "utf8")).toBe("inside\n");
    expect(existsSync(path.join(outside, "made-outside.txt"))).toBe(false);
    expect(existsSync(path.join(home, "made-in-home.txt"))).toBe(false);
    expect(existsSync("/tmp/made-in-tmp.txt")).toBe(false);
  });

  it("keeps the team file, editor config and git hooks read-only inside the writable workspace", async () => {
    const result = await sh(
      'echo x >> .vscode/slashi.json; echo "team:$?"; echo "#!/bin/sh" > .git/hooks/pre-commit; echo "hook:$?"; ' +
        'echo ok > src.txt; echo "src:$?"',
    );
    expect(result.stdout).toMatch(/team:[1-9]/);
    expect(result.stdout).toMatch(/hook:[1-9]/);
    expect(result.stdout).toMatch(/src:0/);
    expect(readFileSync(path.join(workspace, ".vscode", "slashi.json"), "utf8")).toBe('{"commands":{}}\n');
    expect(readdirSync(path.join(workspace, ".git", "hooks"))).toEqual([]);
    expect(result.cordon?.unprotected).toContain(path.join(workspace, ".claude"));
  });

  it("reports protected entries a cordoned command created because they did not exist yet", async () => {
    const result = await sh('mkdir -p .claude && echo "{}" > .claude/settings.json; echo ok > plain.txt');
    expect(result.exitCode).toBe(0);
    expect(result.createdProtected).toEqual([path.join(workspace, ".claude")]);
    rmSync(path.join(workspace, ".claude"), { recursive: true, force: true });
    const quiet = await sh("echo ok > plain.txt");
    expect(quiet.createdProtected).toBeUndefined();
  });

  it("hides a Unix socket, which a read-only mount alone would leave connectable", async () => {
    const socketPath = path.join(root, "agent.sock");
    const agent = createNetServer((socket) => socket.end("agent says hi"));
    await new Promise<void>((resolve) => agent.listen(socketPath, resolve));
    try {
      const connect = `require("node:net").connect(${JSON.stringify(socketPath)}).on("data", d => { console.log("GOT " + d); process.exit(0); }).on("error", e => { console.log("FAILED " + e.code); process.exit(3); })`;
      const open = await runCommand({
        argv: [process.execPath, "-e", connect],
        cwd: workspace,
        cordon: policy(),
        timeoutMs: 60_000,
      });
      expect(open.stdout).toContain("GOT agent says hi");
      const hidden = await runCommand({
        argv: [process.execPath, "-e", connect],
        cwd: workspace,
        cordon: policy({ hidden: [socketPath] }),
        timeoutMs: 60_000,
      });
      expect(hidden.exitCode).toBe(3);
      expect(hidden.stdout).toMatch(/FAILED (ECONNREFUSED|EACCES|ENOENT)/);
    } finally {
      await new Promise((resolve) => agent.close(resolve));
    }
  });

  it("drops every capability, so even root cannot remount the file system writable", async () => {
    const result = await sh(
      `grep CapEff /proc/self/status; mount -o remount,rw / 2>/dev/null; echo "mount:$?"; ` +
        `echo x > "${outside}/after-remount.txt"; echo "write:$?"`,
    );
    expect(result.stdout).toMatch(/CapEff:\s*0+\n/);
    expect(result.stdout).toMatch(/mount:[1-9]/);
    expect(result.stdout).toMatch(/write:[1-9]/);
    expect(existsSync(path.join(outside, "after-remount.txt"))).toBe(false);
  });

  it("keeps kernel settings read-only, even for root", async () => {
    const current = readFileSync("/proc/sys/vm/swappiness", "utf8").trim();
    const result = await sh(`echo ${current} > /proc/sys/vm/swappiness; echo "sysctl:$?"`);
    expect(result.stdout).toMatch(/sysctl:[1-9]/);
    expect(result.stderr).toMatch(/Read-only file system|Permission denied/);
  });

  it("gives commands a private /run, so service sockets there are out of reach", async (context) => {
    const socketPath = `/run/slashi-cordon-test-${process.pid}.sock`;
    if (!existsSync("/run") || process.geteuid?.() !== 0) context.skip();
    const service = createNetServer((socket) => socket.end("service says hi"));
    await new Promise<void>((resolve) => service.listen(socketPath, resolve));
    try {
      const connect = `require("node:net").connect(${JSON.stringify(socketPath)}).on("data", d => { console.log("GOT " + d); process.exit(0); }).on("error", e => { console.log("FAILED " + e.code); process.exit(3); })`;
      const outsideRun = await runCommand({ argv: [process.execPath, "-e", connect], cwd: workspace });
      expect(outsideRun.stdout).toContain("GOT service says hi");
      const insideRun = await runCommand({
        argv: [process.execPath, "-e", connect],
        cwd: workspace,
        cordon: policy(),
        timeoutMs: 60_000,
      });
      expect(insideRun.stdout).toMatch(/FAILED ENOENT/);
    } finally {
      await new Promise((resolve) => service.close(resolve));
      rmSync(socketPath, { force: true });
    }
  });

  it("passes no secret or agent-socket variables inside", async () => {
    const result = await sh("env", {
      env: {
        PATH: process.env.PATH,
        HOME: home,
        GITHUB_TOKEN: "ghp_fake",
        SSH_AUTH_SOCK: "/x",
        LD_PRELOAD: "",
      },
    });
    expect(result.stdout).not.toContain("GITHUB_TOKEN");
    expect(result.stdout).not.toContain("SSH_AUTH_SOCK");
    expect(result.stdout).not.toContain("LD_PRELOAD");
    expect(result.stdout).toContain("TMPDIR=/tmp");
  });

  it("kills everything inside on timeout", async () => {
    const marker = `10${process.pid % 1000}.5`;
    const result = await sh(`sleep ${marker} & sleep ${marker}`, { timeoutMs: 500, killGraceMs: 500 });
    expect(result.timedOut).toBe(true);
    const deadline = Date.now() + 5000;
    let alive: string[];
    do {
      await new Promise((resolve) => setTimeout(resolve, 50));
      alive = readdirSync("/proc").filter((entry) => {
        if (!/^\d+$/.test(entry)) return false;
        try {
          const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
          return cmdline === `sleep\0${marker}\0`;
        } catch {
          return false;
        }
      });
    } while (alive.length > 0 && Date.now() < deadline);
    expect(alive).toEqual([]);
  });

  it("hides every place of the core's secret list below home, patterns and any case included", async () => {
    const canary = `canary-${process.pid}`;
    // A home of its own: every place of SECRET_LOCATIONS made to hold the canary, `*` filled in with a name.
    const secretHome = path.join(root, "secret-home");
    const places = SECRET_LOCATIONS.filter((entry) => entry.anchor !== "root").map((entry) => ({
      file: path.join(secretHome, entry.path.replaceAll("*", "canary")),
      kind: entry.kind,
    }));
    // The same place spelled in another case is the same place to the core.
    places.push({ file: path.join(secretHome, ".SSH"), kind: "folder" });
    for (const place of places) {
      if (place.kind === "folder") {
        mkdirSync(place.file, { recursive: true });
        writeFileSync(path.join(place.file, "canary"), canary);
      } else {
        mkdirSync(path.dirname(place.file), { recursive: true });
        writeFileSync(place.file, canary);
      }
    }
    const script = places
      .map(({ file }) => `cat '${file}' '${file}/canary' 2>/dev/null; echo`)
      .concat(["cat /etc/shadow >/dev/null 2>&1 && echo shadow-read", "echo ran-to-the-end"])
      .join("\n");
    const env = { PATH: process.env.PATH, HOME: secretHome };
    const outsideRun = await runCommand({ script, shell: "/bin/sh", cwd: workspace, env });
    // Outside, every canary is there to read: the check inside cannot pass for want of a file.
    expect(outsideRun.stdout.split(canary).length - 1).toBe(places.length);
    const rootCanReadShadow = outsideRun.stdout.includes("shadow-read");
    const result = await sh(script, { env, cordon: policy({ home: secretHome }) });
    expect(result.stdout).toContain("ran-to-the-end");
    expect(result.stdout).not.toContain(canary);
    // System secrets too: root keeps reading /etc/shadow without capabilities, unless it is hidden.
    if (rootCanReadShadow) expect(result.stdout).not.toContain("shadow-read");
  });

  it("shows no process from outside: the parent's and a neighbour's environment are out of reach", async () => {
    const canary = `cordon-env-canary-${process.pid}`;
    const neighbour = spawn("sleep", ["30"], { env: { ...process.env, NEIGHBOUR_SECRET: canary } });
    try {
      const pid = neighbour.pid as number;
      const script =
        `cat /proc/${pid}/environ 2>/dev/null | tr '\\0' '\\n' | grep -c NEIGHBOUR_SECRET; ` +
        `cat /proc/$PPID/environ 2>/dev/null | tr '\\0' '\\n' | grep -c NEIGHBOUR_SECRET; ` +
        `test -e /proc/${process.pid}; echo "host:$?"; ls /proc | grep -c '^[0-9]'`;
      const outsideRun = await runCommand({ script, shell: "/bin/sh", cwd: workspace });
      expect(outsideRun.stdout).toMatch(/^1\n/);
      const result = await sh(script);
      const [neighbourSeen, parentSeen, host, count] = result.stdout.trim().split("\n");
      expect(neighbourSeen).toBe("0");
      expect(parentSeen).toBe("0");
      expect(host).toBe("host:1");
      expect(Number(count)).toBeLessThanOrEqual(4);
      expect(result.stdout).not.toContain(canary);
    } finally {
      neighbour.kill("SIGKILL");
    }
  });

  it("refuses to run, and runs nothing, when the bubblewrap on PATH does not confine", async () => {
    const stubDir = path.join(root, "stub-bin");
    mkdirSync(stubDir, { recursive: true });
    const stub = path.join(stubDir, "bwrap");
    writeFileSync(stub, '#!/bin/sh\nwhile [ "$1" != "--" ]; do shift; done\nshift\nexec "$@"\n');
    chmodSync(stub, 0o755);
    const marker = path.join(workspace, "ran-unconfined");
    await expect(
      runCommand({
        script: `touch ${JSON.stringify(marker)}`,
        shell: "/bin/sh",
        cwd: workspace,
        cordon: policy(),
        cordonOptions: { env: { PATH: `${stubDir}:${process.env.PATH ?? ""}` } },
      }),
    ).rejects.toMatchObject({ code: "CORDON_UNAVAILABLE", data: { program: stub } });
    expect(existsSync(marker)).toBe(false);
    // Proven once per binary: the real bubblewrap is remembered, the stub is not.
    await sh("true");
    const proofs = JSON.parse(readFileSync(path.join(root, "state", "cordon-proof.json"), "utf8")) as {
      proven: Record<string, string>;
    };
    const keys = Object.keys(proofs.proven);
    expect(
      keys.some((key) =>
        key.startsWith(`${realpathSync(availability.available ? availability.program : "")}:`),
      ),
    ).toBe(true);
    expect(keys.some((key) => key.startsWith(`${stub}:`))).toBe(false);
  });

  it("hides the user's git config, which can hold tokens, and keeps the committer's identity", async (context) => {
    if (!requireTool("git", "the cordon's git tests")) context.skip();
    const gitHome = path.join(root, "git-home");
    mkdirSync(path.join(gitHome, ".config", "git"), { recursive: true });
    writeFileSync(
      path.join(gitHome, ".gitconfig"),
      '[user]\n\tname = "Ada \\"Q\\" Lovelace" # comment\n[url "https://tok-gitconfig@example.com/"]\n\tinsteadOf = https://example.com/\n',
    );
    writeFileSync(
      path.join(gitHome, ".config", "git", "config"),
      "[User]\n\temail = ada@example.com\n[http]\n\textraHeader = Authorization: tok-xdg\n",
    );
    const script = [
      'cat "$HOME/.gitconfig" "$HOME/.config/git/config"',
      "git config --global --list",
      'echo "name=$(git config user.name)"',
      'echo "email=$(git config user.email)"',
    ].join("; ");
    const env = { PATH: process.env.PATH, HOME: gitHome };
    const outsideRun = await runCommand({ script, shell: "/bin/sh", cwd: workspace, env });
    expect(outsideRun.stdout).toContain("tok-gitconfig");
    expect(outsideRun.stdout).toContain("tok-xdg");
    const result = await sh(script, { env, cordon: policy({ home: gitHome }) });
    expect(result.stdout).not.toContain("tok-");
    expect(result.stdout).toContain('name=Ada "Q" Lovelace');
    expect(result.stdout).toContain("email=ada@example.com");
  });

  it("keeps .git where it is and puts back planted git config and hooks after the run", async (context) => {
    if (!requireTool("git", "the cordon's git tests")) context.skip();
    const repo = path.join(root, "repo");
    mkdirSync(repo);
    const git = (...args: string[]) =>
      spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
        cwd: repo,
        encoding: "utf8",
      });
    expect(git("init", "-q").status).toBe(0);
    writeFileSync(path.join(repo, "a.txt"), "a\n");
    expect(git("add", "a.txt").status).toBe(0);
    expect(git("commit", "-qm", "first").status).toBe(0);
    const configBefore = readFileSync(path.join(repo, ".git", "config"), "utf8");
    const hooksBefore = readdirSync(path.join(repo, ".git", "hooks")).sort();
    const pwned = path.join(root, "fsmonitor-ran");
    const plant = `printf '[core]\\n\\tfsmonitor = touch ${pwned}\\n'`;
    const attack = [
      `mv .git .git-old; echo "rename:$?"`,
      `mkdir -p evil && ${plant} > evil/config; echo ../evil > .git/commondir; echo "commondir:$?"`,
      `${plant} > .git/config.worktree; mkdir -p .git/info && echo '* filter=x' > .git/info/attributes`,
      `${plant} >> .git/config; echo "config:$?"`,
      `printf '#!/bin/sh\\ntouch ${pwned}\\n' > .git/hooks/post-checkout; echo "hook:$?"`,
    ].join("\n");
    const result = await runCommand({
      script: attack,
      shell: "/bin/sh",
      cwd: repo,
      env: { PATH: process.env.PATH, HOME: home },
      cordon: { workspace: repo, home, slashiDirs: [] },
      timeoutMs: 60_000,
    });
    expect(result.stdout).toMatch(/rename:[1-9]/);
    expect(result.stdout).toMatch(/config:[1-9]/);
    expect(result.stdout).toMatch(/hook:[1-9]/);
    expect(result.restoredProtected).toEqual(
      expect.arrayContaining([
        path.join(repo, ".git", "commondir"),
        path.join(repo, ".git", "config.worktree"),
      ]),
    );
    expect(existsSync(path.join(repo, ".git-old"))).toBe(false);
    expect(existsSync(path.join(repo, ".git", "commondir"))).toBe(false);
    expect(readFileSync(path.join(repo, ".git", "config"), "utf8")).toBe(configBefore);
    expect(readdirSync(path.join(repo, ".git", "hooks")).sort()).toEqual(hooksBefore);
    // The host's next git command runs nothing that was planted.
    expect(git("status", "--porcelain").status).toBe(0);
    expect(existsSync(pwned)).toBe(false);

    // Ordinary work with git still runs in the cordon, and nothing is reported.
    const work = await runCommand({
      script:
        "echo b > b.txt && git add b.txt && git -c user.name=t -c user.email=t@example.com commit -qm second " +
        "&& git checkout -qb feature && git log --oneline | wc -l",
      shell: "/bin/sh",
      cwd: repo,
      env: { PATH: process.env.PATH, HOME: home },
      cordon: { workspace: repo, home, slashiDirs: [] },
      timeoutMs: 60_000,
    });
    expect(work.stderr).toBe("");
    expect(work.stdout.trim()).toBe("2");
    expect(work.restoredProtected).toBeUndefined();
    expect(git("rev-parse", "--abbrev-ref", "HEAD").stdout.trim()).toBe("feature");
  });

  it("refuses terminal injection, tracing, keyrings, BPF, namespaces and mounts through seccomp", async (context) => {
    const arch = process.arch === "x64" ? "x86_64" : process.arch === "arm64" ? "aarch64" : undefined;
    if (arch === undefined || spawnSync("python3", ["-c", "import ctypes"]).status !== 0) context.skip();
    // One system call per rule, with the argument the rule is about, through libc's syscall().
    const calls = SECCOMP_DENIED.flatMap((rule) => {
      const nr = rule.numbers[arch as "x86_64" | "aarch64"];
      const expected = rule.action ?? "EPERM";
      if (rule.when === undefined) return [[rule.name, nr, [0, 0, 0, 0, 0], expected]];
      if ("equals" in rule.when)
        return rule.when.equals.map((value) => [rule.name, nr, ["tty", value, "buf"], expected]);
      return [[rule.name, nr, [rule.when.anyBits, 0, 0, 0, 0], expected]];
    });
    const program = `
import ctypes, errno, json, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
master, tty = os.openpty()
buf = ctypes.create_string_buffer(b"x" * 64)
out = []
for name, nr, args, expected in json.loads(sys.argv[1]):
    real = [tty if a == "tty" else ctypes.addressof(buf) if a == "buf" else a for a in args]
    ctypes.set_errno(0)
    r = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) for a in real])
    e = ctypes.get_errno()
    out.append([name, expected, "ok" if r != -1 else errno.errorcode.get(e, str(e))])
ctypes.set_errno(0)
out.append(["ioctl FIONREAD", "ok", "ok" if libc.syscall(ctypes.c_long(${arch === "x86_64" ? 16 : 29}), ctypes.c_long(tty), ctypes.c_long(0x541B), ctypes.c_long(ctypes.addressof(buf))) == 0 else "fail"])
print(json.dumps(out))
`;
    const result = await runCommand({
      argv: ["python3", "-c", program, JSON.stringify(calls)],
      cwd: workspace,
      env: { PATH: process.env.PATH, HOME: home },
      cordon: policy(),
      timeoutMs: 60_000,
    });
    expect(result.stderr).toBe("");
    const seen = JSON.parse(result.stdout) as [string, string, string][];
    expect(seen.length).toBe(calls.length + 1);
    for (const [name, expected, got] of seen) expect(`${name}: ${got}`).toBe(`${name}: ${expected}`);
  });

  it("still runs a normal build inside the filter: node with threads, gcc and make, git", async (context) => {
    const hasGcc =
      spawnSync("gcc", ["--version"]).status === 0 && spawnSync("make", ["--version"]).status === 0;
    if (hasGcc) {
      writeFileSync(
        path.join(workspace, "hello.c"),
        '#include <stdio.h>\nint main(void){puts("built");return 0;}\n',
      );
      writeFileSync(path.join(workspace, "Makefile"), "hello: hello.c\n\tgcc -o hello hello.c\n");
    }
    const script = [
      `node -e 'const {Worker}=require("node:worker_threads"); new Worker("require(\\"node:worker_threads\\").parentPort.postMessage(21*2)",{eval:true}).on("message",m=>console.log("worker",m))'`,
      ...(hasGcc ? ["make -s && ./hello"] : []),
      "rm -rf sub && mkdir sub && cd sub && git init -q && echo x > x && git add x && git -c user.name=t -c user.email=t@example.com commit -qm x && echo committed",
    ].join(" && ");
    const result = await sh(script);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("worker 42");
    if (hasGcc) expect(result.stdout).toContain("built");
    expect(result.stdout).toContain("committed");
    if (!hasGcc) context.skip();
  });

  it("passes the probe on this host", async () => {
    const probe = await probeCordon({ scratchDir: root, refresh: true });
    expect(probe.reason).toBeUndefined();
    expect(probe.ok).toBe(true);
    expect(probe.kind).toBe("bwrap");
    expect(probe.checks.map((check) => [check.name, check.passed])).toEqual([
      ["hidden-read", true],
      ["outside-write", true],
      ["inside-write", true],
      ["no-capabilities", true],
      ["network-off", true],
      ["own-processes", true],
      ["seccomp", true],
    ]);
    expect(await probeCordon({ scratchDir: root })).toBe(await probeCordon({ scratchDir: root }));
  });

  it("fails the probe for a sandbox program that runs commands without confining them", async () => {
    const fake = path.join(root, "fake-bwrap");
    writeFileSync(fake, '#!/bin/sh\nwhile [ "$1" != "--" ]; do shift; done\nshift\nexec "$@"\n');
    chmodSync(fake, 0o755);
    const probe = await probeCordon({ scratchDir: root, bwrapPath: fake, refresh: true });
    expect(probe.ok).toBe(false);
    const isRoot = process.geteuid?.() === 0;
    expect(probe.checks.filter((check) => !check.passed).map((check) => check.name)).toEqual([
      "hidden-read",
      "outside-write",
      ...(isRoot ? ["no-capabilities"] : []),
      "network-off",
      "own-processes",
      "seccomp",
    ]);
  });

  it("fails the probe when no sandbox program exists", async () => {
    const probe = await probeCordon({ bwrapPath: path.join(root, "missing"), refresh: true });
    expect(probe).toMatchObject({ ok: false, reason: expect.stringMatching(/bubblewrap/) });
  });
});
