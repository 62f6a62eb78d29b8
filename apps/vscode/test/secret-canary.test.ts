// The secret canary through the extension's runner: a value from ${env:…} in an argument, in a step's directory and
// in the program of a step that fails never reaches the audit records, the terminal modal, a notification, the
// output channel or the outcome (the error the extension shows). Only the terminal is handed the real line.
import path from "node:path";
import { CANARY } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";
import { formatTerminalPrompt } from "../src/prompt.js";
import { FOLDER, harness } from "./fake-host.js";

describe("the secret canary through the extension's runner", () => {
  it.each(CANARY.kinds)("a %s value", async (kind) => {
    const h = harness(undefined, { userValue: [CANARY.command, CANARY.openCommand] });
    h.policyText = JSON.stringify(CANARY.policy);
    h.host.values = { workspaceFolder: FOLDER };
    h.host.env_ = { [CANARY.variable]: CANARY.values[kind] };
    // The last step asks (an unknown program); run it, and it fails in the terminal.
    h.host.terminalAnswer = "run";
    h.host.exitCodes = [
      { kind: "exit", code: 0 },
      { kind: "exit", code: 0 },
      { kind: "exit", code: 127 },
    ];
    const outcome = await h.runner.run({ name: "canary", args: "" });
    expect(outcome.status, JSON.stringify(outcome)).toBe("failed");
    // An open step: only the browser is handed the real URL.
    const opened = await h.runner.run({ name: "canary-open", args: "" });
    expect(opened.status, JSON.stringify(opened)).toBe("done");
    const modals = h.host.terminalPrompts.map((p) => formatTerminalPrompt(p));
    const notifications = h.host.effects.filter((e) => e.kind === "notify");
    const shown = { outcome, opened, modals, notifications, logs: h.host.logs, audit: h.audit };
    expect(CANARY.found(shown, CANARY.marks[kind])).toEqual([]);
    // The canary is live: the terminal ran the real lines, the directory step in the value's directory.
    const terminals = h.host.effects.filter((e) => e.kind === "terminal");
    expect(terminals).toHaveLength(3);
    expect(JSON.stringify(terminals)).toContain(CANARY.marks[kind]);
    const browser = h.host.effects.filter((e) => e.kind === "openExternal");
    expect(JSON.stringify(browser)).toContain(CANARY.marks[kind]);
    expect(modals.map((m) => m.detail).join("\n")).toContain(CANARY.placeholder);
    // Every step was recorded; the one in the value's directory names it by its placeholder.
    for (const step of CANARY.command.steps) expect(h.audit.some((r) => r.text === step.command)).toBe(true);
    const inDirectory = h.audit.filter((r) => r.text === CANARY.steps.directory.command);
    expect(inDirectory.length).toBeGreaterThan(0);
    for (const r of inDirectory) expect(r.cwd).toBe(path.join(FOLDER, CANARY.placeholder));
  });
});
