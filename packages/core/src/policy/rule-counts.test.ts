import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { loadShellParser } from "../shell/parser.js";
import { decide } from "./decide.js";
import { ruleCounts, ruleInactiveHere } from "./evaluate.js";
import { resolvePolicy } from "./resolve.js";

beforeAll(async () => {
  await loadShellParser();
});

describe("ruleCounts", () => {
  it("is what deciding counts: a line only its rules allow runs exactly when one of them counts (generated)", () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }), fc.boolean(), (only, trusted) => {
        const policy = resolvePolicy([
          {
            kind: "user",
            source: "policy.json",
            document: {
              version: 1,
              rules: only.map((trustedWorkspaceOnly) => ({
                match: ["frobnicate"],
                decision: "allow" as const,
                ...(trustedWorkspaceOnly ? { trustedWorkspaceOnly } : {}),
              })),
            },
          },
        ]);
        const counted = policy.rules.some((r) => ruleCounts(r, { workspaceTrusted: trusted }));
        const decision = decide("frobnicate", policy, {
          cwd: "/w",
          workspaceRoot: "/w",
          workspaceTrusted: trusted,
        });
        expect(decision.decision === "allow").toBe(counted);
      }),
      { numRuns: 40 },
    );
  });

  it("says why a rule does not count: its own reason first, then an untrusted workspace for its allow rules", () => {
    const untrusted = { workspaceTrusted: false };
    const rule = { decision: "allow" as const, trustedWorkspaceOnly: true };
    expect(ruleInactiveHere(rule, untrusted)).toBe("untrusted-workspace");
    expect(ruleInactiveHere(rule, { workspaceTrusted: true })).toBeUndefined();
    expect(ruleInactiveHere({ ...rule, decision: "ask" as const }, untrusted)).toBeUndefined();
    expect(ruleInactiveHere({ ...rule, inactive: "unapproved" as const }, { workspaceTrusted: true })).toBe(
      "unapproved",
    );
  });
});
