import {
  trustGains,
  type GainedRule,
  type PolicyLayer,
  type PolicyLayerKind,
  type TrustGains,
  type WaitingRule,
} from "@slashi/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TRUST_GAIN_EXAMPLES, trustGainsView, type TrustGainGroup } from "./trust-gains-view.js";

const WS = "/repo/.vscode/slashi-policy.json";
const layers: PolicyLayer[] = [
  {
    kind: "user",
    source: "/home/me/.config/slashi/policy.json",
    document: {
      version: 1,
      rules: [{ match: ["make", "deploy"], decision: "allow", trustedWorkspaceOnly: true }],
    },
  },
  {
    kind: "workspace",
    source: WS,
    approved: false,
    document: {
      version: 1,
      extends: ["recommended", "@acme/loose"],
      rules: [
        { match: ["just", "test"], decision: "allow", reason: "the test recipe" },
        { match: ["curl"], decision: "deny" },
      ],
    },
  },
  {
    kind: "pack",
    source: "@acme/loose",
    approved: false,
    document: { version: 1, rules: [{ match: ["deploy"], decision: "allow" }] },
  },
];

describe("trustGainsView", () => {
  const gains = trustGains(layers);

  it("lists the workspace file's own rules, folds what it extends and trusted-only rules a group per source", () => {
    const view = trustGainsView(gains);
    expect(view.listed.map((r) => [r.match, r.jsonPath])).toEqual([["just test", "/rules/0"]]);
    expect(view.extended.map((g) => [g.layer, g.source])).toEqual([["builtin", "preset:recommended"]]);
    const preset = view.extended[0]!;
    expect(preset.examples).toEqual(preset.rules.slice(0, TRUST_GAIN_EXAMPLES).map((r) => r.match));
    expect(preset.more).toBe(preset.rules.length > TRUST_GAIN_EXAMPLES);
    // The preset's trusted-only rules count because of the approval (the file extends it): they are in `extended`.
    expect(view.trustedOnly).toHaveLength(1);
    expect(view.trustedOnly[0]).toMatchObject({
      layer: "user",
      source: "/home/me/.config/slashi/policy.json",
      examples: ["make deploy"],
      more: false,
    });
    expect(view.waitingListed).toEqual([]);
    expect(view.waiting.map((g) => [g.source, g.examples])).toEqual([["@acme/loose", ["deploy"]]]);
    expect(view.empty).toBe(false);
  });

  it("lists every approved and waiting rule one by one when verbose; trusted-only rules stay grouped", () => {
    const view = trustGainsView(gains, { verbose: true });
    expect(view.extended).toEqual([]);
    expect(view.waiting).toEqual([]);
    expect(view.listed).toEqual(gains.rules.filter((r) => r.because === "approved"));
    expect(view.waitingListed).toEqual(gains.waiting);
    expect(view.trustedOnly).toEqual(trustGainsView(gains).trustedOnly);
  });

  it("is empty when trusting adds no rule and no setting, whatever still waits", () => {
    expect(trustGainsView({ rules: [], settings: [], waiting: gains.waiting }).empty).toBe(true);
    expect(trustGainsView({ rules: [], settings: gains.settings, waiting: [] }).empty).toBe(
      gains.settings.length === 0,
    );
  });

  const kinds: PolicyLayerKind[] = ["builtin", "managed", "user", "workspace", "pack"];
  const at = fc.record({
    layer: fc.constantFrom(...kinds),
    source: fc.constantFrom("a.json", "b.json", "@acme/x"),
    jsonPath: fc.nat(9).map((n) => `/rules/${n}`),
    match: fc.string({ maxLength: 6 }),
  });
  const gained = fc.array(
    fc
      .tuple(at, fc.constantFrom("approved" as const, "trusted-workspace" as const))
      .map(([rule, because]): GainedRule => ({ ...rule, because })),
    { maxLength: 12 },
  );
  const waited = fc.array(
    at.map((rule): WaitingRule => ({ ...rule, needs: `approving ${rule.source}` })),
    { maxLength: 8 },
  );
  const flat = <R>(groups: TrustGainGroup<R & { layer: PolicyLayerKind; source: string; match: string }>[]) =>
    groups.flatMap((g) => g.rules);

  it("shows every rule exactly once, in a group only with rules of its own layer and source (generated)", () => {
    fc.assert(
      fc.property(gained, waited, fc.boolean(), (rules, waiting, verbose) => {
        const input: TrustGains = { rules, settings: [], waiting };
        const view = trustGainsView(input, { verbose });
        const shown = [...view.listed, ...flat(view.extended), ...flat(view.trustedOnly)];
        expect(new Set(shown)).toEqual(new Set(rules));
        expect(shown).toHaveLength(rules.length);
        expect(new Set([...view.waitingListed, ...flat(view.waiting)])).toEqual(new Set(waiting));
        expect(view.waitingListed.length + flat(view.waiting).length).toBe(waiting.length);
        for (const group of [...view.extended, ...view.trustedOnly, ...view.waiting]) {
          expect(group.rules.every((r) => r.layer === group.layer && r.source === group.source)).toBe(true);
          expect(group.examples).toEqual(group.rules.slice(0, TRUST_GAIN_EXAMPLES).map((r) => r.match));
          expect(group.more).toBe(group.rules.length > TRUST_GAIN_EXAMPLES);
        }
        for (const group of [...view.extended, ...view.waiting])
          expect(verbose || group.layer === "workspace").toBe(false);
        expect(view.listed.every((r) => r.because === "approved")).toBe(true);
        expect(flat(view.trustedOnly).every((r) => r.because === "trusted-workspace")).toBe(true);
        expect(view.empty).toBe(rules.length === 0);
      }),
    );
  });
});
