// Every print of the CLI goes through one sink that shows control characters: generated hostile text (C0/C1,
// ESC sequences, bidi marks) in audit records, policy patterns and reasons, pack lock entries, agent settings,
// workspace paths and command lines never reaches stdout or stderr raw, whichever command prints it, with or
// without colour. Runs `runMain` in-process.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { AuditLog } from "@slashi/runtime";
import { hostileText, rawControls } from "@slashi/test-utils";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { runMain } from "../src/main.js";
import { isolatedEnv, scriptedIo, tempDir, writePacksLock } from "./helpers.js";

const tmp = tempDir("slashi-prints-visible-");
afterAll(() => tmp.remove());

/** The CLI's own colour sequences: the only escapes a coloured answer may hold. */
const OWN_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[(?:31|32|33|36|2|1|0)m`, "g");

let count = 0;

/** A user (config, state, home) and a workspace whose name, policy, packs, audit log and agent settings hold `text`. */
async function world(text: string): Promise<{ env: Record<string, string>; ws: string }> {
  const root = path.join(tmp.dir, `u${count++}`);
  const env = isolatedEnv(root);
  const safe = text.replace(/[/\0]/g, "_");
  const ws = path.join(root, `w-${safe}`);
  mkdirSync(path.join(ws, ".git"), { recursive: true });
  mkdirSync(path.join(ws, ".vscode"), { recursive: true });
  mkdirSync(path.join(root, "config"), { recursive: true });
  mkdirSync(path.join(root, "home", ".claude"), { recursive: true });
  writeFileSync(
    path.join(root, "config", "policy.json"),
    JSON.stringify({
      version: 1,
      rules: [
        { match: ["git", text], decision: "ask", reason: text },
        { match: [text], decision: "deny", reason: `no ${text}` },
      ],
    }),
  );
  writeFileSync(path.join(ws, ".vscode", "slashi.json"), JSON.stringify({ version: 1, commands: [] }));
  writeFileSync(
    path.join(root, "home", ".claude", "settings.json"),
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: text, hooks: [{ type: "command", command: `slashi ${text}` }] }] },
    }),
  );
  const packs = path.join(root, "state", "packs");
  mkdirSync(path.join(packs, `p-${safe}`), { recursive: true });
  writePacksLock(packs, { "demo-pack": { version: `1.0.0-${text}`, dir: `p-${safe}`, manifestSha256: "0" } });
  const log = new AuditLog({ file: path.join(root, "state", "audit.jsonl") });
  await log.append({
    event: "decision",
    host: "cli",
    source: `agent:${text}`,
    text: `echo ${text}`,
    decision: "ask",
    reasons: [{ code: "policy.rule", severity: "ask", message: text }],
    answer: text,
    workspaceKey: text,
    cwd: ws,
  });
  await log.append({ event: "run", host: "cli", command: `/${text}`, exitCode: 1, cwd: ws });
  return { env, ws };
}

const COMMANDS: readonly (readonly string[])[] = [
  ["audit", "show"],
  ["audit", "tail", "-n", "5"],
  ["policy", "show"],
  ["policy", "validate"],
  ["pack", "list"],
  ["doctor"],
  ["hook", "status"],
  ["trust", "status"],
  ["list"],
];

describe("CLI prints show control characters", () => {
  it("every command's output, with and without colour", async () => {
    await fc.assert(
      fc.asyncProperty(hostileText(), fc.boolean(), async (text, color) => {
        const { env, ws } = await world(text);
        const line = `git ${`'${text.replace(/\0/g, "").replace(/'/g, "'\\''")}'`}`;
        for (const argv of [...COMMANDS, ["check", "--", line], ["explain", "--", line], ["trust"]]) {
          const io = { ...scriptedIo(env, ws), color };
          await runMain([...argv], io);
          const printed = io.out() + io.err();
          expect(
            rawControls(color ? printed.replace(OWN_COLOUR, "") : printed),
            `${argv.join(" ")}: ${printed}`,
          ).toEqual([]);
        }
        // The raw hostile text is in what was read: the commands printed it made visible, not left it out.
        const io = scriptedIo(env, ws);
        await runMain(["audit", "show"], io);
        expect(io.out()).toContain("⟨U+");
      }),
      { numRuns: 6 },
    );
  });
});
