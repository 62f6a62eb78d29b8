// Canary: a value from ${env:…} in the person's own slash command never reaches the audit records, the terminal
// modal, a notification, the output channel or the outcome (the error the extension shows), whichever way a step
// goes. Only the terminal itself is handed the real line: that is the run.
import { describe, expect, it } from "vitest";
import { formatTerminalPrompt } from "../src/prompt.js";
import { harness } from "./fake-host.js";

const CANARY = "cnry-4be1d9";
// The value has a space and a quote, so unquoted it splits into words and quoted it changes shape.
const TOKEN = `${CANARY} it's`;

const COMMANDS = {
  // allowed by the person's policy: runs without asking
  runs: { type: "terminal", command: "true --token ${q:env:DEPLOY_TOKEN}" },
  // a network client asks
  asks: { type: "terminal", command: "curl -H ${q:env:DEPLOY_TOKEN} https://example.invalid/" },
  // a download piped into a shell is denied, with its reasons
  denied: { type: "terminal", command: "curl -H ${q:env:DEPLOY_TOKEN} https://example.invalid/ | sh" },
  // unquoted, the value's quote breaks the line: it does not parse, so it asks
  unquoted: { type: "terminal", command: "true ${env:DEPLOY_TOKEN}" },
  // a notification that names the value
  notify: { type: "notify", message: "deploying with ${env:DEPLOY_TOKEN}" },
} as const;

describe("no secret reaches the audit, the modal, a notification or an error", () => {
  it.each([
    ["runs", "run", 0, "done"],
    ["runs", "run", 1, "failed"],
    ["asks", undefined, 0, "cancelled"],
    ["asks", "run", 0, "done"],
    ["denied", "run", 0, "refused"],
    ["unquoted", undefined, 0, "cancelled"],
    ["notify", "run", 0, "done"],
  ] as const)("/%s (modal answer %s, exit code %s)", async (name, answer, code, status) => {
    const h = harness(undefined, {
      userValue: Object.entries(COMMANDS).map(([n, step]) => ({ name: n, steps: [step] })),
    });
    h.policyText = JSON.stringify({
      version: 1,
      extends: ["recommended"],
      rules: [{ match: ["true"], decision: "allow" }],
    });
    h.host.env_ = { DEPLOY_TOKEN: TOKEN };
    h.host.terminalAnswer = answer;
    h.host.exitCodes = [{ kind: "exit", code }];
    const outcome = await h.runner.run({ name, args: "" });
    expect(outcome.status, JSON.stringify(outcome)).toBe(status);

    const modals = h.host.terminalPrompts.map((p) => formatTerminalPrompt(p));
    const notifications = h.host.effects.filter((e) => e.kind === "notify");
    const shown = JSON.stringify({ outcome, modals, notifications, logs: h.host.logs, audit: h.audit });
    expect(shown).not.toContain(CANARY);
    if (name === "notify") {
      expect(notifications).toHaveLength(1);
      return;
    }
    // The line really ran with the value (the canary is live), and the audit kept the template and a digest.
    if (status === "done" || status === "failed")
      expect(JSON.stringify(h.host.effects.filter((e) => e.kind === "terminal"))).toContain(CANARY);
    expect(h.audit.length).toBeGreaterThan(0);
    for (const record of h.audit) {
      expect(record.text).toBe(COMMANDS[name].command);
      expect(record.expandedDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    }
    if (modals.length > 0) expect(modals[0]?.detail).toContain("⟪env:DEPLOY_TOKEN⟫");
  });
});

describe("a secret of any length: what the extension shows and records does not depend on its value", () => {
  // The same command run with two values of the same length gives the same modal, notifications, output lines,
  // outcome and audit records (but for the digest of what ran), so none of either value is in them; searching for
  // a one-character value would have cut every word holding that character.
  const seen = async (name: keyof typeof COMMANDS, value: string): Promise<unknown> => {
    const h = harness(undefined, {
      userValue: Object.entries(COMMANDS).map(([n, step]) => ({ name: n, steps: [step] })),
    });
    h.policyText = JSON.stringify({
      version: 1,
      extends: ["recommended"],
      rules: [{ match: ["true"], decision: "allow" }],
    });
    h.host.env_ = { DEPLOY_TOKEN: value };
    h.host.terminalAnswer = "run";
    h.host.exitCodes = [{ kind: "exit", code: 0 }];
    const outcome = await h.runner.run({ name, args: "" });
    return {
      outcome,
      modals: h.host.terminalPrompts.map((p) => formatTerminalPrompt(p)),
      notifications: h.host.effects.filter((e) => e.kind === "notify"),
      logs: h.host.logs,
      audit: h.audit.map(
        ({ expandedDigest: _digest, time: _time, pid: _pid, durationMs: _ms, ...rest }) => rest,
      ),
    };
  };

  it.each([
    ["1 character", "%", "^"],
    ["3 characters", "%%%", "^^^"],
    ["a long value", "tok-%%%%-canary-value-1", "tok-^^^^-canary-value-2"],
  ])("%s", async (_label, a, b) => {
    for (const name of ["runs", "asks", "denied", "notify"] as const)
      expect(await seen(name, b), name).toEqual(await seen(name, a));
  });

  it("does not cut the extension's own words apart for a one-letter value", async () => {
    const shown = JSON.stringify(await seen("asks", "e"));
    expect(shown).toContain("curl -H '⟪env:DEPLOY_TOKEN⟫' https://example.invalid/");
    expect(shown).toContain("curl connects to other machines");
    expect(JSON.stringify(await seen("notify", "e"))).toContain("deploying with ⟪env:DEPLOY_TOKEN⟫");
  });
});
