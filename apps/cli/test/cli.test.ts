// The slashi binary end to end: exit codes, JSON output, JSON lines, policy files, exec, hook install, and
// several processes writing the stores at once.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { requireTool, writeStubBwrap } from "@slashi/test-utils";
import { allowingPolicy, BIN, cliSandbox, slashi } from "./helpers.js";

const tmp = cliSandbox("slashi-cli-");
const { env, ws, run } = tmp;

/** The argv of every live process whose parent is `pid` (Linux /proc; empty elsewhere). */
function childCommands(pid: number | undefined): string[][] {
  if (pid === undefined || !existsSync("/proc")) return [];
  const out: string[][] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid !== pid) continue;
      out.push(
        readFileSync(`/proc/${entry}/cmdline`, "utf8")
          .split("\0")
          .filter((w) => w !== ""),
      );
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

/** Polls until `ready` holds; the test's own timeout bounds the wait. */
async function waitFor(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("slashi check", () => {
  it("exits 0 for allow, 10 for ask, 20 for deny", async () => {
    expect((await run(["check", "--", "ls", "-la"])).exitCode).toBe(0);
    expect((await run(["check", "--", "python3 -c 'print(1)'"])).exitCode).toBe(10);
    expect((await run(["check", "--", "rm -rf /"])).exitCode).toBe(20);
  });

  it("prints the verdict and the reasons as JSON", async () => {
    const result = await run(["check", "--json", "--", "rm -rf /"]);
    const out = JSON.parse(String(result.stdout)) as {
      command: string;
      decision: string;
      reasons: { code: string; severity: string; message: string }[];
    };
    expect(out.command).toBe("rm -rf /");
    expect(out.decision).toBe("deny");
    expect(
      out.reasons.some((r) => r.severity === "deny" && typeof r.message === "string" && r.code.length > 0),
    ).toBe(true);
  });

  it("answers JSON lines in input order and survives a malformed line", async () => {
    const input = [
      JSON.stringify({ command: "ls" }),
      "{not json",
      JSON.stringify({ cmd: "rm -rf /" }),
      "",
      JSON.stringify({ command: 7 }),
      JSON.stringify({ command: "echo hi", shell: "nushell" }),
      JSON.stringify({ command: "cat x", cwd: ws }),
    ].join("\n");
    const result = await run(["check", "--jsonl"], input);
    const lines = String(result.stdout)
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { line?: number; error: { code: string; message: string } });
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatchObject({ command: "ls", decision: "allow" });
    expect(lines[1]).toMatchObject({ line: 2, error: { code: "INVALID_INPUT" } });
    expect(lines[1]?.error.message).toMatch(/line 2: not valid JSON/);
    expect(lines[2]).toMatchObject({ command: "rm -rf /", decision: "deny" });
    expect(lines[3]).toMatchObject({ line: 5 });
    expect(lines[3]?.error.message).toMatch(/at \/command/);
    expect(lines[4]).toMatchObject({ command: "echo hi", decision: "ask" });
    expect(lines[5]).toMatchObject({ command: "cat x", decision: "allow" });
    expect(result.exitCode).toBe(3);
  });

  it("rejects an unknown option with a suggestion and exit 2", async () => {
    const result = await run(["check", "--jsn", "--", "ls"]);
    expect(result.exitCode).toBe(2);
    expect(String(result.stderr)).toMatch(/unknown option --jsn[\s\S]*did you mean --json\?/);
  });

  it("reports a malformed policy file with file, line, column and JSON path, exit 3", async () => {
    const file = path.join(tmp.dir, "bad-policy.json");
    writeFileSync(
      file,
      '{\n  "version": 1,\n  "rules": [\n    { "match": ["git"], "decision": "maybe" }\n  ]\n}\n',
    );
    const result = await run(["check", "--policy", file, "--", "git status"]);
    expect(result.exitCode).toBe(3);
    expect(String(result.stderr)).toMatch(
      new RegExp(`${file.replace(/[.]/g, "\\.")}:4:\\d+ \\(at /rules/0/decision\\)`),
    );
    expect(String(result.stderr)).not.toMatch(/\n\s+at .*\.js/);
  });
});

