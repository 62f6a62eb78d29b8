import { beforeEach, describe, expect, it } from "vitest";
import { behaviour, created, warningAnswer, warnings, window } from "../test/vscode-stub.js";
import { ALWAYS_ALLOW_LABEL, modalPrompter, RUN_LABEL, VscodeHost } from "./vscode-host.js";

const output = { appendLine: () => {} } as never;

function host(timeout = 200): VscodeHost {
  return new VscodeHost(
    output,
    () => modalPrompter,
    () => timeout,
  );
}

describe("VscodeHost terminals", () => {
  beforeEach(() => {
    created.length = 0;
    window.terminals = [];
    behaviour.integrationAfter = 0;
    behaviour.exitCode = 0;
  });

  it("waits for shell integration and reports the command's exit code", async () => {
    behaviour.exitCode = 7;
    const outcome = await host().runInTerminal({ name: "Build", cwd: "/w", commandLine: "make" });
    expect(outcome).toEqual({ kind: "exit", code: 7 });
    expect(created[0]?.sent).toEqual(["make"]);
    expect(created[0]?.creationOptions).toMatchObject({ name: "Build", cwd: "/w", shellPath: "/bin/bash" });
  });

  it("sends the text and says failure cannot be detected when shell integration never comes", async () => {
    behaviour.integrationAfter = undefined;
    const outcome = await host(30).runInTerminal({ name: "Plain", commandLine: "ls" });
    expect(outcome).toEqual({ kind: "no-integration" });
    expect(created[0]?.sent).toEqual(["ls"]);
  });

  it("reports an unknown exit when the shell gives no code", async () => {
    behaviour.exitCode = undefined;
    expect(await host().runInTerminal({ name: "T", commandLine: "ls" })).toEqual({ kind: "unknown-exit" });
  });

  it("reuses its terminal of the same name and cwd, and opens a new one for another cwd", async () => {
    const h = host();
    await h.runInTerminal({ name: "T", cwd: "/a", commandLine: "ls" });
    await h.runInTerminal({ name: "T", cwd: "/a", commandLine: "pwd" });
    expect(created).toHaveLength(1);
    await h.runInTerminal({ name: "T", cwd: "/b", commandLine: "pwd" });
    expect(created).toHaveLength(2);
    expect(window.terminals).toHaveLength(1);
  });

  it("tells the shell of the terminal a step would run in", () => {
    expect(host().terminalShell("New")).toBe("/bin/bash");
  });
});

describe("VscodeHost terminal modal", () => {
  const prompt = {
    command: "fetch",
    step: "Terminal: curl x",
    commandLine: "curl x",
    reasons: ["ask: network"],
  };

  it("offers Always Allow when the line can be remembered, and returns which button was pressed", async () => {
    warnings.length = 0;
    for (const [button, answer] of [
      [ALWAYS_ALLOW_LABEL, "always"],
      [RUN_LABEL, "run"],
      [undefined, undefined],
    ] as const) {
      warningAnswer.button = button;
      expect(await host().askTerminal({ ...prompt, canRemember: true })).toBe(answer);
    }
    expect(warnings.map((w) => w.buttons)).toEqual(Array(3).fill([RUN_LABEL, ALWAYS_ALLOW_LABEL]));
  });

  it("offers Run only, and says why, when the line cannot be remembered", async () => {
    warnings.length = 0;
    warningAnswer.button = RUN_LABEL;
    const cannot = "it needs the shell";
    expect(await host().askTerminal({ ...prompt, canRemember: false, cannotRemember: cannot })).toBe("run");
    expect(warnings[0]?.buttons).toEqual([RUN_LABEL]);
    expect(warnings[0]?.detail).toContain(`Always Allow is not offered: ${cannot}`);
  });
});
