import { approvalStateOf, makeApprovalRecord } from "@slashi/core";
import { describe, expect, it } from "vitest";
import { buildCatalog } from "./catalog.js";
import { formatApprovalPrompt, promptCommand } from "./prompt.js";

describe("approval prompt", () => {
  const catalog = buildCatalog({
    trusted: true,
    folders: [
      {
        path: "/w",
        key: "/w",
        teamFile: {
          path: "/w/.vscode/slashi.json",
          text: JSON.stringify({
            commands: [
              {
                name: "ship",
                steps: [
                  { type: "notify", message: "go" },
                  { type: "terminal", command: "npm test\u200b && git push" },
                ],
              },
            ],
          }),
        },
      },
    ],
  });
  const entry = catalog.entries[0]!;

  it("lists only the steps that need approval, numbered, with invisible characters shown", () => {
    const c = promptCommand(entry, { state: "new" });
    expect(c.steps).toEqual(["2. Terminal: npm test⟨U+200B⟩ && git push"]);
    expect(c.harmless).toBe(1);
  });

  it("offers Always Allow only when it can be remembered and says a changed command changed", () => {
    const text = formatApprovalPrompt({
      root: "ship",
      commands: [
        { ...promptCommand(entry, { state: "new" }), status: "changed", changes: ["step 2 changed: x"] },
      ],
      canRemember: false,
      notes: [],
    });
    expect(text.message).toContain("changed since you approved it");
    expect(text.detail).toContain("step 2 changed: x");
    expect(text.detail).toContain("Always Allow is not offered");
  });

  it("says a command of an updated pack was updated, with each changed step old and new", () => {
    const old = makeApprovalRecord(
      { name: "ship", steps: [{ type: "terminal", command: "npm test" }] },
      { source: "pack", name: "ship", packId: "@acme/p", packVersion: "1.0.0" },
      { now: () => 0 },
    );
    const state = approvalStateOf(
      entry.definition,
      { source: "pack", name: "ship", packId: "@acme/p", packVersion: "1.1.0" },
      [old],
    );
    const c = promptCommand(entry, state);
    expect(c).toMatchObject({ status: "changed", updatedFrom: "1.0.0" });
    expect(c.changes).toContain("step 2 added: Terminal: npm test⟨U+200B⟩ && git push");
    const text = formatApprovalPrompt({ root: "ship", commands: [c], canRemember: true, notes: [] });
    expect(text.message).toContain("updated pack");
    expect(text.detail).toContain("Updated from version 1.0.0");
  });
});