describe("slashi explain", () => {
  it("prints the tree with the verdict and exits like check", async () => {
    const result = await run(["explain", "--", "ls && rm -rf /"]);
    expect(result.exitCode).toBe(20);
    expect(String(result.stdout)).toMatch(/command 2: rm -rf \/[\s\S]*└─ verdict: deny/);
  });

  it("prints the structured explanation with --json", async () => {
    const out = JSON.parse(String((await run(["explain", "--json", "--", "ls | wc -l"])).stdout)) as {
      decision: string;
      commands: unknown[];
    };
    expect(out.decision).toBe("allow");
    expect(out.commands).toHaveLength(2);
  });
});

describe("slashi quote", () => {
  it("quotes for the named shell", async () => {
    expect(String((await run(["quote", "--shell", "bash", "--", "it's"])).stdout)).toBe("'it'\\''s'");
    expect(String((await run(["quote", "--shell", "pwsh", "--", "O’Brien"])).stdout)).toBe("'O’’Brien'");
  });

  it("fails closed on an unknown shell", async () => {
    const result = await run(["quote", "--shell", "nushell", "--", "x"]);
    expect(result.exitCode).toBe(3);
    expect(String(result.stderr)).toMatch(/UNKNOWN_SHELL/);
  });
});

describe("slashi policy", () => {
  it("writes a starter policy once, validates it and refuses to overwrite it", async () => {
    expect((await run(["policy", "init"])).exitCode).toBe(0);
    const validate = await run(["policy", "validate"]);
    expect(validate.exitCode).toBe(0);
    expect(String(validate.stdout)).toMatch(/^ok .*policy\.json/m);
    const again = await run(["policy", "init"]);
    expect(again.exitCode).toBe(2);
    expect(String(again.stderr)).toMatch(/already exists[\s\S]*--force/);
  });

  it("shows the resolved layers", async () => {
    const out = JSON.parse(String((await run(["policy", "show", "--json"])).stdout)) as {
      layers: { kind: string; source: string }[];
    };
    expect(out.layers.map((l) => l.kind)).toEqual(["user", "builtin"]);
  });

  it("shows the rules that count only in a trusted workspace as not counting in this untrusted one", async () => {
    const out = JSON.parse(String((await run(["policy", "show", "--json"])).stdout)) as {
      trusted: boolean;
      rules: { trustedWorkspaceOnly?: boolean; inactive?: string }[];
    };
    expect(out.trusted).toBe(false);
    const only = out.rules.filter((r) => r.trustedWorkspaceOnly === true);
    expect(only.length).toBeGreaterThan(0);
    expect(only.every((r) => r.inactive !== undefined)).toBe(true);
  });

  it("runs the rules' examples against the whole policy", async () => {
    const file = path.join(tmp.dir, "examples.json");
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        extends: ["recommended"],
        rules: [
          { match: ["shellcheck"], decision: "allow", examples: { match: ["shellcheck run.sh"] } },
          { match: ["sed"], decision: "allow", examples: { match: ["sed -i s/a/b/ file"] } },
        ],
      }),
    );
    const result = await run(["policy", "test", "--policy", file, "--json"]);
    const out = JSON.parse(String(result.stdout)) as {
      examples: number;
      failures: { example: string; got: string }[];
    };
    expect(result.exitCode).toBe(3);
    expect(out.failures.map((f) => f.example)).toEqual(["sed -i s/a/b/ file"]);
  });

  it("names a pack that a policy extends but is not installed, exit 3", async () => {
    const file = path.join(tmp.dir, "extends-pack.json");
    writeFileSync(file, JSON.stringify({ version: 1, extends: ["recommended", "@acme/slashi-policy"] }));
    const result = await run(["check", "--policy", file, "--", "ls"]);
    expect(result.exitCode).toBe(3);
    expect(String(result.stderr)).toMatch(
      /extends "@acme\/slashi-policy", which is not a built-in preset, an installed pack[\s\S]*slashi pack install @acme\/slashi-policy[\s\S]*PACK_NOT_FOUND/,
    );
  });

  it("refuses an extends typo with the preset it was meant to be, at its line", async () => {
    const file = path.join(tmp.dir, "extends-typo.json");
    writeFileSync(file, '{\n  "version": 1,\n  "extends": ["recommnded"]\n}\n');
    const result = await run(["policy", "validate", "--json", file]);
    expect(result.exitCode).toBe(3);
    const [entry] = JSON.parse(String(result.stdout)) as { error: { message: string } }[];
    expect(entry).toMatchObject({ error: { code: "PACK_NOT_FOUND", line: 3, jsonPath: "/extends/0" } });
    expect(entry?.error.message).toMatch(/did you mean "recommended"\?/);
    expect(entry?.error.message).not.toMatch(/pack install/);
    const check = await run(["check", "--policy", file, "--", "ls"]);
    expect(check.exitCode).toBe(3);
    expect(String(check.stderr)).toMatch(/extends-typo\.json:3:\d+.*did you mean "recommended"/);
  });

  it("validates a named file and reports every problem with its location", async () => {
    const file = path.join(tmp.dir, "contradiction.json");
    writeFileSync(
      file,
      JSON.stringify(
        {
          version: 1,
          rules: [
            { match: ["git", "push"], decision: "allow" },
            { match: ["git", "push"], decision: "deny" },
          ],
        },
        null,
        2,
      ),
    );
    const result = await run(["policy", "validate", "--json", file]);
    expect(result.exitCode).toBe(3);
    const [entry] = JSON.parse(String(result.stdout)) as {
      ok: boolean;
      error: { code: string; jsonPath: string; line: number };
    }[];
    expect(entry).toMatchObject({ ok: false, error: { code: "INVALID_POLICY", jsonPath: "/rules/1" } });
    expect(entry?.error.line).toBeGreaterThan(1);
  });
});

