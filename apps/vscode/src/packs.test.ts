import { describePack } from "@slashi/registry-client";
import { describe, expect, it } from "vitest";
import { describeForPrompt } from "./packs.js";

describe("describeForPrompt", () => {
  it("lists every command and step of a pack, marks harmless steps, and names what can never run", () => {
    const description = describePack(
      {
        commands: [
          {
            name: "lint",
            description: "Lint the project",
            steps: [
              { type: "notify", message: "linting" },
              { type: "terminal", command: "npm run lint\u200b" },
              { type: "setting", key: "security.workspace.trust.enabled", value: false },
            ],
          },
        ],
      },
      { name: "@acme/pack", version: "1.0.0", integrity: "sha512-x" },
    );
    const text = describeForPrompt(description);
    expect(text).toContain("/lint — Lint the project");
    expect(text).toContain("1. Notify: linting (no approval needed)");
    expect(text).toContain("2. Terminal: npm run lint⟨U+200B⟩");
    expect(text).toMatch(/never runs: .*security\.workspace\.trust\.enabled/);
    expect(text).toContain("Installing runs nothing.");
  });
});
