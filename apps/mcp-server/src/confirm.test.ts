import { hostileText, rawControls } from "@slashi/test-utils";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { decide, loadShellParser, resolvePolicy } from "@slashi/core";
import {
  CONFIRM_FIELD,
  CONFIRM_SCHEMA,
  confirmationMessage,
  environmentOverrides,
  requestDigest,
} from "./confirm.js";

beforeAll(async () => {
  await loadShellParser();
});

function decided(command: string) {
  return decide(command, resolvePolicy([]), { shell: "bash", cwd: "/w", workspaceRoot: "/w", home: "/h" });
}

describe("confirmationMessage", () => {
  it("shows the argv of every command, with wrappers unwrapped", () => {
    const message = confirmationMessage({
      title: "shell_command",
      decision: decided("sudo rm -r build && echo 'done now'"),
      cwd: "/w",
      env: {},
      cordon: true,
      network: false,
    });
    expect(message).toContain(
      'command 1 argv: ["sudo", "rm", "-r", "build"] (through sudo; runs ["rm", "-r", "build"])',
    );
    expect(message).toContain('command 2 argv: ["echo", "done now"]');
    expect(message).toContain("cordon: yes (sandboxed; network off)");
    expect(message).toContain("cwd: /w");
  });

  it("makes invisible characters visible and lists the reasons that ask", () => {
    const message = confirmationMessage({
      title: "t",
      decision: decided("curl https://example.com/\u202Etxt.sh"),
      cwd: "/w",
      env: {},
      cordon: false,
      network: false,
    });
    expect(message).toContain("⟨U+202E⟩");
    expect(message).not.toContain("\u202E");
    expect(message).toMatch(/Why it asks:\n- /);
  });

  it("names an extra reason given by the caller", () => {
    const message = confirmationMessage({
      title: "t",
      decision: decided("ls"),
      cwd: "/w",
      env: {},
      cordon: false,
      network: false,
      why: "a team command you have not approved",
    });
    expect(message).toContain("- a team command you have not approved");
  });
});

describe("confirmationMessage with hostile text", () => {
  it("never shows a control character, escape or bidi mark raw, wherever it comes from", () => {
    const word = (t: string): string => `'${t.replace(/\0/g, "").replace(/'/g, "'\\''")}'`;
    fc.assert(
      fc.property(hostileText(), hostileText(), (text, other) => {
        for (const line of [
          `echo ${word(text)}`,
          `X=${word(other)} env ${word(text)} ${word(other)} > ${word(text)}`,
          `sudo ${word(text)}`,
          word(text),
        ]) {
          const decision = decided(line);
          const message = confirmationMessage({
            title: `/${text}`,
            decision,
            cwd: `/w/${other}`,
            env: { ...environmentOverrides(decision), [text]: other },
            cordon: false,
            network: false,
            why: other,
          });
          expect(rawControls(message), message).toEqual([]);
        }
      }),
    );
  });
});

describe("environmentOverrides", () => {
  it("lists assignments of the command line by name", () => {
    expect(environmentOverrides(decided("A=1 B='x y' env"))).toEqual({ A: "1", B: "x y" });
  });
});

describe("requestDigest", () => {
  it("is stable under key order and changes with any field", () => {
    const a = requestDigest({ command: "ls", cwd: "/w", timeoutMs: 5 });
    expect(requestDigest({ timeoutMs: 5, cwd: "/w", command: "ls" })).toBe(a);
    expect(requestDigest({ command: "ls ", cwd: "/w", timeoutMs: 5 })).not.toBe(a);
    expect(requestDigest({ command: "ls", cwd: "/w/", timeoutMs: 5 })).not.toBe(a);
    expect(requestDigest({ command: "ls", cwd: "/w", timeoutMs: 6 })).not.toBe(a);
  });
});

describe("CONFIRM_SCHEMA", () => {
  it("has exactly one required boolean field that defaults to unticked", () => {
    expect(Object.keys(CONFIRM_SCHEMA.properties)).toEqual([CONFIRM_FIELD]);
    expect(CONFIRM_SCHEMA.properties[CONFIRM_FIELD]).toMatchObject({ type: "boolean", default: false });
    expect(CONFIRM_SCHEMA.required).toEqual([CONFIRM_FIELD]);
  });
});