describe("slashi exec", () => {
  it("runs an allowed command and exits with its status", async () => {
    const ok = await run(["exec", "--", "test", "-d", "."]);
    expect(ok.exitCode).toBe(0);
    const failing = await run(["exec", "--", "test", "-f", "no-such-file"]);
    expect(failing.exitCode).toBe(1);
  });

  it("refuses a denied command with 120 and runs nothing", async () => {
    const marker = path.join(ws, "marker");
    const result = await run(["exec", "--", `touch ${marker}; rm -rf /`]);
    expect(result.exitCode).toBe(120);
    expect(String(result.stderr)).toMatch(/denied/);
    expect(existsSync(marker)).toBe(false);
  });

  it("refuses ask without a terminal with 121 and runs nothing", async () => {
    const marker = path.join(ws, "asked");
    const result = await run(["exec", "--", "python3", "-c", `open('${marker}','w')`]);
    expect(result.exitCode).toBe(121);
    expect(String(result.stderr)).toMatch(/needs approval, and there is no terminal/);
    expect(existsSync(marker)).toBe(false);
  });

  it("passes Ctrl-C on: the command's group is killed and slashi exits 130", async () => {
    const child = slashi(["exec", "--", "sleep", "20"], { env, cwd: ws });
    // Ctrl-C only once the command runs (a child `sleep 20` of this slashi), not after a guessed delay.
    await waitFor(() => childCommands(child.pid).some((argv) => argv.join(" ") === "sleep 20"));
    child.kill("SIGINT");
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(childCommands(child.pid)).toEqual([]);
    const runs = String((await run(["audit", "show", "--event", "run", "--json"])).stdout)
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(
      runs.some((r) => r.text === "sleep 20" && r.exitCode === null && typeof r.signal === "string"),
    ).toBe(true);
  });

  it("audits the run with its exit code", async () => {
    await run(["exec", "--", "test", "-f", "no-such-file"]);
    const records = String((await run(["audit", "show", "--event", "run", "--json"])).stdout)
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.some((r) => r.text === "test -f no-such-file" && r.exitCode === 1)).toBe(true);
  });
});

