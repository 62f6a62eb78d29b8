import { catchError } from "@slashi/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isSlashiError } from "../errors.js";
import type { ShellAnalysis } from "../shell/types.js";
import type { ClassifyFn } from "./deps.js";
import { evaluateAnalysis } from "./evaluate.js";
import { DEFAULT_RESTRICTED_TERMS, reloadPolicy, resolvePolicy } from "./resolve.js";
import type { PolicyDocument, PolicyLayer, ResolvedPolicy, Verdict } from "./types.js";

const noFindings: ClassifyFn = () => [];

/** Decides a whitespace-split single command against a policy. */
function verdict(policy: ResolvedPolicy, line: string): Verdict {
  const argv = line.split(" ");
  const analysis: ShellAnalysis = {
    language: "bash",
    findings: [],
    incomplete: false,
    commands: [
      {
        text: line,
        argv,
        effective: argv,
        dynamic: [],
        assignments: [],
        redirects: [],
        wrappers: [],
        staticProgram: true,
        context: [],
        lookupOnly: false,
      },
    ],
  };
  return evaluateAnalysis(line, analysis, policy, { context: {}, classify: noFindings }).decision;
}

const layer = (
  kind: PolicyLayer["kind"],
  doc: Omit<PolicyDocument, "version">,
  approved?: boolean,
): PolicyLayer => ({
  kind,
  source: `${kind}.json`,
  document: { version: 1, ...doc },
  ...(approved === undefined ? {} : { approved }),
});

