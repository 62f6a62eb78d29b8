/** `slashi audit tail|show`: read the audit log (rotated files included), as text or JSON lines. */
import { readAudit, type AuditRecord } from "@slashi/runtime";
import { slashiPaths } from "../context.js";
import { ExitCode, UsageError } from "../errors.js";
import { jsonText, paintVerdict, println, type Io } from "../io.js";
import type { ParsedArgs } from "../options.js";
import { withProgress } from "../progress.js";

function line(io: Io, r: AuditRecord): string {
  const parts = [r.time, r.event];
  if (r.decision) parts.push(paintVerdict(io, r.decision));
  if (r.source) parts.push(`[${r.source}]`);
  if (r.command) parts.push(r.command);
  if (r.text !== undefined) parts.push(JSON.stringify(r.text));
  if (r.exitCode !== undefined) parts.push(`exit ${r.exitCode}`);
  if (r.answer) parts.push(`answer ${r.answer}`);
  if (r.workspaceKey) parts.push(r.workspaceKey);
  return parts.join("  ");
}

async function show(io: Io, json: boolean, options: Parameters<typeof readAudit>[1]): Promise<number> {
  const file = slashiPaths(io).audit;
  // A long log (rotated files included) takes a while to read and filter: a terminal shows that it is working.
  const { records, problems } = await withProgress(io, `reading the audit log ${file}`, () =>
    readAudit(file, options),
  );
  for (const r of records) println(io.stdout, json ? jsonText(r) : line(io, r));
  for (const p of problems)
    println(io.stderr, `slashi: warning: ${p.file}:${p.line}: not a valid audit record (skipped)`);
  if (!json && records.length === 0) println(io.stderr, `no audit records in ${file}`);
  return ExitCode.OK;
}

/** `slashi audit tail [-n N]`. */
export function auditTail(args: ParsedArgs, io: Io): Promise<number> {
  const n = typeof args.flags.lines === "string" ? Number(args.flags.lines) : 20;
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`-n must be a positive whole number, not "${String(args.flags.lines)}"`);
  return show(io, args.flags.json === true, { tail: n });
}

/** `slashi audit show [--event E] [--decision D] [--since T]`. */
export function auditShow(args: ParsedArgs, io: Io): Promise<number> {
  const event = typeof args.flags.event === "string" ? args.flags.event : undefined;
  const decision = typeof args.flags.decision === "string" ? args.flags.decision : undefined;
  let since: number | undefined;
  if (typeof args.flags.since === "string") {
    since = Date.parse(args.flags.since);
    if (Number.isNaN(since))
      throw new UsageError(`--since must be an ISO 8601 time, not "${args.flags.since}"`);
  }
  return show(io, args.flags.json === true, {
    filter: (r) =>
      (event === undefined || r.event === event) &&
      (decision === undefined || r.decision === decision) &&
      (since === undefined || Date.parse(r.time) >= since),
  });
}
