import { hostileText, rawControls } from "@slashi/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { visibleWindow, type PrintWindow } from "./visible-window.js";

/** Every string in `value`, however deep. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value !== "object" || value === null) return [];
  return Object.values(value).flatMap(strings);
}

/**
 * A window that records every argument its print functions get and every line and field its output channel,
 * quick pick and progress get; its pickers answer with the first item they were shown.
 */
function recordingWindow(): PrintWindow & { seen: unknown[] } {
  const seen: unknown[] = [];
  const record =
    (answer: (args: unknown[]) => unknown) =>
    (...args: unknown[]) => {
      seen.push(args.filter((a) => typeof a !== "function"));
      return answer(args);
    };
  const recorder = (): Record<string, unknown> =>
    new Proxy({} as Record<string, unknown>, {
      set(target, property, value) {
        seen.push(value);
        target[property as string] = value;
        return true;
      },
    });
  return {
    seen,
    showInformationMessage: record((args) => Promise.resolve(args[1])),
    showWarningMessage: record((args) => Promise.resolve(args[args.length - 1])),
    showErrorMessage: record(() => Promise.resolve(undefined)),
    showQuickPick: record((args) => Promise.resolve((args[0] as unknown[])[0])),
    showInputBox: record(() => Promise.resolve("typed")),
    createQuickPick: record(() => recorder()),
    createOutputChannel: record(() => ({
      appendLine: (line: string) => seen.push(line),
      append: (text: string) => seen.push(text),
      replace: (text: string) => seen.push(text),
    })),
    createTerminal: record(() => ({ name: "terminal" })),
    withProgress: record((args) =>
      (args[1] as (p: { report: (v: unknown) => void }) => unknown)({ report: (v) => seen.push(v) }),
    ),
  } as unknown as PrintWindow & { seen: unknown[] };
}

describe("visibleWindow", () => {
  it("shows control characters in every print function's text, and answers with the caller's own item", async () => {
    await fc.assert(
      fc.asyncProperty(hostileText(), hostileText(), hostileText(), async (a, b, c) => {
        const raw = recordingWindow();
        const window = visibleWindow(raw) as unknown as Record<
          keyof PrintWindow,
          (...args: unknown[]) => unknown
        >;
        const first = { label: a, description: b, detail: c, name: a };
        expect(await window.showInformationMessage(a, b, c)).toBe(b);
        expect(await window.showWarningMessage(a, { modal: true, detail: b }, c)).toBe(c);
        const item = { title: a };
        expect(await window.showWarningMessage(b, item)).toBe(item);
        await window.showErrorMessage(c);
        expect(await window.showQuickPick([first, { label: b }], { title: c, placeHolder: a })).toBe(first);
        expect(await window.showQuickPick(Promise.resolve([a, b]), { title: c })).toBe(a);
        await window.showInputBox({ title: a, prompt: b, placeHolder: c });
        const pick = window.createQuickPick() as { title: string; placeholder: string; items: unknown[] };
        pick.title = a;
        pick.placeholder = b;
        pick.items = [first];
        expect(pick.items[0]).toBe(first);
        const channel = window.createOutputChannel(a) as Record<string, (text: string) => void>;
        channel.appendLine?.(b);
        channel.append?.(c);
        channel.replace?.(a);
        window.createTerminal({ name: a, cwd: "/" });
        await window.withProgress({ title: b }, (progress: { report: (v: unknown) => void }) => {
          progress.report({ message: c });
          return Promise.resolve();
        });
        const texts = strings(raw.seen);
        for (const text of texts) expect(rawControls(text), text).toEqual([]);
        expect(texts.join("")).toContain("⟨U+");
      }),
      { numRuns: 60 },
    );
  });
});