describe.skipIf(process.platform !== "linux" || !requireTool("bwrap", "slashi exec --cordon"))(
  "slashi exec --cordon (bubblewrap)",
  () => {
    /** A policy that allows `touch`, written by each test that needs it (a test run alone has it too). */
    const touchPolicy = (): string => allowingPolicy(tmp.dir, ["touch"], "touch-policy.json");

    it("lets the command write the workspace and keeps writes elsewhere off the host", async () => {
      const policy = touchPolicy();
      const inside = path.join(ws, "inside.txt");
      const outside = path.join(tmp.dir, "home", "outside.txt");
      const ok = await run(["exec", "--cordon", "--policy", policy, "--", "touch", inside]);
      expect(ok.exitCode).toBe(0);
      expect(existsSync(inside)).toBe(true);
      // The policy allows it, so it runs; the sandbox is what stops the write.
      const blocked = await run(["exec", "--cordon", "--policy", policy, "--", "touch", outside]);
      expect(blocked.exitCode).not.toBe(0);
      expect([120, 121, 122, 123]).not.toContain(blocked.exitCode);
      expect(existsSync(outside)).toBe(false);
      const records = String((await run(["audit", "show", "--event", "run", "--json"])).stdout);
      expect(records).toMatch(/"cordon":true/);
    });

    it("runs an ask without a prompt under skipConfirmInCordon, and warns that it skipped the confirmation", async () => {
      const marker = path.join(ws, "skipped-proven.txt");
      writeFileSync(path.join(ws, "skip-proven.sh"), `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
      const policy = path.join(tmp.dir, "skip-proven-policy.json");
      writeFileSync(
        policy,
        JSON.stringify({ version: 1, extends: ["recommended"], skipConfirmInCordon: true }),
      );
      const result = await run(["exec", "--cordon", "--policy", policy, "--", "./skip-proven.sh"]);
      expect(result.exitCode).toBe(0);
      expect(existsSync(marker)).toBe(true);
      expect(String(result.stderr)).toMatch(/warning: ran without confirmation inside the cordon/);
      const records = String((await run(["audit", "show", "--event", "run", "--json"])).stdout);
      expect(records).toMatch(/"answer":"cordon"/);
    });

    it("refuses with 123 and runs nothing when the bwrap on PATH does not confine", async () => {
      // A "bubblewrap" that skips its options and runs the command unconfined.
      const stubDir = writeStubBwrap(path.join(tmp.dir, "stub-bin"));
      const marker = path.join(ws, "ran-unconfined.txt");
      const policy = touchPolicy();
      const result = await slashi(["exec", "--cordon", "--policy", policy, "--", "touch", marker], {
        env: { ...env, PATH: `${stubDir}:${env.PATH ?? ""}` },
        cwd: ws,
      });
      expect(result.exitCode).toBe(123);
      expect(String(result.stderr)).toMatch(/does not confine/);
      expect(existsSync(marker)).toBe(false);
    });

    it("puts back git control files a command changed inside the cordon, and says so", async () => {
      const policy = allowingPolicy(tmp.dir, ["sh"], "sh-policy.json");
      // The policy cannot see into the script; the cordon puts back what it planted.
      writeFileSync(
        path.join(ws, "plant.sh"),
        "mkdir -p .git/info && echo '* filter=x' > .git/info/attributes\n",
      );
      const result = await run(["exec", "--cordon", "--policy", policy, "--", "sh", "plant.sh"]);
      expect(result.exitCode).toBe(0);
      expect(String(result.stderr)).toMatch(/changed .*\.git\/info.* it was put back/);
      expect(existsSync(path.join(ws, ".git", "info"))).toBe(false);
    });
  },
);

describe.skipIf(process.platform !== "linux")("skipConfirmInCordon when the cordon cannot be proven", () => {
  it("asks (exit 121 without a terminal) and runs nothing when the bwrap on PATH does not confine", async () => {
    // A "bubblewrap" that runs the command unconfined: the probe must catch it.
    const stubDir = writeStubBwrap(path.join(tmp.dir, "stub-skip-bin"));
    const marker = path.join(ws, "skipped-unproven.txt");
    writeFileSync(path.join(ws, "skip.sh"), `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
    const policy = path.join(tmp.dir, "skip-policy.json");
    writeFileSync(
      policy,
      JSON.stringify({ version: 1, extends: ["recommended"], skipConfirmInCordon: true }),
    );
    const stubEnv = { ...env, PATH: `${stubDir}:${env.PATH ?? ""}` };
    const checked = await slashi(["check", "--policy", policy, "--", "./skip.sh"], { env: stubEnv, cwd: ws });
    expect(checked.exitCode).toBe(10);
    const result = await slashi(["exec", "--cordon", "--policy", policy, "--", "./skip.sh"], {
      env: stubEnv,
      cwd: ws,
    });
    expect(result.exitCode).toBe(121);
    expect(existsSync(marker)).toBe(false);
  });
});

describe.skipIf(process.platform !== "win32")("slashi exec --cordon without a sandbox", () => {
  it("refuses with 123 instead of running unconfined", async () => {
    expect((await run(["exec", "--cordon", "--", "cmd", "/c", "exit 0"])).exitCode).toBe(123);
  });
});

describe("slashi hook install", () => {
  it("is idempotent and keeps a backup of what was there", async () => {
    const settings = path.join(ws, ".claude", "settings.json");
    mkdirSync(path.dirname(settings), { recursive: true });
    writeFileSync(settings, '{ "model": "opus" }\n');
    const first = await run(["hook", "install", "claude"]);
    expect(first.exitCode).toBe(0);
    const after = readFileSync(settings, "utf8");
    expect(readFileSync(`${settings}.slashi-backup`, "utf8")).toBe('{ "model": "opus" }\n');
    const second = await run(["hook", "install", "claude", "--project"]);
    expect(second.exitCode).toBe(0);
    expect(String(second.stdout)).toMatch(/nothing changed/);
    expect(readFileSync(settings, "utf8")).toBe(after);
    expect(JSON.parse(after)).toMatchObject({ model: "opus", hooks: { PreToolUse: [{ matcher: "Bash" }] } });
  });

  it("installs into the user's settings with --user", async () => {
    expect((await run(["hook", "install", "cursor", "--user"])).exitCode).toBe(0);
    const written = JSON.parse(readFileSync(path.join(tmp.dir, "home", ".cursor", "hooks.json"), "utf8")) as {
      hooks: { beforeShellExecution: { command: string }[] };
    };
    expect(written).toMatchObject({ version: 1, hooks: { beforeShellExecution: [{ failClosed: true }] } });
    expect(written.hooks.beforeShellExecution[0]?.command).toMatch(/^\/bin\/sh -c '.*" hook cursor\)/);
  });

  it("writes nothing over malformed settings and names line and column", async () => {
    const settings = path.join(ws, ".gemini", "settings.json");
    mkdirSync(path.dirname(settings), { recursive: true });
    writeFileSync(settings, '{\n  "theme": "dark",,\n}\n');
    const result = await run(["hook", "install", "gemini"]);
    expect(result.exitCode).toBe(3);
    expect(String(result.stderr)).toMatch(/settings\.json:2:\d+/);
    expect(readFileSync(settings, "utf8")).toBe('{\n  "theme": "dark",,\n}\n');
  });
});

describe("trust", () => {
  it("reports trust in its exit status", async () => {
    const other = path.join(tmp.dir, "other");
    mkdirSync(other, { recursive: true });
    expect((await slashi(["trust", "status"], { env, cwd: other })).exitCode).toBe(10);
    expect((await slashi(["trust"], { env, cwd: other })).exitCode).toBe(0);
    const status = await slashi(["trust", "status", "--json"], { env, cwd: other });
    expect(status.exitCode).toBe(0);
    expect(JSON.parse(String(status.stdout))).toMatchObject({ trusted: true });
  });

  it("loses nothing when eight processes trust eight workspaces at once", async () => {
    const dirs = Array.from({ length: 8 }, (_, i) => path.join(tmp.dir, `ws-${i}`));
    for (const d of dirs) {
      mkdirSync(path.join(d, ".vscode"), { recursive: true });
      writeFileSync(path.join(d, ".vscode", "slashi-policy.json"), JSON.stringify({ version: 1, rules: [] }));
    }
    const results = await Promise.all(dirs.map((d) => slashi(["trust"], { env, cwd: d })));
    expect(results.filter((r) => r.exitCode !== 0).map((r) => `${r.exitCode}: ${String(r.stderr)}`)).toEqual(
      [],
    );
    const approvals = JSON.parse(String((await run(["approvals", "list", "--json"])).stdout)) as {
      shell: { key: string }[];
    };
    expect(
      approvals.shell.filter((a) => a.key.startsWith("workspace-policy:")).length,
    ).toBeGreaterThanOrEqual(8);
    const trust = JSON.parse(readFileSync(path.join(tmp.dir, "state", "trust.json"), "utf8")) as {
      records: Record<string, { trusted: boolean }>;
    };
    expect(Object.values(trust.records).filter((r) => r.trusted).length).toBeGreaterThanOrEqual(8);
  });
});

describe("approvals", () => {
  it("loses nothing when eight processes revoke at once", async () => {
    const before = JSON.parse(String((await run(["approvals", "list", "--json"])).stdout)) as {
      shell: { key: string }[];
    };
    const keys = before.shell
      .map((a) => a.key)
      .filter((k) => k.startsWith("workspace-policy:"))
      .slice(0, 8);
    expect(keys.length).toBe(8);
    const results = await Promise.all(keys.map((key) => run(["approvals", "revoke", key])));
    expect(results.filter((r) => r.exitCode !== 0).map((r) => `${r.exitCode}: ${String(r.stderr)}`)).toEqual(
      [],
    );
    const after = JSON.parse(String((await run(["approvals", "list", "--json"])).stdout)) as {
      shell: { key: string }[];
    };
    expect(after.shell.map((a) => a.key).filter((k) => keys.includes(k))).toEqual([]);
    const revokes = String((await run(["audit", "show", "--event", "revoke", "--json"])).stdout)
      .trim()
      .split("\n");
    expect(revokes.length).toBeGreaterThanOrEqual(8);
  });

  it("says which key does not exist", async () => {
    const result = await run(["approvals", "revoke", "cmd:nope"]);
    expect(result.exitCode).toBe(3);
    expect(String(result.stderr)).toMatch(/no approval with key cmd:nope/);
  });
});

describe("output into a closed pipe", () => {
  it.skipIf(process.platform === "win32")("stops quietly when the reader goes away", async () => {
    const { execa } = await import("execa");
    const result = await execa(
      "sh",
      [
        "-c",
        `yes '{"command":"ls"}' | head -n 5000 | "${process.execPath}" "${BIN}" check --jsonl | head -1`,
      ],
      {
        env,
        extendEnv: false,
        cwd: ws,
        reject: false,
      },
    );
    expect(result.exitCode).toBe(0);
    expect(String(result.stderr)).not.toMatch(/EPIPE|Unhandled/);
  });
});

describe("usage", () => {
  it("suggests a command for a typo", async () => {
    const result = await run(["explian", "--", "ls"]);
    expect(result.exitCode).toBe(2);
    expect(String(result.stderr)).toMatch(/did you mean "slashi explain"/);
  });

  it("prints help with examples for a command", async () => {
    const result = await run(["hook", "install", "--help"]);
    expect(result.exitCode).toBe(0);
    expect(String(result.stdout)).toMatch(/Examples:\n {2}slashi hook install claude/);
  });
});
