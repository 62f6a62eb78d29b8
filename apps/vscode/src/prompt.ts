/**
 * What the approval modal says, built from core's renderings: the steps that need approval in plain words,
 * unexpanded, with invisible and look-alike characters shown as tokens; for a command that changed since the
 * person approved it, which steps changed. Pure data and text; the extension shows it in a modal.
 */
import {
  describeCommandChanges,
  makeVisible,
  renderStep,
  showControls,
  stepNeedsApproval,
} from "@slashi/core";
import { repositoryMismatchNote, type StoredApprovalState } from "@slashi/runtime";
import { sourceLabel, type CommandEntry } from "./catalog.js";

/** One command in an approval prompt. */
export interface PromptCommand {
  /** Name without `/`. */
  name: string;
  /** Where it was written (`team`, `pack @acme/x@1.0.0`, …) and the file or label. */
  from: string;
  /** `new`: never approved; `changed`: approved before in another form; `approved`: approved in this form. */
  status: "new" | "changed" | "approved";
  /** The steps that need approval, numbered as in the command, rendered unexpanded and made visible. */
  steps: string[];
  /** How many steps need no approval (insert, notify, input, wait). */
  harmless: number;
  /** For a changed command: what changed, one line each. */
  changes: string[];
  /** For a pack command approved only in an earlier version of its pack: that version. */
  updatedFrom?: string;
  /** For a team command approved only in another repository at this path: why that approval is not used. */
  repositoryNote?: string;
}

/** An approval prompt. */
export interface ApprovalPrompt {
  /** The command the person ran. */
  root: string;
  /** Commands to approve: the root and every callee not approved in its current form. */
  commands: PromptCommand[];
  /** Whether Always Allow is offered (not when a callee is chosen at run time). */
  canRemember: boolean;
  /** Extra sentences (calls chosen at run time, why Always Allow is missing). */
  notes: string[];
  /** Why the command is not covered by earlier approvals: each command and reason, with its call chain. */
  uncovered?: { name: string; reason: string; path: string[] }[];
}

/** A terminal command the policy wants a person to confirm (for commands not approved by fingerprint). */
export interface TerminalPrompt {
  /** Command name. */
  command: string;
  /** The step, rendered unexpanded. */
  step: string;
  /** The expanded command line, made visible. */
  commandLine: string;
  /** The policy's reasons, one line each. */
  reasons: string[];
  /**
   * Whether "Always Allow" may be offered: the runtime can bind this exact argv, directory and the content it
   * runs, so every host (CLI, hooks, MCP, the extension) answers the same line there without asking again.
   */
  canRemember: boolean;
  /** Why "Always Allow" is not offered, when it is not. */
  cannotRemember?: string;
}

/** Builds the prompt entry for one command in its approval state. */
export function promptCommand(entry: CommandEntry, state: StoredApprovalState): PromptCommand {
  const steps: string[] = [];
  let harmless = 0;
  entry.definition.steps.forEach((step, i) => {
    if (stepNeedsApproval(step)) steps.push(`${i + 1}. ${renderStep(step)}`);
    else harmless++;
  });
  return {
    name: entry.name,
    from: `${sourceLabel(entry)}: ${makeVisible(entry.label)}`,
    status: state.state,
    steps,
    harmless,
    changes: state.state === "changed" ? describeCommandChanges(state.changes) : [],
    ...(state.state === "changed" && state.updatedFrom !== undefined
      ? { updatedFrom: state.updatedFrom }
      : {}),
    ...(state.repository === undefined ? {} : { repositoryNote: repositoryMismatchNote(state.repository) }),
  };
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
