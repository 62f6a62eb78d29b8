/**
 * The CLI as the runtime's approver of a shared slash command: the terminal prompt, the approvals store, the audit
 * log the answer goes to, and the line a person runs on a terminal when nobody could be asked.
 */
import { describeCommandChanges, renderCommand } from "@slashi/core";
import {
  ApprovalFileStore,
  AuditLog,
  fromWhere,
  howToApproveCommand,
  notRememberableWhy,
  repositoryMismatchNote,
  slashApprover,
  type CatalogueEntry,
  type SlashApprovalAudit,
  type SlashApprovalPort,
  type SlashApprovalRequest,
} from "@slashi/runtime";
import { slashiPaths } from "../../context.js";
import { paint, println, shown, type Io } from "../../io.js";
import { choose } from "../../prompt.js";
import type { LoadedCommands } from "./catalogue.js";

/** The audit log as the runtime's approval sequence records the person's answer (a failed write is not shown). */
export function cliSlashAudit(io: Io): SlashApprovalAudit {
  const log = new AuditLog({ file: slashiPaths(io).audit });
  return {
    host: "cli",
    port: {
      async record(entry) {
        await log.append(entry);
      },
    },
  };
}

/** What the terminal offers when the runtime's approval sequence asks. */
export type PromptMode = "run" | "dry-run" | "approve";

/**
 * The CLI as the runtime's approver: the approvals store, the terminal prompt (Run once / Always allow / Cancel,
 * Always allow only when the one rule lets it be remembered). A dry run goes on unapproved (it runs nothing);
 * without a terminal nobody can be asked. The answer is audited by the runtime's sequence ({@link cliSlashAudit}).
 */
export function terminalApprover(
  io: Io,
  found: CatalogueEntry,
  mode: PromptMode,
): SlashApprovalPort<CatalogueEntry> {
  const paths = slashiPaths(io);
  return slashApprover<CatalogueEntry>({
    store: new ApprovalFileStore({ file: paths.approvals }),
    host: "cli",
    async ask(request) {
      if (mode === "dry-run") {
        println(
          io.stdout,
          `needs approval: ${request.uncovered.map((u) => shown`/${u.name} (${u.reason})`).join(", ")}`,
        );
        return "unapproved";
      }
      if (!io.interactive || (mode === "approve" && !request.canRemember)) return "unavailable";
      const from = fromWhere(found);
      println(io.stderr, paint(io, "yellow", "approval needed") + shown`: a shared command from ${from}`);
      for (const { command, state } of request.commands) {
        println(io.stderr, renderCommand(command.definition));
        if (state.repository !== undefined)
          println(io.stderr, paint(io, "yellow", `  ${repositoryMismatchNote(state.repository)}`));
        if (state.state !== "changed") continue;
        const heading =
          state.updatedFrom === undefined
            ? "changed since you approved it:"
            : shown`updated from version ${state.updatedFrom}, which you approved; changed since:`;
        println(io.stderr, paint(io, "yellow", `  ${heading}`));
        for (const line of describeCommandChanges(state.changes)) println(io.stderr, `    ${line}`);
      }
      for (const u of request.uncovered) println(io.stderr, shown`  /${u.name}: ${u.reason}`);
      for (const name of request.dynamic)
        println(
          io.stderr,
          shown`  /${name} names the command it calls with a variable: that call is refused when it runs, and Always allow is not offered`,
        );
      const root = request.root.definition;
      const answer = await choose(
        io,
        mode === "approve" ? shown`Approve /${root.name}?` : shown`Run /${root.name}?`,
        [
          ...(mode === "run" ? [{ key: "r", label: "Run once", value: "once" as const }] : []),
          ...(request.canRemember ? [{ key: "a", label: "Always allow", value: "always" as const }] : []),
          { key: "c", label: "Cancel", value: "cancel" as const },
        ],
      );
      return answer === "cancel" ? undefined : answer;
    },
  });
}

/** Says that nobody could be asked, with the line a person runs on their terminal to approve the command. */
export function refuseUnasked(
  io: Io,
  found: CatalogueEntry,
  loaded: LoadedCommands,
  request: SlashApprovalRequest<CatalogueEntry>,
  what: string,
): void {
  const from = fromWhere(found);
  println(io.stderr, shown`slashi: /${found.definition.name} from ${from} ${what}`);
  for (const u of request.uncovered)
    println(
      io.stderr,
      shown`  /${u.name}: ${u.reason}` +
        (u.path.length > 1 ? ` (via ${u.path.map((p) => shown`${p}`).join(" › ")})` : ""),
    );
  const notRememberable = notRememberableWhy(request);
  const how = howToApproveCommand({
    name: found.definition.name,
    source: found.source,
    ...(found.pack ? { pack: found.pack.id } : {}),
    cwd: loaded.workspace.root,
    ...(notRememberable === undefined ? {} : { notRememberable }),
  });
  println(io.stderr, shown`${how.text}`);
}
