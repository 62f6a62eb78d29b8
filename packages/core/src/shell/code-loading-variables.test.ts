import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { decide } from "../policy/decide.js";
import { resolvePolicy } from "../policy/resolve.js";
import { CODE_LOADING_VARIABLES, codeLoadingVariable } from "./code-loading-variables.js";
import { isDangerousVariable } from "./env-vars.js";
import { loadShellParser } from "./parser.js";

beforeAll(() => loadShellParser());

/** A name each entry covers: the name itself, a name under a prefix, npm's variables in either case. */
const covered = fc.constantFrom(...CODE_LOADING_VARIABLES).chain((entry) =>
  entry.name.endsWith("*")
    ? fc.stringMatching(/^[A-Z0-9_]{0,8}$/).map((tail) => ({ entry, name: entry.name.slice(0, -1) + tail }))
    : fc.constantFrom(entry.name, entry.name.toUpperCase()).map((name) => ({
        entry,
        name: entry.name.startsWith("npm_config_") ? name : entry.name,
      })),
);

describe("CODE_LOADING_VARIABLES", () => {
  it("finds the entry of every name it covers, and the analysis counts each as state poisoning", () => {
    const policy = resolvePolicy([]);
    fc.assert(
      fc.property(covered, ({ entry, name }) => {
        expect(codeLoadingVariable(name)).toBe(entry);
        expect(isDangerousVariable(name)).toBe(true);
        const decision = decide(`export ${name}=x`, policy, { cwd: "/tmp" });
        expect(decision.reasons.map((r) => r.code)).toContain("shell.env-poison");
      }),
      { numRuns: 200 },
    );
  });

  it("names the program whose options it reads, and the startup file of a startup folder", () => {
    for (const entry of CODE_LOADING_VARIABLES)
      if (entry.value === "options" || entry.value === "startup-dir")
        expect(entry.of, entry.name).toBeTruthy();
  });

  it.each(["PATH", "CI", "NODE_ENV", "npm_config_registry", "LD_BIND_NOW", "path"])(
    "does not list %s",
    (name) => {
      expect(codeLoadingVariable(name)).toBeUndefined();
    },
  );
});
