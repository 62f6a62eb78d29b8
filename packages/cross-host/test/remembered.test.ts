// One remembered approval, every host. One temporary HOME and one trusted workspace holding a script the policy
// asks about. The person answers "Always allow" to the real `slashi exec` (the built binary on a pseudo-terminal,
// through `script`); then `slashi check`, the three agent hooks (built binary), MCP `check_command` of the built
// `slashi-mcp` and the extension's decision for a terminal step must all allow that line, for the same reason
// (`approval.remembered`), and `slashi exec` runs it with no terminal to ask on. Once the script changes, every
// host asks again, with the same reasons, and `slashi exec` without a terminal refuses it.
import { chmodSync, existsSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { readAudit, slashiPaths, type AuditRecord } from "@slashi/runtime";
import { hostEnv, tempHome } from "@slashi/test-utils";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pseudoTerminal, SLASHI } from "./built.js";
import { extensionTerminalStep } from "./extension.js";
import { AGENTS, hookPayload, hookVerdict } from "./agents.js";
import { withMcp } from "./mcp.js";

/** `script` from util-linux gives `slashi exec` a terminal to ask on. */
const SCRIPT = pseudoTerminal("the remembered-approval test");

const LINE = "./build.sh";

describe.runIf(SCRIPT !== undefined)("one remembered approval, honoured alike by every host", () => {
  const temp = tempHome("slashi-remembered-");
  const ws = temp.workspace;
  const env = hostEnv(temp);
  const marker = path.join(ws, "built");

  const slashi = (args: string[], input?: string) =>
    execa(process.execPath, [SLASHI, ...args], {
      env,
      extendEnv: false,
      cwd: ws,
      reject: false,
      ...(input === undefined ? { stdin: "ignore" as const } : { input }),
    });

  /** `slashi exec -- ./build.sh` on a pseudo-terminal whose person types `answer`. */
  const execOnTerminal = (answer: string) =>
    execa(SCRIPT!, ["-qec", `"${process.execPath}" "${SLASHI}" exec -- ${LINE}`, "/dev/null"], {
      env,
      extendEnv: false,
      cwd: ws,
      reject: false,
      input: `${answer}\n`,
    });

  function writeScript(body: string): void {
    writeFileSync(path.join(ws, "build.sh"), `#!/bin/sh\ntouch built\n${body}\n`);
    chmodSync(path.join(ws, "build.sh"), 0o755);
  }

  /** The newest audit record a hook wrote: its reasons, or the remembered approval that answered. */
  async function lastHookCodes(agent: string): Promise<string[]> {
    const { records } = await readAudit(slashiPaths({ env }).audit, {
      filter: (r) => r.source === `agent:${agent}`,
    });
    const r = records.at(-1) as AuditRecord;
    return r.answer === "remembered" ? ["approval.remembered"] : (r.reasons ?? []).map((x) => x.code);
  }

  /** Every host's answer for the line: verdict and reason codes, by host. */
  async function answers(): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    const checked = await slashi(["check", "--jsonl"], JSON.stringify({ command: LINE, shell: "bash" }));
    const parsed = JSON.parse(String(checked.stdout)) as { decision: string; reasons: { code: string }[] };
    out.check = `${parsed.decision} [${parsed.reasons.map((r) => r.code).join(" ")}]`;
    for (const agent of AGENTS) {
      const result = await slashi(["hook", agent], hookPayload(agent, LINE, ws, temp.home));
      const verdict = hookVerdict(agent, String(result.stdout), result.exitCode ?? -1);
      out[`hook ${agent}`] = `${verdict} [${(await lastHookCodes(agent)).join(" ")}]`;
    }
    const mcp = (await withMcp(ws, env, (client) =>
      client.callTool({ name: "check_command", arguments: { command: LINE } }),
    )) as { structuredContent?: { decision?: string; reasons?: { code: string }[] } };
    const s = mcp.structuredContent ?? {};
    out["mcp check_command"] = `${s.decision} [${(s.reasons ?? []).map((r) => r.code).join(" ")}]`;
    const step = await extensionTerminalStep(env, temp.home, ws, {
      command: LINE,
      shell: "/bin/bash",
      cwd: ws,
      env,
    });
    out["vscode terminal step"] = `${step.verdict} [${step.reasons.map((r) => r.code).join(" ")}]`;
    return out;
  }

  /** Each host answered exactly as `slashi check` did, and that answer starts with `verdict`. */
  function expectAlike(all: Record<string, string>, verdict: string): void {
    expect(Object.keys(all)).toHaveLength(6);
    expect(all.check).toMatch(new RegExp(`^${verdict} \\[`));
    for (const [host, answer] of Object.entries(all))
      expect({ host, answer }).toEqual({ host, answer: all.check });
  }

  beforeAll(async () => {
    writeScript("echo first");
    const trusted = await slashi(["trust"]);
    if (trusted.exitCode !== 0) throw new Error(`slashi trust exited ${trusted.exitCode}: ${trusted.stderr}`);
  }, 120_000);
  afterAll(() => temp.remove());

  it("asks everywhere, then after Always allow in slashi exec allows everywhere, until the script changes", async () => {
    const before = await answers();
    expectAlike(before, "ask");
    expect(before.check).not.toContain("approval.remembered");
    const refused = await slashi(["exec", "--", LINE]);
    expect(refused.exitCode).not.toBe(0);
    expect(existsSync(marker)).toBe(false);

    const approved = await execOnTerminal("a");
    expect(approved.exitCode, String(approved.stdout)).toBe(0);
    expect(String(approved.stdout)).toMatch(/approval needed[\s\S]*\[a\] Always allow/);
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);

    const remembered = await answers();
    expectAlike(remembered, "allow");
    expect(remembered.check).toBe("allow [approval.remembered]");
    const again = await slashi(["exec", "--", LINE]);
    expect(again.exitCode, String(again.stderr)).toBe(0);
    expect(String(again.stderr)).not.toContain("approval needed");
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);

    writeScript("echo changed");
    const changed = await answers();
    expectAlike(changed, "ask");
    // The policy's reasons again, after the one saying the remembered approval no longer matches.
    expect(changed.check).toBe((before.check ?? "").replace("ask [", "ask [approval.changed "));
    expect((await slashi(["exec", "--", LINE])).exitCode).not.toBe(0);
    expect(existsSync(marker)).toBe(false);
  }, 300_000);
});
