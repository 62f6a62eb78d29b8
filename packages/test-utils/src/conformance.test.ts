import { loadCases } from "@slashi/conformance";
import { describe, expect, it } from "vitest";
import { decisionCases, isExtractionCase, platformMatches } from "./conformance.js";

describe("platformMatches", () => {
  it("maps posix, windows and Node platform names", () => {
    expect(platformMatches({}, "win32")).toBe(true);
    expect(platformMatches({ platform: "posix" }, "linux")).toBe(true);
    expect(platformMatches({ platform: "posix" }, "win32")).toBe(false);
    expect(platformMatches({ platform: "windows" }, "win32")).toBe(true);
    expect(platformMatches({ platform: "windows" }, "darwin")).toBe(false);
    expect(platformMatches({ platform: "darwin" }, "darwin")).toBe(true);
    expect(platformMatches({ platform: "darwin" }, "linux")).toBe(false);
  });
});

describe("decisionCases", () => {
  it("is the shell cases without extraction plus the policy cases, for this platform", () => {
    const cases = decisionCases();
    const shell = loadCases("shell");
    const extraction = shell.filter(isExtractionCase);
    expect(extraction.length).toBeGreaterThan(0);
    expect(cases.some((c) => c.area === "policy")).toBe(true);
    expect(cases.some(isExtractionCase)).toBe(false);
    const expected = [...shell.filter((c) => !isExtractionCase(c)), ...loadCases("policy")].filter((c) =>
      platformMatches(c),
    );
    expect(cases.map((c) => c.id)).toEqual(expected.map((c) => c.id));
  });
});
