import { describe, expect, it } from "vitest";
import {
  enkaiduPolicyDocument,
  enkaiduSettingsFrom,
  resolvePolicy,
  validatePolicyDocument,
} from "@slashi/core";
import { patternText, policyPrefixes, reasonCodes, shellCommandDescription } from "./describe.js";

function policy(document: unknown) {
  return resolvePolicy([
    { kind: "user", source: "user.json", document: validatePolicyDocument(document, "user.json") },
  ]);
}

describe("policyPrefixes", () => {
  it("lists active rules per verdict and the allowedCommands gates", () => {
    const p = policyPrefixes(
      policy({
        version: 1,
        rules: [
          { match: ["git", ["status", "log"]], decision: "allow" },
          { match: ["npm", "publish"], decision: "ask" },
          { match: ["terraform"], decision: "deny" },
        ],
        allowedCommands: ["git", "npm"],
      }),
    );
    expect(p.allow).toContain("git [status|log]");
    expect(p.ask).toContain("npm publish");
    expect(p.deny).toContain("terraform");
    expect(p.gates).toEqual([["git", "npm"]]);
  });

  it("leaves out allow rules of an unapproved workspace policy", () => {
    const resolved = resolvePolicy(
      [
        {
          kind: "workspace",
          source: "ws.json",
          approved: false,
          document: validatePolicyDocument(
            { version: 1, rules: [{ match: ["make"], decision: "allow" }] },
            "ws.json",
          ),
        },
      ],
      { defaultPreset: null },
    );
    expect(policyPrefixes(resolved).allow).not.toContain("make");
  });
});

describe("shellCommandDescription", () => {
  it("names the prefixes, the refusal codes and every reason code", () => {
    const text = shellCommandDescription(
      policy({ version: 1, rules: [{ match: ["make", "test"], decision: "allow" }] }),
      {
        cordon: false,
        shell: "/bin/bash",
      },
    );
    expect(text).toMatch(/Allowed without asking: make test\./);
    expect(text).toContain("SAFETY_DENIED");
    expect(text).toContain("PERMISSION_DENIED");
    for (const code of reasonCodes()) expect(text).toContain(code);
    expect(reasonCodes()).toContain("policy.no-rule");
    expect(reasonCodes()).toContain("shell.parse-error");
  });
});

describe("patternText", () => {
  it("shows every alternative, never a shortened list", () => {
    const words = Array.from({ length: 40 }, (_, i) => `tool${i}`);
    expect(patternText([words, "*", "$"])).toBe(`[${words.join("|")}] * $`);
  });
});

describe("policyPrefixes in an untrusted workspace", () => {
  it("leaves out allow rules that need a trusted workspace", () => {
    const resolved = resolvePolicy([]);
    const trusted = policyPrefixes(resolved, true).allow.join("\n");
    const untrusted = policyPrefixes(resolved, false).allow.join("\n");
    expect(trusted).toMatch(/^git \[status\|log\|/m);
    expect(untrusted).not.toMatch(/^git \[status\|log\|/m);
    expect(untrusted).toContain("ls|cat");
  });
});

describe("shellCommandDescription: Enkaidu and skipped confirmations", () => {
  it("says when lines run without a shell, lists the Enkaidu codes, and says when asks run in the cordon", () => {
    const text = shellCommandDescription(
      resolvePolicy([
        {
          kind: "user",
          source: "enkaidu.yml",
          document: enkaiduPolicyDocument(
            enkaiduSettingsFrom({
              config: { tool_settings: { shell_command: { skip_confirm_with_cordon: true } } },
              os: "unix",
            }),
          ),
        },
      ]),
      { cordon: false, shell: "bash" },
    );
    expect(text).toContain("commands run without a shell");
    expect(text).toContain("enkaidu.needs-shell");
    expect(text).toContain("runs inside the cordon without confirmation");
    expect(text).toContain("CWD_OUTSIDE_WORKSPACE");
    const plain = shellCommandDescription(policy({ version: 1 }), { cordon: false, shell: "bash" });
    expect(plain).not.toContain("Enkaidu");
    expect(plain).not.toContain("without confirmation");
  });
});
