import { describe, expect, it } from "vitest";
import * as core from "../index.js";
import * as internal from "../internal.js";
import { SAFETY_CODES, severityOf } from "./codes.js";

describe("SAFETY_CODES", () => {
  it("lists each code once, with a classifier prefix, a severity and a one-line description", () => {
    const codes = SAFETY_CODES.map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const info of SAFETY_CODES) {
      expect(info.code).toMatch(
        /^(shell|program|rm|git|tool|inline|destroy|net|supply|container|write|secret|self)\.[a-z0-9-]+$/,
      );
      expect(["deny", "ask"]).toContain(info.severity);
      expect(info.description.length).toBeGreaterThan(20);
      expect(info.description).not.toMatch(/\n/);
    }
  });

  it("keeps the hard denials few and named", () => {
    expect(SAFETY_CODES.filter((c) => c.severity === "deny").map((c) => c.code)).toEqual([
      "shell.download-to-shell",
      "rm.recursive-root",
      "rm.recursive-system",
      "rm.recursive-home",
      "rm.recursive-workspace-root",
      "rm.recursive-dynamic",
      "rm.no-preserve-root",
      "git.push-mirror",
      "inline.encoded",
      "inline.decoded",
      "destroy.filesystem",
      "destroy.partition",
      "destroy.block-device",
      "destroy.fork-bomb",
      "destroy.permissions",
      "destroy.kill-all",
      "destroy.power",
      "destroy.infrastructure",
      "destroy.crontab",
      "net.dev-tcp",
      "container.privileged",
      "container.host-mount",
      "write.sensitive-path",
      "secret.exfiltration",
      "self.protected-write",
    ]);
  });

  it("cannot be changed at run time", () => {
    expect(Object.isFrozen(SAFETY_CODES)).toBe(true);
    expect(Object.isFrozen(SAFETY_CODES[0])).toBe(true);
  });

  it("lists every shell analysis finding code", () => {
    const listed = new Set(SAFETY_CODES.map((c) => c.code));
    for (const code of Object.values(core.ShellFindingCode)) expect(listed).toContain(code);
  });

  it("gives each code its listed severity", () => {
    expect(severityOf("rm.recursive-root")).toBe("deny");
    expect(severityOf("rm.recursive")).toBe("ask");
  });

  it("is exported from the package entry with the classifiers; the argv and fork-bomb helpers are internal", () => {
    expect(core.SAFETY_CODES).toBe(SAFETY_CODES);
    expect(typeof core.classifyCommand).toBe("function");
    expect(typeof core.classifyAnalysis).toBe("function");
    expect(typeof internal.commandFromArgv).toBe("function");
    expect(typeof internal.detectForkBomb).toBe("function");
    expect("commandFromArgv" in core).toBe(false);
  });
});