describe("layering", () => {
  it("ignores workspace allow rules until the workspace file is approved", () => {
    const ws = { rules: [{ match: ["make"], decision: "allow" as const }] };
    const unapproved = resolvePolicy([layer("workspace", ws)], { defaultPreset: null });
    expect(verdict(unapproved, "make build")).toBe("ask");
    expect(unapproved.notes.join("\n")).toMatch(/1 allow rule\(s\) ignored/);
    expect(unapproved.rules[0]?.inactive).toBe("unapproved");
    const approved = resolvePolicy([layer("workspace", ws, true)], { defaultPreset: null });
    expect(verdict(approved, "make build")).toBe("allow");
  });

  it("ignores pack allow rules and approvedCommands until the pack is approved", () => {
    const pack: PolicyLayer = {
      kind: "pack",
      source: "@acme/policy",
      document: { version: 1, approvedCommands: ["deploy"] },
    };
    const userDoc = layer("user", { extends: ["@acme/policy"] });
    expect(verdict(resolvePolicy([userDoc, pack]), "deploy now")).not.toBe("allow");
    expect(verdict(resolvePolicy([userDoc, { ...pack, approved: true }]), "deploy now")).toBe("allow");
  });

  it("applies workspace deny and ask rules without approval, against a user allow", () => {
    const policy = resolvePolicy([
      layer("user", { rules: [{ match: ["git"], decision: "allow" }] }),
      layer("workspace", {
        rules: [
          { match: ["git", "push"], decision: "deny" },
          { match: ["git", "tag"], decision: "ask" },
        ],
      }),
    ]);
    expect(verdict(policy, "git status")).toBe("allow");
    expect(verdict(policy, "git push")).toBe("deny");
    expect(verdict(policy, "git tag v1")).toBe("ask");
  });

  it("does not let a user allow loosen a managed ask or deny", () => {
    const policy = resolvePolicy([
      layer("managed", {
        rules: [
          { match: ["curl"], decision: "ask" },
          { match: ["ssh"], decision: "deny" },
        ],
      }),
      layer("user", {
        rules: [
          { match: ["curl"], decision: "allow" },
          { match: ["ssh", "host", "$"], decision: "allow" },
        ],
      }),
    ]);
    expect(verdict(policy, "curl example.com")).toBe("ask");
    expect(verdict(policy, "ssh host")).toBe("deny");
  });

  it("lets a user ask tighten a managed allow", () => {
    const policy = resolvePolicy([
      layer("managed", { rules: [{ match: ["docker"], decision: "allow" }] }),
      layer("user", { rules: [{ match: ["docker", "run"], decision: "ask" }] }),
    ]);
    expect(verdict(policy, "docker ps")).toBe("allow");
    expect(verdict(policy, "docker run x")).toBe("ask");
  });

  it("orders layers managed, user, workspace, pack, builtin whatever order they are given in", () => {
    const policy = resolvePolicy([
      { kind: "pack", source: "p", document: { version: 1 } },
      layer("workspace", {}),
      layer("managed", {}),
      layer("user", { extends: ["recommended", "p"] }),
    ]);
    expect(policy.layers.map((l) => l.kind)).toEqual(["managed", "user", "workspace", "pack", "builtin"]);
    expect(policy.layers.map((l) => l.trusted)).toEqual([true, true, false, false, true]);
  });

  it("applies the recommended preset when there is no user layer, and only through extends otherwise", () => {
    expect(verdict(resolvePolicy([]), "ls -la")).toBe("allow");
    expect(verdict(resolvePolicy([layer("workspace", {})]), "ls -la")).toBe("allow");
    expect(verdict(resolvePolicy([layer("user", {})]), "ls -la")).toBe("ask");
    expect(verdict(resolvePolicy([layer("user", { extends: ["recommended"] })]), "ls -la")).toBe("allow");
    expect(verdict(resolvePolicy([], { defaultPreset: null }), "ls -la")).toBe("ask");
  });

  it("lets an unapproved workspace file extend recommended only for its ask and deny rules", () => {
    const user = layer("user", { rules: [{ match: ["git", "status"], decision: "allow" }] });
    const ws = layer("workspace", { extends: ["recommended"] });
    const unapproved = resolvePolicy([user, ws]);
    expect(verdict(unapproved, "ls -la")).toBe("ask");
    expect(unapproved.layers.find((l) => l.source === "preset:recommended")?.trusted).toBe(false);
    expect(unapproved.notes.join("\n")).toMatch(
      /ignored until workspace\.json is approved, which extends it/,
    );
    expect(unapproved.rules.find((r) => r.layer === "builtin")?.pendingApproval).toEqual(["workspace.json"]);
    expect(verdict(resolvePolicy([user, { ...ws, approved: true }]), "ls -la")).toBe("allow");
    // the person's own extends (or the default preset) still counts, whoever else extends it
    expect(
      verdict(
        resolvePolicy([{ ...user, document: { ...user.document, extends: ["recommended"] } }, ws]),
        "ls -la",
      ),
    ).toBe("allow");
    expect(verdict(resolvePolicy([ws]), "ls -la")).toBe("allow");
  });

  it("keeps an approved pack from loosening when only an unapproved workspace file extends it", () => {
    const pack: PolicyLayer = {
      kind: "pack",
      source: "@acme/policy",
      document: { version: 1, rules: [{ match: ["deploy"], decision: "allow" }] },
      approved: true,
    };
    const user = layer("user", {});
    const ws = layer("workspace", { extends: ["@acme/policy"] });
    expect(verdict(resolvePolicy([user, ws, pack]), "deploy now")).toBe("ask");
    expect(verdict(resolvePolicy([user, { ...ws, approved: true }, pack]), "deploy now")).toBe("allow");
    expect(
      verdict(resolvePolicy([layer("user", { extends: ["@acme/policy"] }), ws, pack]), "deploy now"),
    ).toBe("allow");
    // a pack the unapproved file reaches through another pack is held back too, even in a cycle
    const inner: PolicyLayer = {
      ...pack,
      source: "@acme/inner",
      document: { version: 1, extends: ["@acme/policy"] },
    };
    const cyclic: PolicyLayer = {
      ...pack,
      document: { ...pack.document, extends: ["@acme/inner", "recommended"] },
    };
    const viaInner = resolvePolicy([user, layer("workspace", { extends: ["@acme/inner"] }), inner, cyclic]);
    expect(verdict(viaInner, "deploy now")).toBe("ask");
    expect(verdict(viaInner, "ls -la")).toBe("ask");
  });

  it("never turns the person's verdict looser through any unapproved workspace layer (generated)", () => {
    const verdicts = ["allow", "ask", "deny"] as const;
    const programs = ["ls", "deploy", "make", "git", "rm", "cat"];
    const rule = fc.record({
      match: fc.tuple(fc.constantFrom(...programs, "*")).map((t) => [...t]),
      decision: fc.constantFrom(...verdicts),
    });
    const doc = (packNames: readonly string[]) =>
      fc.record({
        extends: fc.subarray(["recommended", ...packNames]),
        rules: fc.array(rule, { maxLength: 3 }),
        approvedCommands: fc.subarray(programs),
        allowedCommands: fc.option(fc.subarray(programs), { nil: undefined }),
      });
    const packNames = ["@p/a", "@p/b"];
    fc.assert(
      fc.property(
        fc.record({
          user: doc([]),
          workspace: doc(packNames),
          packs: fc.tuple(doc(packNames), doc(packNames)),
          approvedPacks: fc.tuple(fc.boolean(), fc.boolean()),
          line: fc.constantFrom(...programs.map((p) => `${p} x`)),
        }),
        ({ user, workspace, packs, approvedPacks, line }) => {
          const userLayer: PolicyLayer = {
            kind: "user",
            source: "user.json",
            document: { version: 1, ...user },
          };
          const base = resolvePolicy([userLayer]);
          const withRepo = resolvePolicy([
            userLayer,
            { kind: "workspace", source: "ws.json", document: { version: 1, ...workspace } },
            ...packNames.map((name, i) => ({
              kind: "pack" as const,
              source: name,
              document: { version: 1 as const, ...packs[i] },
              approved: approvedPacks[i],
            })),
          ]);
          const rank = { allow: 0, ask: 1, deny: 2 };
          expect(rank[verdict(withRepo, line)]).toBeGreaterThanOrEqual(rank[verdict(base, line)]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("refuses an extends name that is neither a preset nor a loaded pack", () => {
    const error = catchError(
      () => resolvePolicy([layer("user", { extends: ["recommended", "@acme/missing"] })]),
      isSlashiError,
    );
    expect(error).toMatchObject({
      code: "PACK_NOT_FOUND",
      data: { file: "user.json", jsonPath: "/extends/1", extends: "@acme/missing" },
    });
  });

  it("suggests the preset or loaded pack an extends name is a typo of", () => {
    const attempt = (layers: PolicyLayer[]): unknown => {
      try {
        return resolvePolicy(layers);
      } catch (e) {
        return e;
      }
    };
    expect(attempt([layer("user", { extends: ["recommnded"] })])).toMatchObject({
      code: "PACK_NOT_FOUND",
      data: { suggestion: "recommended", jsonPath: "/extends/0" },
    });
    const pack: PolicyLayer = { kind: "pack", source: "@acme/policy", document: { version: 1 } };
    expect(attempt([layer("user", { extends: ["@acme/polcy"] }), pack])).toMatchObject({
      data: { suggestion: "@acme/policy" },
    });
  });

  it("refuses a zero-token rule in a document built in code", () => {
    expect(() => resolvePolicy([layer("user", { rules: [{ match: [], decision: "allow" }] })])).toThrow(
      /no tokens/,
    );
  });
});

describe("settings merge", () => {
  it("turns network on only from a trusted layer, and any false wins", () => {
    expect(resolvePolicy([layer("user", { allowNetwork: true })]).allowNetwork).toBe(true);
    expect(resolvePolicy([layer("workspace", { allowNetwork: true })]).allowNetwork).toBe(false);
    expect(resolvePolicy([layer("workspace", { allowNetwork: true }, true)]).allowNetwork).toBe(true);
    expect(
      resolvePolicy([layer("user", { allowNetwork: true }), layer("pack", { allowNetwork: false })])
        .allowNetwork,
    ).toBe(false);
    expect(
      resolvePolicy([layer("managed", { allowNetwork: false }), layer("user", { allowNetwork: true })])
        .allowNetwork,
    ).toBe(false);
  });

  it("leaves allowWorkspaceWrites undefined when no layer says, and defaults skipConfirmInCordon to false", () => {
    const policy = resolvePolicy([]);
    expect(policy.allowWorkspaceWrites).toBeUndefined();
    expect(policy.skipConfirmInCordon).toBe(false);
    expect(resolvePolicy([layer("user", { allowWorkspaceWrites: true })]).allowWorkspaceWrites).toBe(true);
    expect(resolvePolicy([layer("workspace", { skipConfirmInCordon: true })]).skipConfirmInCordon).toBe(
      false,
    );
  });

  it("takes network grants only from trusted layers", () => {
    const policy = resolvePolicy([
      layer("user", { allowNetwork: true, networkAllowedCommands: ["npm install"] }),
      layer("workspace", { networkAllowedCommands: ["curl"] }),
    ]);
    expect(policy.networkAllowedCommands).toEqual([["npm", "install"]]);
    expect(resolvePolicy([layer("user", { allowNetwork: true })]).networkAllowedCommands).toBeUndefined();
  });

  it("adds the default restricted terms once any layer uses an Enkaidu list", () => {
    expect(resolvePolicy([]).restrictedTerms).toEqual([]);
    const terms = resolvePolicy([layer("user", { restrictedTerms: ["deploy"] })]).restrictedTerms.map(
      (t) => t.text,
    );
    expect(terms).toEqual(["deploy", ...DEFAULT_RESTRICTED_TERMS]);
  });
});

describe("reloading", () => {
  it("keeps the previous policy and reports the error when any input fails", () => {
    const previous = resolvePolicy([layer("user", { rules: [{ match: ["ls"], decision: "allow" }] })]);
    const result = reloadPolicy(previous, [
      { kind: "user", source: "user.json", text: '{ "version": 1, "rules": [] }' },
      { kind: "workspace", source: "ws.json", text: '{ "version": 2 }' },
    ]);
    expect(result.policy).toBe(previous);
    expect(result.error?.code).toBe("SCHEMA_INVALID");
  });

  it("swaps in the new policy when every input parses", () => {
    const previous = resolvePolicy([]);
    const result = reloadPolicy(previous, [
      {
        kind: "user",
        source: "user.json",
        text: '{ "version": 1, "rules": [{ "match": ["make"], "decision": "allow" }] }',
      },
    ]);
    expect(result.error).toBeUndefined();
    expect(verdict(result.policy, "make")).toBe("allow");
  });
});
