/**
 * Asking the person before an `ask` command runs, in the two shapes MCP has:
 *
 * - 2025 sessions (`legacy` era): the server pushes `elicitation/create` during the call
 *   (`ctx.mcpReq.elicitInput`) and waits for the answer.
 * - 2026-07-28 sessions (`modern` era): the call returns `input_required` with the form and a signed
 *   `requestState` holding a digest of the request; the client asks the person and retries the call with the
 *   answer. The retry is decided again from scratch, and its own digest must equal the one in the state, so a
 *   modified retry (another command, cwd or timeout) cannot reuse the approval. Each state is good for one retry.
 *
 * The form has one boolean field. `accept` with the box unticked, `decline` and `cancel` all mean "do not run".
 * A client that cannot show a form gets a refusal, never a run.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type InputRequiredResult,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { canonicalize, makeVisible, type Decision } from "@slashi/core";
import { visibleElicitation } from "./visible.js";

/** The form's only field. */
export const CONFIRM_FIELD = "run";

/** The elicitation schema: one boolean the person must tick. */
export const CONFIRM_SCHEMA = {
  type: "object" as const,
  properties: {
    [CONFIRM_FIELD]: {
      type: "boolean" as const,
      title: "Run this command",
      description: "Tick to run the command shown above. Leaving it unticked does not run it.",
      default: false,
    },
  },
  required: [CONFIRM_FIELD],
};

/** The key of the embedded request in an `input_required` result. */
export const CONFIRM_KEY = "confirm";

/** What the person said. */
export type ConfirmOutcome =
  | { kind: "approved" }
  | { kind: "refused"; answer: "decline" | "cancel" | "unticked" }
  | { kind: "unavailable"; why: string }
  | { kind: "mismatch"; why: string }
  | { kind: "input-required"; result: InputRequiredResult };

/** What the confirmation shows. */
export interface ConfirmSubject {
  /** Title line (`shell_command`, `/deploy`). */
  title: string;
  /** The decision (its commands give the argv). */
  decision: Decision;
  /** Working directory. */
  cwd: string;
  /** Variables the command line sets for its programs, plus any the server adds. */
  env: Record<string, string>;
  /** Whether the command runs in the cordon. */
  cordon: boolean;
  /** Network inside the cordon. */
  network: boolean;
  /** Why it must be confirmed even where the policy allows (an unapproved team command). */
  why?: string;
}

function visible(text: string): string {
  return makeVisible(text, { edges: true });
}

function argvText(argv: readonly string[]): string {
  return `[${argv.map((w) => JSON.stringify(visible(w))).join(", ")}]`;
}

/** Environment overrides a command line makes (`FOO=1 cmd`, `export FOO=1`), by name, values as written. */
export function environmentOverrides(decision: Decision): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of decision.commands) {
    for (const a of c.assignments) out[a.name] = a.value ?? "(computed at run time)";
  }
  return out;
}

/** The message of the form: exact argv of every command, cwd, environment overrides, the cordon, the reasons. */
export function confirmationMessage(subject: ConfirmSubject): string {
  const { decision } = subject;
  const lines = [
    `Slashi: approve running this command? (${visible(subject.title)})`,
    "",
    `$ ${visible(decision.input)}`,
    "",
  ];
  decision.commands.forEach((c, i) => {
    const wrapped =
      c.wrappers.length > 0
        ? ` (through ${c.wrappers.map(visible).join(" → ")}; runs ${argvText(c.effective)})`
        : "";
    lines.push(`command ${i + 1} argv: ${argvText(c.argv)}${wrapped}`);
    if (c.redirects.length > 0)
      lines.push(`  redirects: ${c.redirects.map((r) => visible(r.text)).join(" ")}`);
  });
  lines.push(`cwd: ${visible(subject.cwd)}`);
  const env = Object.entries(subject.env);
  lines.push(
    env.length === 0
      ? "environment overrides: none"
      : `environment overrides: ${env.map(([k, v]) => `${visible(k)}=${JSON.stringify(visible(v))}`).join(", ")}`,
  );
  lines.push(
    subject.cordon
      ? `cordon: yes (sandboxed; network ${subject.network ? "allowed" : "off"})`
      : "cordon: no (runs with your full rights)",
  );
  const asks = decision.reasons.filter((r) => r.inactive === undefined && r.severity === "ask");
  if (asks.length > 0 || subject.why !== undefined) {
    lines.push("", "Why it asks:");
    if (subject.why !== undefined) lines.push(`- ${visible(subject.why)}`);
    for (const r of asks) lines.push(`- ${r.code}: ${visible(r.message)}`);
  }
  lines.push(
    "",
    "Tick the box and accept to run it once. Declining, cancelling or leaving the box unticked does not run it.",
  );
  return lines.join("\n");
}

/** `sha256` hex of the canonical JSON of what a call asks to run. */
export function requestDigest(request: unknown): string {
  return createHash("sha256").update(canonicalize(request)).digest("hex");
}

