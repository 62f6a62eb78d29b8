import { compareCommands, describePack, type UpdatePlan } from "@slashi/registry-client";
import { describe, expect, it } from "vitest";
import { describeForPrompt, planText } from "./packs.js";

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

describe("planText", () => {
  const version = (command: string, v: string) =>
    describePack(
      {
        commands: [
          {
            name: "status",
            steps: [
              { type: "notify", message: "hi" },
              { type: "terminal", command },
            ],
          },
        ],
      },
      { name: "@acme/pack", version: v, integrity: `sha512-${v}` },
    );

  it("shows each changed step of an update, old and new, as slashi pack update prints it", () => {
    const changes = compareCommands(version("git status --short", "1.0.0"), version("git status", "1.1.0"));
    const plan: UpdatePlan = {
      name: "@acme/pack",
      from: "1.0.0",
      to: "1.1.0",
      changes,
      policyChanged: false,
      needsConfirmation: true,
    };
    const lines = planText(plan).split("\n");
    expect(lines[0]).toBe("/status: changed (needs approval again)");
    expect(lines[1]).toBe("  step 2 changed: Terminal: git status (was: Terminal: git status --short)");
    expect(lines.at(-1)).toMatch(/asks for your approval again/);
  });
});
