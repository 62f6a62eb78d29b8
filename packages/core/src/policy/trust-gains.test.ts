import { RECOMMENDED_POLICY } from "./recommended.js";
import type { PolicyDocument, PolicyLayer, Verdict } from "./types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ruleCounts } from "./evaluate.js";
import { resolvePolicy } from "./resolve.js";
import { trustGains } from "./trust-gains.js";

const WS = "/repo/.vscode/slashi-policy.json";
const user = (document: Omit<PolicyDocument, "version">): PolicyLayer => ({
  kind: "user",
  source: "/home/me/.config/slashi/policy.json",
  document: { version: 1, ...document },
});
const workspace = (document: Omit<PolicyDocument, "version">): PolicyLayer => ({
  kind: "workspace",
  source: WS,
  document: { version: 1, ...document },
  approved: false,
});
const pack = (name: string, approved: boolean, document: Omit<PolicyDocument, "version">): PolicyLayer => ({
  kind: "pack",
  source: name,
  document: { version: 1, ...document },
  approved,
});
const strictUser = user({ rules: [{ match: ["git", "status"], decision: "allow" }] });

describe("trustGains", () => {
  it("lists the workspace file's allow rules and approvedCommands, never its ask or deny rules", () => {
    const gains = trustGains([
      strictUser,
      workspace({
        rules: [
          { match: ["make", "test"], decision: "allow", reason: "tests" },
          { match: ["curl"], decision: "ask" },
          { match: ["rm"], decision: "deny" },
        ],
        approvedCommands: ["npm run lint"],
      }),
    ]);
    expect(gains.rules).toEqual([
      {
        layer: "workspace",
        source: WS,
        jsonPath: "/rules/0",
        match: "make test",
        reason: "tests",
        because: "approved",
      },
      {
        layer: "workspace",
        source: WS,
        jsonPath: "/approvedCommands/0",
        match: "approvedCommands: npm run lint",
        because: "approved",
      },
    ]);
    expect(gains.settings).toEqual([]);
    expect(gains.waiting).toEqual([]);
  });

  it("lists what a preset the file extends brings, when the person's own policy does not already apply it", () => {
    const gains = trustGains([strictUser, workspace({ extends: ["recommended"] })]);
    const fromPreset = gains.rules.filter((r) => r.source === "preset:recommended");
    const presetAllows = (RECOMMENDED_POLICY.rules ?? []).filter((r) => r.decision === "allow").length;
    expect(fromPreset).toHaveLength(presetAllows);
    expect(fromPreset.every((r) => r.because === "approved")).toBe(true);
  });

  it("lists trustedWorkspaceOnly rules of the person's own preset as counting in any trusted workspace", () => {
    // no user layer: the recommended preset applies by default and already counts, except trustedWorkspaceOnly
    const gains = trustGains([workspace({})]);
    const only = (RECOMMENDED_POLICY.rules ?? []).filter((r) => r.trustedWorkspaceOnly === true).length;
    expect(only).toBeGreaterThan(0);
    expect(gains.rules).toHaveLength(only);
    expect(gains.rules.every((r) => r.because === "trusted-workspace")).toBe(true);
  });

  it("lists an approved pack the file extends, and names the approval an unapproved one still waits for", () => {
    const gains = trustGains([
      strictUser,
      workspace({ extends: ["@acme/ok", "@acme/new"] }),
      pack("@acme/ok", true, { rules: [{ match: ["deploy"], decision: "allow" }] }),
      pack("@acme/new", false, { approvedCommands: ["ls"] }),
    ]);
    expect(gains.rules.map((r) => [r.source, r.match])).toEqual([["@acme/ok", "deploy"]]);
    expect(gains.waiting).toEqual([
      {
        layer: "pack",
        source: "@acme/new",
        jsonPath: "/approvedCommands/0",
        match: "approvedCommands: ls",
        needs: "slashi pack approve @acme/new",
      },
    ]);
  });

  it("lists loosening settings with the file that sets them; a person's false still wins", () => {
    const loose = workspace({
      allowNetwork: true,
      networkAllowedCommands: ["npm install"],
      skipConfirmInCordon: true,
    });
    expect(trustGains([strictUser, loose]).settings).toEqual([
      { key: "allowNetwork", value: true, sources: [WS] },
      { key: "skipConfirmInCordon", value: true, sources: [WS] },
      { key: "networkAllowedCommands", value: ["npm install"], sources: [WS] },
    ]);
    const careful = user({ allowNetwork: false, skipConfirmInCordon: false });
    expect(trustGains([careful, loose]).settings.map((s) => s.key)).toEqual(["networkAllowedCommands"]);
  });

  it("lists nothing when there is no workspace file and the person's policy has no trustedWorkspaceOnly rule", () => {
    expect(trustGains([strictUser])).toEqual({ rules: [], settings: [], waiting: [] });
  });

  it("lists exactly the workspace file's allow rules, whatever else it holds", () => {
    const verdict = fc.constantFrom<Verdict>("allow", "ask", "deny");
    const rule = fc.record({
      match: fc.array(fc.constantFrom("a", "b", "c", "*"), { minLength: 1, maxLength: 3 }),
      decision: verdict,
    });
    fc.assert(
      fc.property(fc.array(rule, { maxLength: 8 }), (rules) => {
        // duplicates and contradictions are rejected by the parser, so give each rule its own program word
        const unique = rules.map((r, i) => ({ ...r, match: [`p${i}`, ...r.match] }));
        const gains = trustGains([strictUser, workspace({ rules: unique })]);
        const allowed = unique.flatMap((r, i) => (r.decision === "allow" ? [`/rules/${i}`] : []));
        expect(gains.rules.map((r) => r.jsonPath)).toEqual(allowed);
      }),
    );
  });

  it("lists an allow rule exactly when ruleCounts says it counts once trusted and did not before", () => {
    const rule = fc.record({
      match: fc.array(fc.constantFrom("a", "b", "*"), { minLength: 1, maxLength: 2 }),
      decision: fc.constantFrom<Verdict>("allow", "ask", "deny"),
      trustedWorkspaceOnly: fc.boolean(),
    });
    const rules = (prefix: string) =>
      fc
        .array(rule, { maxLength: 4 })
        .map((list) => list.map((r, i) => ({ ...r, match: [`${prefix}${i}`, ...r.match] })));
    fc.assert(
      fc.property(rules("u"), rules("w"), rules("p"), fc.boolean(), (own, file, packed, packApproved) => {
        const layers = [
          user({ rules: own }),
          workspace({ extends: ["@acme/pack"], rules: file }),
          pack("@acme/pack", packApproved, { rules: packed }),
        ];
        const key = (r: { source: string; jsonPath: string }) => `${r.source} ${r.jsonPath}`;
        const before = resolvePolicy(
          layers.map((l) => ({ ...l, approved: l.kind === "pack" && packApproved })),
        );
        const after = resolvePolicy(
          layers.map((l) => (l.kind === "workspace" ? { ...l, approved: true } : l)),
        );
        const countedBefore = new Set(
          before.rules.filter((r) => ruleCounts(r, { workspaceTrusted: false })).map(key),
        );
        const gained = after.rules.filter(
          (r) =>
            r.decision === "allow" && ruleCounts(r, { workspaceTrusted: true }) && !countedBefore.has(key(r)),
        );
        expect(trustGains(layers).rules.map(key)).toEqual(gained.map(key));
      }),
    );
  });
});