function answerOf(action: string, content: Record<string, unknown> | undefined): ConfirmOutcome {
  if (action === "accept") {
    return content?.[CONFIRM_FIELD] === true ? { kind: "approved" } : { kind: "refused", answer: "unticked" };
  }
  return { kind: "refused", answer: action === "decline" ? "decline" : "cancel" };
}

interface ConfirmState {
  /** Digest of the request the person is asked about. */
  digest: string;
  /** One-time id of this question. */
  nonce: string;
}

function hasFormElicitation(capabilities: unknown): boolean {
  if (typeof capabilities !== "object" || capabilities === null) return false;
  const elicitation = (capabilities as { elicitation?: unknown }).elicitation;
  if (typeof elicitation !== "object" || elicitation === null) return false;
  // An empty `elicitation: {}` means form mode (2025-06-18); later revisions list the modes.
  const modes = elicitation as { form?: unknown; url?: unknown };
  return modes.form !== undefined || modes.url === undefined;
}

/** Confirmation for one server instance (one connection). */
export class Confirmer {
  readonly #codec = createRequestStateCodec<ConfirmState>({ key: randomBytes(32), ttlSeconds: 600 });
  readonly #used = new Set<string>();
  readonly #era: "legacy" | "modern";
  readonly #legacyCapabilities: () => unknown;
  readonly #timeoutMs: number;

  /**
   * @param era - the connection's protocol era
   * @param legacyCapabilities - the capabilities the client declared at `initialize` (legacy era)
   * @param timeoutMs - how long to wait for the person (legacy push)
   */
  constructor(era: "legacy" | "modern", legacyCapabilities: () => unknown, timeoutMs: number) {
    this.#era = era;
    this.#legacyCapabilities = legacyCapabilities;
    this.#timeoutMs = timeoutMs;
  }

  /** The `requestState.verify` hook for the server options: refuses tampered or expired state. */
  get verify(): (state: string, ctx: ServerContext) => Promise<ConfirmState> {
    return (state, ctx) => this.#codec.verify(state, ctx);
  }

  /**
   * Whether this client can show a form for this call: the elicitation capability it declared at `initialize`
   * (2025 sessions) or in the request's capabilities (2026-07-28).
   */
  canAsk(ctx: ServerContext): boolean {
    if (this.#era === "legacy") return hasFormElicitation(this.#legacyCapabilities());
    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
    return hasFormElicitation(envelope?.[CLIENT_CAPABILITIES_META_KEY]);
  }

  /**
   * Asks the person about a request.
   * @param ctx - the tool call's context
   * @param digest - {@link requestDigest} of what the call asks to run
   * @param message - {@link confirmationMessage}
   */
  async confirm(ctx: ServerContext, digest: string, message: string): Promise<ConfirmOutcome> {
    if (this.#era === "legacy") {
      if (!hasFormElicitation(this.#legacyCapabilities())) {
        return {
          kind: "unavailable",
          why: "this command needs the person's approval, and this MCP client does not support elicitation (forms), so it cannot ask; nothing ran",
        };
      }
      const result = await ctx.mcpReq.elicitInput(
        visibleElicitation({ mode: "form" as const, message, requestedSchema: CONFIRM_SCHEMA }),
        { timeout: this.#timeoutMs, signal: ctx.mcpReq.signal },
      );
      return answerOf(result.action, result.content as Record<string, unknown> | undefined);
    }

    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
    if (!hasFormElicitation(envelope?.[CLIENT_CAPABILITIES_META_KEY])) {
      return {
        kind: "unavailable",
        why: "this command needs the person's approval, and this MCP client did not declare elicitation (forms), so it cannot ask; nothing ran",
      };
    }
    const state = ctx.mcpReq.requestState<ConfirmState>();
    if (state === undefined) return { kind: "input-required", result: await this.#ask(ctx, digest, message) };
    if (typeof state !== "object" || state === null || typeof state.digest !== "string") {
      return { kind: "mismatch", why: "the retry carries no usable approval state; nothing ran" };
    }
    if (state.digest !== digest) {
      return {
        kind: "mismatch",
        why: "the retried call differs from the call the person was asked about (command, cwd or timeout changed); nothing ran",
      };
    }
    if (this.#used.has(state.nonce)) {
      return { kind: "mismatch", why: "this approval was already used for one run; nothing ran" };
    }
    const view = inputResponse(ctx.mcpReq.inputResponses, CONFIRM_KEY);
    if (view.kind === "missing")
      return { kind: "input-required", result: await this.#ask(ctx, digest, message) };
    this.#used.add(state.nonce);
    if (view.kind !== "elicit") return { kind: "refused", answer: "cancel" };
    return answerOf(view.action, view.content);
  }

  async #ask(ctx: ServerContext, digest: string, message: string): Promise<InputRequiredResult> {
    return inputRequired({
      inputRequests: {
        [CONFIRM_KEY]: inputRequired.elicit(visibleElicitation({ message, requestedSchema: CONFIRM_SCHEMA })),
      },
      requestState: await this.#codec.mint({ digest, nonce: randomUUID() }, ctx),
    });
  }
}
