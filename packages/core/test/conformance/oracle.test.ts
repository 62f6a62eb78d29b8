// Runs the cases of the conformance area `oracle` through decide(): lines the execution oracle (packages/oracle)
// saw do harm although the core allowed them. Input: { command, shell? } (the shell that runs it, bash when
// absent), decided like a shell case with no policy (the recommended preset, the default home and trusted
// workspace). Expected: { never: "allow" }: ask or deny passes.
// oracle.expected-failures.json lists the cases the core still allows; it may only shrink.
import { readFileSync } from "node:fs";
import { compareWithBaseline, loadCases, type ConformanceCase } from "@slashi/conformance";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decide, loadShellParser, type Verdict } from "../../src/index.js";
import { recommendedPolicy, trustedContext } from "../decide-setup.js";

/** Input: the line, and the shell that runs it (`sh` is `/bin/sh`; bash when absent). */
type OracleInput = { command: string; shell?: "bash" | "sh" | "zsh" };
type OracleCase = ConformanceCase<OracleInput, { never: Verdict }>;

const SHELLS = { bash: "bash", sh: "/bin/sh", zsh: "/usr/bin/zsh" } as const;

const HOME = "/home/dev";
const WORKSPACE_ROOT = `${HOME}/project`;
const cases = loadCases<OracleInput, { never: Verdict }>("oracle");
const expectedFailures = JSON.parse(
  readFileSync(new URL("./oracle.expected-failures.json", import.meta.url), "utf8"),
) as string[];
const failed: string[] = [];
const policy = recommendedPolicy();

function verdict(c: OracleCase): Verdict {
  return decide(
    c.input.command,
    policy,
    trustedContext({
      workspace: WORKSPACE_ROOT,
      home: HOME,
      shell: SHELLS[c.input.shell ?? "bash"],
      protectedPaths: [`${HOME}/.config/slashi`],
    }),
  ).decision;
}

describe("oracle conformance (lines the execution oracle caught)", () => {
  beforeAll(async () => {
    await loadShellParser();
  });

  it("lists only ids of this area as expected failures", () => {
    const ids = new Set(cases.map((c) => c.id));
    expect(expectedFailures.filter((id) => !ids.has(id))).toEqual([]);
  });

  for (const c of cases) {
    it(`${c.id}: ${c.description}`, () => {
      const decision = verdict(c);
      if (decision === c.expected.never) failed.push(c.id);
      if (expectedFailures.includes(c.id)) return;
      expect(decision).not.toBe(c.expected.never);
    });
  }

  afterAll(() => {
    expect(compareWithBaseline(failed, expectedFailures)).toEqual([]);
  });
});
