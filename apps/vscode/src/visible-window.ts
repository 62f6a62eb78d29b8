/**
 * The extension's print sinks: VS Code's window functions that put text in front of the person (notifications
 * and modals, quick picks, input boxes, progress notifications, the output channel, terminal names), with every
 * text passed through core's `showControls` on its way in. Text from a team file, a pack, a registry, a path or a
 * command line that holds C0/C1 controls, escape sequences or bidi marks shows as `⟨U+XXXX⟩` tokens, however the
 * caller built the message. The extension calls these, never `vscode.window`'s own (the lint config refuses
 * them outside this module). What the person picks or answers is the caller's own item, not the shown copy.
 */
import { showControls } from "@slashi/core";
import * as vscode from "vscode";

type Fn = (...args: never[]) => unknown;

/** The window functions this module wraps; `vscode.window` has them all. */
export interface PrintWindow {
  showInformationMessage: Fn;
  showWarningMessage: Fn;
  showErrorMessage: Fn;
  showQuickPick: Fn;
  showInputBox: Fn;
  createQuickPick: Fn;
  createOutputChannel: Fn;
  createTerminal: Fn;
  withProgress: Fn;
}

type Call = (...args: unknown[]) => unknown;

const TEXT_FIELDS = [
  "title",
  "label",
  "description",
  "detail",
  "prompt",
  "placeHolder",
  "placeholder",
  "message",
  "name",
];

/** `value` made visible: a string, or a copy of an object with its text fields made visible. */
function shown(value: unknown): unknown {
  if (typeof value === "string") return showControls(value);
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const field of TEXT_FIELDS)
    if (typeof copy[field] === "string") copy[field] = showControls(copy[field]);
  return copy;
}

/** Shown copies of `items`, and a way back from a shown copy (or several) to the caller's own item. */
function shownItems(items: readonly unknown[]): { shown: unknown[]; original: (picked: unknown) => unknown } {
  const back = new Map<unknown, unknown>();
  const copies = items.map((item) => {
    const copy = shown(item);
    back.set(copy, item);
    return copy;
  });
  const original = (picked: unknown): unknown =>
    Array.isArray(picked)
      ? picked.map((p) => (back.has(p) ? back.get(p) : p))
      : back.has(picked)
        ? back.get(picked)
        : picked;
  return { shown: copies, original };
}

/** `showInformationMessage` and its kin: the message, the options' detail and the items; the answer is the caller's item. */
function message(show: Call): Call {
  return async (text: unknown, ...rest: unknown[]) => {
    const hasOptions = typeof rest[0] === "object" && rest[0] !== null && !("title" in rest[0]);
    const options = hasOptions ? [shown(rest[0])] : [];
    const items = shownItems(hasOptions ? rest.slice(1) : rest);
    return items.original(await show(shown(text), ...options, ...items.shown));
  };
}

/** A quick pick whose title, placeholder and items are shown made visible, and that hands back the caller's items. */
function visibleQuickPick(pick: object): object {
  let items = shownItems([]);
  return new Proxy(pick, {
    set(target, property, value: unknown) {
      if (property === "items" && Array.isArray(value)) {
        items = shownItems(value);
        return Reflect.set(target, property, items.shown, target);
      }
      if ((property === "activeItems" || property === "selectedItems") && Array.isArray(value)) {
        const copies = value.map((v) => items.shown.find((s) => items.original(s) === v) ?? v);
        return Reflect.set(target, property, copies, target);
      }
      if (property === "title" || property === "placeholder")
        return Reflect.set(target, property, shown(value), target);
      return Reflect.set(target, property, value, target);
    },
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property === "items" || property === "activeItems" || property === "selectedItems")
        return items.original(value);
      return typeof value === "function" ? (value as Call).bind(target) : value;
    },
  });
}

/** An output channel whose lines are made visible. */
function visibleChannel(channel: object): object {
  return new Proxy(channel, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      const bound = (value as Call).bind(target);
      return property === "append" || property === "appendLine" || property === "replace"
        ? (text: unknown) => bound(shown(text))
        : bound;
    },
  });
}

/**
 * `window` with every print function showing control characters: the messages, their detail and items, quick
 * pick and input box texts, progress titles and reports, output channel lines and terminal names.
 */
export function visibleWindow<W extends PrintWindow>(window: W): Pick<W, keyof PrintWindow> {
  // Looked up at each call: the window's functions are the editor's, whatever they are by then.
  const call =
    (name: keyof PrintWindow): Call =>
    (...args: unknown[]) =>
      (window[name] as unknown as Call).apply(window, args);
  const wrapped: Record<keyof PrintWindow, Call> = {
    showInformationMessage: message(call("showInformationMessage")),
    showWarningMessage: message(call("showWarningMessage")),
    showErrorMessage: message(call("showErrorMessage")),
    showQuickPick: async (items: unknown, options?: unknown, ...rest: unknown[]) => {
      const list = shownItems([...((await items) as readonly unknown[])]);
      return list.original(await call("showQuickPick")(list.shown, shown(options), ...rest));
    },
    showInputBox: (options?: unknown, ...rest: unknown[]) => call("showInputBox")(shown(options), ...rest),
    createQuickPick: () => visibleQuickPick(call("createQuickPick")() as object),
    createOutputChannel: (name: unknown, ...rest: unknown[]) =>
      visibleChannel(call("createOutputChannel")(shown(name), ...rest) as object),
    createTerminal: (options: unknown, ...rest: unknown[]) => call("createTerminal")(shown(options), ...rest),
    withProgress: (options: unknown, task: unknown) =>
      call("withProgress")(shown(options), (progress: { report: Call }, ...rest: unknown[]) =>
        (task as Call)({ report: (value: unknown) => progress.report(shown(value)) }, ...rest),
      ),
  };
  return wrapped as unknown as Pick<W, keyof PrintWindow>;
}

/** VS Code's window with its print functions through {@link visibleWindow}: what the extension calls. */
export const shownWindow = visibleWindow(vscode.window);
