// Every area of the conformance suite must be driven by a harness in this folder: an unmapped area fails loudly.
import { existsSync } from "node:fs";
import { listAreas } from "@slashi/conformance";
import { describe, expect, it } from "vitest";

/** Area folder → the harness files in this folder that run its cases. */
const harnesses: Record<string, string[]> = {
  enkaidu: ["enkaidu.test.ts"],
  expansion: ["expansion.test.ts"],
  fingerprint: ["fingerprint.test.ts"],
  oracle: ["oracle.test.ts"],
  policy: ["decide.test.ts"],
  quoting: ["quoting.test.ts"],
  shell: ["shell-extraction.test.ts", "decide.test.ts"],
  steps: ["steps.test.ts"],
};

describe("conformance areas", () => {
  it("maps every area of the suite to a harness", () => {
    expect(listAreas().filter((area) => !(area in harnesses))).toEqual([]);
  });

  for (const [area, files] of Object.entries(harnesses)) {
    it(`runs the ${area} cases through ${files.join(" and ")}`, () => {
      const missing = files.filter((f) => !existsSync(new URL(`./${f}`, import.meta.url)));
      expect(missing).toEqual([]);
    });
  }
});
