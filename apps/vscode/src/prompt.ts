/**
 * What the approval modal says: the runtime's prompt data (`ApprovalPrompt`, `TerminalPrompt`: the steps that need
 * approval in plain words, unexpanded, with invisible and look-alike characters shown as tokens; for a command that
 * changed since the person approved it, which steps changed) as the text of VS Code's modal message box.
 */
import { makeVisible, showControls } from "@slashi/core";
import {
  promptCommand as runtimePromptCommand,
  type ApprovalPrompt,
  type PromptCommand,
  type StoredApprovalState,
  type TerminalPrompt,
} from "@slashi/runtime";
import { sourceLabel, type CommandEntry } from "./catalog.js";

/** Builds the prompt entry for one command in its approval state (the runtime's `promptCommand`, labelled). */
export function promptCommand(entry: CommandEntry, state: StoredApprovalState): PromptCommand {
  return runtimePromptCommand(entry.definition, state, `${sourceLabel(entry)}: ${makeVisible(entry.label)}`);
}

/** The modal's message (one line) and detail (the rest), as VS Code's modal message box shows them. */
export function formatApprovalPrompt(prompt: ApprovalPrompt): { message: string; detail: string } {
  const changed = prompt.commands.some((c) => c.status === "changed");
  const updated = prompt.commands.some((c) => c.updatedFrom !== undefined);
  const message = updated
    ? `/${makeVisible(prompt.root)} comes from an updated pack and changed since you approved it. Run it?`
    : changed
      ? `/${makeVisible(prompt.root)} changed since you approved it. Run it?`
      : `/${makeVisible(prompt.root)} is a shared command. Run it?`;
  const blocks = prompt.commands.map((c) => {
    const lines = [`/${makeVisible(c.name)} (${c.from})`];
    if (c.repositoryNote !== undefined) lines.push(`Not approved here: ${c.repositoryNote}.`);
    if (c.status === "changed") {
      lines.push(
        c.updatedFrom === undefined
          ? "Changed since you approved it:"
          : `Updated from version ${makeVisible(c.updatedFrom)}, which you approved; changed since:`,
      );
      lines.push(...c.changes.map((l) => `  ${l}`));
      lines.push("Steps now:");
    }
    lines.push(...c.steps.map((s) => `  ${s}`));
    if (c.harmless > 0)
      lines.push(`  (+${c.harmless} step(s) that need no approval: insert, notify, input, wait)`);
    return lines.join("\n");
  });
  const tail = [
    ...prompt.notes.map(showControls),
    prompt.canRemember
      ? "Always Allow remembers this exact text: any change asks again."
      : "Always Allow is not offered for this command.",
  ];
  return { message, detail: [...blocks, ...tail].join("\n\n") };
}

/** The modal text for a terminal command the policy asks about. */
export function formatTerminalPrompt(prompt: TerminalPrompt): { message: string; detail: string } {
  return {
    message: `/${makeVisible(prompt.command)} wants to run a command that needs your confirmation.`,
    detail: [
      `Step: ${prompt.step}`,
      `Command line: ${prompt.commandLine}`,
      "Why it asks:",
      ...prompt.reasons.map((r) => `  ${r}`),
      ...(prompt.canRemember || prompt.cannotRemember === undefined
        ? []
        : [`Always Allow is not offered: ${prompt.cannotRemember}`]),
    ].join("\n"),
  };
}
