import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { hostileText, rawControls } from "@slashi/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CONFIRM_SCHEMA } from "./confirm.js";
import { visibleElicitation, visibleInstructions } from "./visible.js";

describe("visibleElicitation", () => {
  it("leaves nothing raw in the form's message, titles or descriptions (generated)", () => {
    fc.assert(
      fc.property(hostileText(), hostileText(), (message, title) => {
        const form = visibleElicitation({
          message,
          requestedSchema: {
            ...CONFIRM_SCHEMA,
            title,
            properties: { run: { ...CONFIRM_SCHEMA.properties.run, title, description: title } },
          },
        });
        const field = form.requestedSchema.properties.run;
        for (const text of [form.message, form.requestedSchema.title, field.title, field.description])
          expect(rawControls(text.replace(/\n/g, ""))).toEqual([]);
        expect(form.requestedSchema.required).toEqual(CONFIRM_SCHEMA.required);
      }),
    );
    expect(visibleInstructions("a\u202eb")).toBe("a⟨U+202E⟩b");
  });
});

// Output a client shows (tool results, titles, descriptions, forms, instructions) is built in a few places; this
// reads the server's source so that a new one cannot bypass the visible helpers.
describe("every text the server sends goes through the visible helpers", () => {
  const dir = path.dirname(fileURLToPath(import.meta.url));
  const sources = readdirSync(dir)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .map((f) => ({ file: f, text: readFileSync(path.join(dir, f), "utf8") }));
  const calls = (pattern: RegExp): { file: string; after: string }[] =>
    sources.flatMap(({ file, text }) =>
      [...text.matchAll(pattern)].map((m) => ({
        file,
        after: text.slice((m.index ?? 0) + m[0].length).trimStart(),
      })),
    );

  it("builds every form with visibleElicitation", () => {
    const forms = calls(/\b(?:elicitInput|inputRequired\.elicit)\(/g);
    expect(forms.length).toBeGreaterThanOrEqual(2);
    for (const { file, after } of forms) expect(after.startsWith("visibleElicitation("), file).toBe(true);
  });

  it("registers tools only on a server wrapped by visibleTools, with visible instructions", () => {
    const servers = calls(/new McpServer\(/g);
    expect(servers.length).toBe(1);
    for (const { file, text } of sources) {
      if (text.includes("new McpServer(")) expect(text, file).toMatch(/visibleTools\(\s*new McpServer\(/);
      for (const m of text.matchAll(/\binstructions:\s*([^,\n]+)/g))
        expect(m[1]?.startsWith("visibleInstructions("), file).toBe(true);
      for (const m of text.matchAll(/\.server\.(?:elicitInput|createMessage|sendLoggingMessage)\(/g))
        expect.fail(`${file} sends ${m[0]} around the visible helpers`);
    }
  });
});
