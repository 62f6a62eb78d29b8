// The decision service through the built binary: the same answers as in-process (checked against a running
// service, and against the in-process run of the same line, byte for byte), policy edits seen on the next call,
// start on demand, one service per user and build, and the socket checks that keep another user, another
// build or an open socket from answering.
import { spawn, type ChildProcess } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import net from "node:net";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, BIN, isolatedEnv, slashi, tempDir } from "./helpers.js";

const posix = typeof process.getuid === "function";
const tmp = tempDir("slashi-service-");
const workspace = path.join(tmp.dir, "project");
const off = isolatedEnv(tmp.dir);
const on = { ...off, SLASHI_SERVICE: "on" };
const dir = path.join(tmp.dir, "state", "service");
const started: ChildProcess[] = [];
const FIXTURES = new URL("./fixtures/hooks/", import.meta.url);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const socketIn = (d: string): string | undefined =>
  existsSync(d) ? readdirSync(d).find((f) => /^decide-[0-9a-f]{8}\.sock$/.test(f)) : undefined;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Starts a service for `dir` (not detached: the test stops it by pid) and waits for its socket. */
async function startService(): Promise<{ child: ChildProcess; socket: string }> {
  // The client makes the directory before it starts a service; a service does not make it.
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const child = spawn(process.execPath, [BIN, "--slashi-decision-service", dir], {
    env: off,
    stdio: "ignore",
  });
  started.push(child);
  const socket = await until("the service socket", () => {
    const name = socketIn(dir);
    if (name === undefined) return undefined;
    const pidFile = path.join(dir, `${name}.pid`);
    return existsSync(pidFile) && Number(readFileSync(pidFile, "utf8")) === child.pid ? name : undefined;
  });
  return { child, socket: path.join(dir, socket) };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** What one run printed, for byte-for-byte comparison. */
async function run(
  args: string[],
  env: Record<string, string>,
  input?: string,
): Promise<{ code: number | undefined; stdout: string; stderr: string }> {
  const r = await slashi(args, { env, cwd: workspace, ...(input !== undefined ? { input } : {}) });
  return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

const payload = (name: string): string =>
  readFileSync(new URL(name, FIXTURES), "utf8").replaceAll("__WORKSPACE__", workspace);

beforeAll(async () => {
  assertBuilt();
  mkdirSync(path.join(workspace, "src"), { recursive: true });
  expect((await slashi(["trust", "--cwd", workspace], { env: off })).exitCode).toBe(0);
});

afterAll(async () => {
  await Promise.all(started.map(stop));
  tmp.remove();
});

describe.runIf(posix)("slashi decision service", () => {
  it("answers hooks and check exactly as in-process, and the service is the one answering", async () => {
    const { child } = await startService();
    const hooks = readdirSync(FIXTURES).filter((f) => f.endsWith(".json"));
    for (const file of hooks) {
      const agent = file.split("-")[0] as string;
      const [served, local] = await Promise.all([
        run(["hook", agent], on, payload(file)),
        run(["hook", agent], off, payload(file)),
      ]);
      expect(served, file).toEqual(local);
    }
    // The service runs each request in the client's working directory: it is the one that answered.
    if (existsSync(`/proc/${child.pid}/cwd`)) expect(readlinkSync(`/proc/${child.pid}/cwd`)).toBe(workspace);
    const word = fc.constantFrom(
      "git",
      "status",
      "rm",
      "-rf",
      "~",
      "$HOME",
      "curl",
      "x",
      "|",
      "sh",
      ";",
      "&&",
      "echo",
      "'a b'",
      '"$(id)"',
      "`ls`",
      ">",
      "/etc/passwd",
      "cat",
      "~/.ssh/id_rsa",
      "sudo",
      "eval",
      "$((1+2))",
      "\\n",
    );
    await fc.assert(
      fc.asyncProperty(fc.array(word, { minLength: 1, maxLength: 6 }), fc.boolean(), async (words, json) => {
        const args = ["check", ...(json ? ["--json"] : []), "--", words.join(" ")];
        const [served, local] = await Promise.all([run(args, on), run(args, off)]);
        expect(served).toEqual(local);
      }),
      { numRuns: 10 },
    );
    await stop(child);
  }, 240_000);

  it("reads an edited policy on the next call", async () => {
    const { child } = await startService();
    const policy = path.join(tmp.dir, "config", "policy.json");
    mkdirSync(path.dirname(policy), { recursive: true });
    const args = ["check", "--json", "--", "git status"];
    for (const decision of ["deny", "ask", "allow"]) {
      writeFileSync(policy, JSON.stringify({ version: 1, rules: [{ match: ["git", "status"], decision }] }));
      const served = await run(args, on);
      expect(JSON.parse(served.stdout)).toMatchObject({ decision });
      expect(served).toEqual(await run(args, off));
    }
    writeFileSync(policy, "{ not json");
    expect(await run(args, on)).toEqual(await run(args, off));
    await stop(child);
  }, 120_000);

  it("sees a symbolic link made after its first answer: no verdict is kept from one call to the next", async () => {
    rmSync(path.join(tmp.dir, "config", "policy.json"), { force: true });
    const { child } = await startService();
    const key = path.join(tmp.dir, "home", ".ssh", "id_ed25519");
    mkdirSync(path.dirname(key), { recursive: true });
    writeFileSync(key, "canary\n");
    const notes = path.join(workspace, "notes.txt");
    writeFileSync(notes, "notes\n");
    const args = ["check", "--json", "--", "cat notes.txt"];
    const first = await run(args, on);
    expect(JSON.parse(first.stdout)).toMatchObject({ decision: "allow" });
    rmSync(notes);
    symlinkSync(key, notes);
    const served = await run(args, on);
    expect(JSON.parse(served.stdout)).toMatchObject({ decision: "ask" });
    expect(served).toEqual(await run(args, off));
    rmSync(notes);
    await stop(child);
  }, 120_000);

  it("writes a decision's audit record once: when the client takes the answer, never when it gives up", async () => {
    // The test before leaves a broken policy behind; a decision needs a readable one.
    rmSync(path.join(tmp.dir, "config", "policy.json"), { force: true });
    const { child, socket } = await startService();
    const audit = path.join(tmp.dir, "state", "audit.jsonl");
    const marks = (): string[] =>
      existsSync(audit)
        ? readFileSync(audit, "utf8")
            .split("\n")
            .filter((line) => line.includes("audit-mark-"))
            .map((line) => (JSON.parse(line) as { text: string }).text)
        : [];
    const hookPayload = (mark: string): string =>
      JSON.stringify({
        session_id: "s",
        transcript_path: "/tmp/t.jsonl",
        cwd: workspace,
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: `echo ${mark}` },
      });
    // Through the binary: one record per call, written before the client returns.
    await run(["hook", "claude"], on, hookPayload("audit-mark-binary"));
    expect(marks()).toEqual(["echo audit-mark-binary"]);

    // Raw clients of this build: one gives up after the answer, one takes it.
    const identity = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const c = net.createConnection(socket, () => c.write("{}\n"));
      c.once("data", (d) => resolve(JSON.parse(String(d)) as Record<string, unknown>));
      c.on("error", reject);
    });
    const ask = (mark: string, take: boolean): Promise<Record<string, unknown>> =>
      new Promise((resolve, reject) => {
        const request = {
          protocol: identity.protocol,
          build: identity.build,
          node: identity.node,
          execPath: identity.execPath,
          argv: ["hook", "claude"],
          cwd: workspace,
          env: off,
          stdin: Buffer.from(hookPayload(mark)).toString("base64"),
          interactive: false,
          color: false,
        };
        const c = net.createConnection(socket, () => c.write(`${JSON.stringify(request)}\n`));
        let text = "";
        let answer: Record<string, unknown> | undefined;
        c.on("data", (d) => {
          text += String(d);
          if (answer !== undefined || !text.includes("\n")) return;
          answer = JSON.parse(text.slice(0, text.indexOf("\n"))) as Record<string, unknown>;
          if (take) c.write("taken\n");
          else {
            c.destroy();
            resolve(answer);
          }
        });
        c.on("close", () => (answer === undefined ? reject(new Error("no answer")) : resolve(answer)));
        c.on("error", reject);
      });
    expect((await ask("audit-mark-dropped", false)).status).toBe(0);
    expect((await ask("audit-mark-taken", true)).status).toBe(0);
    // The service answers one request at a time: once a later one is answered, the dropped one is settled.
    await run(["hook", "claude"], on, hookPayload("audit-mark-last"));
    expect(marks()).toEqual(["echo audit-mark-binary", "echo audit-mark-taken", "echo audit-mark-last"]);
    await stop(child);
  }, 120_000);

  it("is started on demand, one per user and build: a newer one takes over and the older one ends", async () => {
    expect(socketIn(dir)).toBeUndefined();
    await run(["check", "--", "ls"], on);
    const name = await until("a service started on demand", () => socketIn(dir));
    const pidFile = path.join(dir, `${name}.pid`);
    const first = await until("its pid file", () =>
      existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8")) : undefined,
    );
    try {
      const { child } = await startService();
      await until("the older service to end", () => (alive(first) ? undefined : true));
      await stop(child);
    } finally {
      if (alive(first)) process.kill(first, "SIGTERM");
    }
  }, 120_000);

  it("service status shows the running service and service stop ends it", async () => {
    await run(["check", "--", "ls"], on);
    const name = await until("a service started on demand", () => socketIn(dir));
    const pidFile = path.join(dir, `${name}.pid`);
    const pid = await until("its pid file", () =>
      existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8")) : undefined,
    );
    try {
      const status = await run(["service", "status", "--json"], off);
      expect(status.code).toBe(0);
      const report = JSON.parse(status.stdout) as {
        running: boolean;
        services: Array<{ pid: number; running: boolean; current: boolean; answers?: unknown }>;
      };
      expect(report.running).toBe(true);
      expect(report.services).toEqual([expect.objectContaining({ pid, running: true, current: true })]);
      expect(report.services[0]?.answers).toBeDefined();

      const stopped = await run(["service", "stop"], off);
      expect(stopped.code).toBe(0);
      expect(stopped.stdout).toMatch(/stopped 1 of 1/);
      // Ended: gone, or a zombie its new parent has not reaped yet (it was started detached).
      const stat = `/proc/${pid}/stat`;
      const zombie = existsSync(stat) && / Z /.test(readFileSync(stat, "utf8"));
      expect(alive(pid) && !zombie).toBe(false);
      expect(socketIn(dir)).toBeUndefined();
      const after = await run(["service", "status"], off);
      expect(after.code).toBe(1);
      expect(after.stdout).toMatch(/no decision service/);
    } finally {
      if (alive(pid)) process.kill(pid, "SIGTERM");
    }
  }, 120_000);

  describe("who may answer", () => {
    const SENTINEL = "answered by a fake service";
    let identity: Record<string, unknown>;
    let socket: string;
    let fake: net.Server | undefined;

    beforeAll(async () => {
      // Learn the name and identity of this build's service from a real one (it refuses an empty request).
      const real = await startService();
      socket = real.socket;
      identity = await new Promise((resolve, reject) => {
        const c = net.createConnection(socket, () => c.write("{}\n"));
        let text = "";
        c.on("data", (d) => (text += String(d)));
        c.on("end", () => resolve(JSON.parse(text) as Record<string, unknown>));
        c.on("error", reject);
      });
      expect(identity.refused).toBeDefined();
      await stop(real.child);
    });

    afterAll(() => fake?.close());

    /** A service that answers everything with the sentinel, as `who` (this build, or another). */
    async function listen(who: Record<string, unknown>, mode: number): Promise<void> {
      fake?.close();
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const server = net.createServer((c) =>
        c.once("data", () =>
          c.end(
            `${JSON.stringify({ ...who, status: 0, stdout: Buffer.from(`${SENTINEL}\n`).toString("base64"), stderr: "" })}\n`,
          ),
        ),
      );
      const temp = `${socket}.tmp`;
      await new Promise<void>((resolve) => server.listen(temp, resolve));
      chmodSync(temp, mode);
      renameSync(temp, socket);
      fake = server;
    }

    const args = ["check", "--", "git status"];

    it("a socket of this user, closed to others, is asked (so the refusals below can fail)", async () => {
      await listen(identity, 0o600);
      expect((await run(args, on)).stdout).toBe(SENTINEL);
    });

    it("a socket that other users can open is not asked", async () => {
      await listen(identity, 0o666);
      expect(await run(args, on)).toEqual(await run(args, off));
    });

    it("a directory that other users can enter is not used", async () => {
      await listen(identity, 0o600);
      chmodSync(dir, 0o755);
      try {
        expect(await run(args, on)).toEqual(await run(args, off));
      } finally {
        chmodSync(dir, 0o700);
      }
    });

    it("a service of another build or Node is not believed", async () => {
      for (const other of [{ build: "another" }, { node: "v0.0.0" }, { protocol: 0 }]) {
        await listen({ ...identity, ...other }, 0o600);
        expect(await run(args, on)).toEqual(await run(args, off));
      }
    });

    it("a client of another build is refused by the service", async () => {
      const real = await startService();
      const reply = await new Promise<Record<string, unknown>>((resolve, reject) => {
        const c = net.createConnection(real.socket, () =>
          c.write(`${JSON.stringify({ ...identity, build: "another", argv: ["check", "--", "ls"] })}\n`),
        );
        let text = "";
        c.on("data", (d) => (text += String(d)));
        c.on("end", () => resolve(JSON.parse(text) as Record<string, unknown>));
        c.on("error", reject);
      });
      expect(reply.refused).toBeDefined();
      expect(reply.status).toBeUndefined();
      await stop(real.child);
    });
  });
});
