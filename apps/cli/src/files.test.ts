// Each reader of a file a person or repository controls answers at once when a FIFO or a link to /dev/zero sits
// in the file's place. The test timeout is the hang guard: a plain read of either never returns.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { tempDir } from "@slashi/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { isSlashiError } from "@slashi/core";
import { doctorChecks } from "./commands/doctor.js";
import { hookStates } from "./commands/hook-install.js";
import { policyInit, policyValidate } from "./commands/policy.js";
import { policyImport } from "./commands/policy-import.js";
import { readIfPresent } from "./files.js";
import { installHook } from "./hooks/install.js";
import type { Io } from "./io.js";
import type { CommandSpec, ParsedArgs } from "./options.js";

const posix = process.platform !== "win32";
const rootTemp = tempDir("slashi-cli-files-");
const root = rootTemp.dir;
afterAll(rootTemp.remove);

let count = 0;
/** A fresh project, home and config directory. */
function places(): { project: string; home: string; config: string; state: string } {
  const base = path.join(root, `case-${count++}`);
  const out = {
    project: path.join(base, "project"),
    home: path.join(base, "home"),
    config: path.join(base, "config"),
    state: path.join(base, "state"),
  };
  for (const dir of Object.values(out)) mkdirSync(dir, { recursive: true });
  mkdirSync(path.join(out.project, ".git"));
  return out;
}

/** Puts a FIFO (`fifo`) or a link to /dev/zero (`zero`) where `file` belongs. */
function plant(file: string, kind: "fifo" | "zero"): void {
  mkdirSync(path.dirname(file), { recursive: true });
  if (kind === "fifo") execFileSync("mkfifo", [file]);
  else symlinkSync("/dev/zero", file);
}

function io(p: ReturnType<typeof places>): Io {
  return {
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdin: Readable.from([]),
    env: {
      PATH: process.env.PATH ?? "",
      HOME: p.home,
      SLASHI_CONFIG_DIR: p.config,
      SLASHI_STATE_DIR: p.state,
    },
    cwd: p.project,
    interactive: false,
    color: false,
  };
}

function args(operands: string[] = [], flags: ParsedArgs["flags"] = {}): ParsedArgs {
  return { spec: {} as CommandSpec, flags, operands, dashDash: false };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isSlashiError(error)) return error.code;
    throw error;
  }
  return "resolved";
}

const GUARD = { timeout: 20_000 };

describe.runIf(posix)("reading files a person or repository controls", () => {
  for (const kind of ["fifo", "zero"] as const) {
    it(`readIfPresent: refuses a ${kind}, undefined for a missing file`, GUARD, async () => {
      const p = places();
      const file = path.join(p.project, "x.json");
      plant(file, kind);
      expect(await codeOf(readIfPresent(file))).toBe("FILE_UNSAFE");
      expect(await readIfPresent(path.join(p.project, "missing.json"))).toBeUndefined();
    });

    it(`hook status: a ${kind} as an agent's settings is reported, not waited on`, GUARD, async () => {
      const p = places();
      const file = path.join(p.project, ".claude", "settings.json");
      plant(file, kind);
      const states = await hookStates(io(p), p.project);
      const state = states.find((s) => s.file === file);
      expect(state?.error).toMatch(/not read/);
    });

    it(`hook install: refuses a ${kind} as the settings file`, GUARD, async () => {
      const p = places();
      const file = path.join(p.project, ".gemini", "settings.json");
      plant(file, kind);
      expect(await codeOf(installHook("gemini", file, "slashi hook gemini"))).toBe("FILE_UNSAFE");
    });

    it(`doctor: a ${kind} as an MCP config is a problem, not a hang`, GUARD, async () => {
      const p = places();
      plant(path.join(p.project, ".mcp.json"), kind);
      const checks = await doctorChecks(io(p), p.project);
      expect(checks.find((c) => c.name.startsWith("mcp:") && c.status === "problem")?.detail).toMatch(
        /FILE_UNSAFE|not read/,
      );
    });

    it(`policy init, validate and import: a ${kind} in place of the policy file`, GUARD, async () => {
      const p = places();
      const policy = path.join(p.config, "policy.json");
      plant(policy, kind);
      expect(await codeOf(policyInit(args([], { force: true }), io(p)))).toBe("FILE_UNSAFE");
      const out = io(p);
      let printed = "";
      out.stdout.on("data", (chunk: Buffer) => (printed += chunk.toString()));
      await policyValidate(args([], { json: true }), out);
      expect(printed).toMatch(/FILE_UNSAFE/);
      const enkaidu = path.join(p.project, "enkaidu.yml");
      writeFileSync(enkaidu, "tool_settings:\n  shell_command:\n    allowed_commands: [ls]\n");
      expect(await codeOf(policyImport(args(["enkaidu", enkaidu], { force: true }), io(p)))).toBe(
        "FILE_UNSAFE",
      );
    });
  }

  it("policy init with --force keeps the previous file's bytes as the backup", GUARD, async () => {
    const p = places();
    const policy = path.join(p.config, "policy.json");
    writeFileSync(policy, '{"version":1,"rules":[]}\n');
    await policyInit(args([], { force: true }), io(p));
    expect(readFileSync(`${policy}.slashi-backup`, "utf8")).toBe('{"version":1,"rules":[]}\n');
  });
});
