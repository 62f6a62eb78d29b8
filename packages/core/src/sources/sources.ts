import { SlashiError, SlashiErrorCode } from "../errors.js";
import type { SourceLocation } from "../errors.js";
import { APPROVAL_STEP_KINDS, isStepKind } from "../steps/kinds.js";
import type { CommandDefinition, Step, StepKind } from "../steps/types.js";
import { makeVisible } from "../steps/visible.js";
import { isDeniedEditorCommand } from "./denied-commands.js";
import { SHARED_OPEN_SCHEMES, checkOpenTarget } from "./open-target.js";
import { protectedSettingWrites } from "./protected-settings.js";

/**
 * Where a command came from.
 * - `user`: the person's own settings or config. Trusted as written: no approval, no limits.
 * - `workspace`: a team file in the repository (`.vscode/slashi.json`, workspace settings). Shared.
 * - `pack`: an installed action pack from a registry. Shared.
 * - `agent`: produced by an AI agent (a shell tool call, a hook). Not shared but never trusted: the policy
 *   decides every step, and the same step limits as shared sources apply.
 */
export type CommandSource = "user" | "workspace" | "pack" | "agent";

/** Every {@link CommandSource}. */
export const COMMAND_SOURCES: readonly CommandSource[] = Object.freeze([
  "user",
  "workspace",
  "pack",
  "agent",
]);

/** The step kinds in which a shared source may expand `${env:…}`, `${config:…}` and `${clipboard}`. */
export const SECRET_VARIABLE_STEP_KINDS: readonly StepKind[] = Object.freeze(["insert", "notify"]);

/** What a source may do. See {@link sourceCapabilities}. */
export interface SourceCapabilities {
  /** The source. */
  source: CommandSource;
  /** True for sources whose definitions someone else wrote and shares (workspace, pack). */
  shared: boolean;
  /** Its commands load, list and run only in a trusted workspace. */
  needsTrustedWorkspace: boolean;
  /** Step kinds that need a decision before they run: approval by fingerprint, or by policy for agents. */
  needsApprovalFor: readonly StepKind[];
  /**
   * How a step that needs approval gets it: `none` (user), `fingerprint` (the person approves this exact
   * definition, possibly "always"), `policy` (the policy decides each time; never remembered by fingerprint).
   */
  approval: "none" | "fingerprint" | "policy";
  /** Step kinds where `${env:…}`, `${config:…}`, `${clipboard}` may expand; `"all"` for the user. */
  mayExpandSecretVariablesIn: readonly StepKind[] | "all";
  /** True when protected settings ({@link isProtectedSettingKey}) are refused. */
  protectedSettings: boolean;
  /** True when denied editor commands ({@link isDeniedEditorCommand}) are refused. */
  deniedEditorCommands: boolean;
  /** URL schemes an `open` step may use; `"any"` for the user. Relative workspace paths are allowed too. */
  openSchemes: readonly string[] | "any";
  /** Whether a `setting` step may write the user's global settings (`target: "global"`). */
  mayWriteGlobalSettings: boolean;
}

const LIMITED = {
  needsApprovalFor: APPROVAL_STEP_KINDS,
  mayExpandSecretVariablesIn: SECRET_VARIABLE_STEP_KINDS,
  protectedSettings: true,
  deniedEditorCommands: true,
  openSchemes: SHARED_OPEN_SCHEMES,
  mayWriteGlobalSettings: false,
} as const;

const CAPABILITIES: Record<CommandSource, SourceCapabilities> = {
  user: Object.freeze({
    source: "user",
    shared: false,
    needsTrustedWorkspace: false,
    needsApprovalFor: Object.freeze([]),
    approval: "none",
    mayExpandSecretVariablesIn: "all",
    protectedSettings: false,
    deniedEditorCommands: false,
    openSchemes: "any",
    mayWriteGlobalSettings: true,
  }),
  workspace: Object.freeze({
    source: "workspace",
    shared: true,
    needsTrustedWorkspace: true,
    approval: "fingerprint",
    ...LIMITED,
  }),
  pack: Object.freeze({
    source: "pack",
    shared: true,
    needsTrustedWorkspace: true,
    approval: "fingerprint",
    ...LIMITED,
  }),
  agent: Object.freeze({
    source: "agent",
    shared: false,
    needsTrustedWorkspace: false,
    approval: "policy",
    ...LIMITED,
  }),
};

/** True when `value` is a {@link CommandSource}. */
export function isCommandSource(value: unknown): value is CommandSource {
  return typeof value === "string" && (COMMAND_SOURCES as readonly string[]).includes(value);
}

/**
 * Whether definitions from this source were written by someone else and shared with the person: `workspace`
 * and `pack`. `agent` is not shared (it is its own class: decided by policy, never auto-trusted) and `user`
 * is the person's own.
 */
export function sourceIsShared(source: CommandSource): boolean {
  return source === "workspace" || source === "pack";
}

/**
 * What a source may do. `user` has no limits. `workspace` and `pack` need a trusted workspace, need approval
 * (by fingerprint) for terminal, slash, command, setting and open steps, expand secret variables only in
 * insert and notify, and may not write protected or global settings, run denied editor commands or open
 * anything but http, https, mailto and relative workspace paths. `agent` has the same limits but is decided
 * by policy each time instead of by a remembered fingerprint. An unknown source gets the agent's limits.
 */
export function sourceCapabilities(source: CommandSource): SourceCapabilities {
  return isCommandSource(source) ? CAPABILITIES[source] : CAPABILITIES.agent;
}

/** Which rule a step breaks. */
export type StepViolationRule =
  | "invalid-step"
  | "protected-setting"
  | "global-setting"
  | "denied-command"
  | "open-target"
  | "secret-variable";

/** One thing a step from a limited source may not do. */
export interface StepViolation {
  /** The rule broken. */
  rule: StepViolationRule;
  /** What is wrong, in plain words; offending text is made visible and never expanded. */
  message: string;
  /** JSON Pointer of the offending value, relative to the step (`/key`, `/value/integrated/env`, `/target`). */
  jsonPath: string;
  /** The offending key, command id, scheme or variable, as written. */
  subject?: string;
}

const SECRET_VARIABLE = /^\$\{\s*(?:env\s*:[^}]*|config\s*:[^}]*|clipboard\s*)\}/i;

/**
 * The secret variable references in a text, read left to right like the expander: `$${` is an escape for a
 * literal `${` and is skipped.
 */
function secretReferences(text: string): string[] {
  const found: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text.startsWith("$${", i)) {
      i += 3;
    } else if (text.startsWith("${", i)) {
      const m = SECRET_VARIABLE.exec(text.slice(i));
      if (m) found.push(m[0]);
      i += m ? m[0].length : 2;
    } else {
      i++;
    }
  }
  return found;
}

function secretVariables(value: unknown, pointer: string, out: StepViolation[], depth = 0): void {
  if (typeof value === "string") {
    for (const ref of secretReferences(value)) {
      out.push({
        rule: "secret-variable",
        message: `${makeVisible(ref)} may only be used in insert and notify steps of a shared command`,
        jsonPath: pointer,
        subject: ref,
      });
    }
  } else if (Array.isArray(value) && depth < 32) {
    value.forEach((v, i) => secretVariables(v, `${pointer}/${i}`, out, depth + 1));
  } else if (typeof value === "object" && value !== null && depth < 32) {
    for (const [k, v] of Object.entries(value)) {
      secretVariables(v, `${pointer}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`, out, depth + 1);
    }
  }
}

/**
 * Checks one step against the limits of its source, before any prompt: protected settings (requirement 14),
 * global setting writes, denied editor commands (17), open targets (15) and secret variables outside insert and
 * notify (18). These limits hold even after the person chose Always Allow. The `user` source has no limits and
 * always gets `[]`.
 * @param step - the step, unexpanded
 * @param source - where its command came from
 * @returns every violation found; empty when the step may be offered for approval
 */
export function checkSharedStep(step: Step, source: CommandSource): StepViolation[] {
  const caps = sourceCapabilities(source);
  if (caps.approval === "none") return [];
  const s = step as unknown as Record<string, unknown> | null;
  if (typeof s !== "object" || s === null || Array.isArray(s) || !isStepKind(s.type)) {
    return [{ rule: "invalid-step", message: "the step has no known type", jsonPath: "/type" }];
  }
  const out: StepViolation[] = [];
  switch (step.type) {
    case "setting": {
      if (typeof s.key !== "string") {
        out.push({ rule: "invalid-step", message: "the setting key is not a string", jsonPath: "/key" });
        break;
      }
      for (const w of protectedSettingWrites(s.key, s.value)) {
        out.push({
          rule: "protected-setting",
          message: `the setting ${makeVisible(w.path)} is protected: ${w.reason}`,
          jsonPath: w.jsonPath,
          subject: w.path,
        });
      }
      if (s.target === "global" && !caps.mayWriteGlobalSettings) {
        out.push({
          rule: "global-setting",
          message: "a shared command may not write the user's global settings",
          jsonPath: "/target",
          subject: "global",
        });
      }
      break;
    }
    case "command": {
      if (typeof s.command !== "string" || isDeniedEditorCommand(s.command)) {
        const id = typeof s.command === "string" ? s.command : String(s.command);
        out.push({
          rule: "denied-command",
          message: `the editor command ${makeVisible(id)} may not be run by a shared command`,
          jsonPath: "/command",
          subject: id,
        });
      }
      break;
    }
    case "open": {
      const check = checkOpenTarget(s.target as string);
      if (!check.ok) {
        out.push({
          rule: "open-target",
          message: `the target ${makeVisible(String(s.target))} may not be opened: ${check.reason ?? "refused"}`,
          jsonPath: "/target",
          subject: check.scheme || String(s.target),
        });
      }
      break;
    }
    default:
      break;
  }
  const secretsAllowed =
    caps.mayExpandSecretVariablesIn === "all" || caps.mayExpandSecretVariablesIn.includes(step.type);
  if (!secretsAllowed) {
    for (const [k, v] of Object.entries(s)) if (k !== "type") secretVariables(v, `/${k}`, out);
  }
  return out;
}

/**
 * Runs {@link checkSharedStep} over every step of a command.
 * @returns the violations with JSON Pointers relative to the definition (`/steps/2/key`)
 */
export function checkSharedCommand(def: CommandDefinition, source: CommandSource): StepViolation[] {
  const steps: unknown[] = Array.isArray(def.steps) ? def.steps : [];
  return steps.flatMap((step, i) =>
    checkSharedStep(step as Step, source).map((v) => ({ ...v, jsonPath: `/steps/${i}${v.jsonPath}` })),
  );
}

/**
 * Like {@link checkSharedStep}, but throws a `STEP_NOT_ALLOWED` {@link SlashiError} for the first violation.
 * The error's `data` carries the location, the JSON path of the offending value (`location.jsonPath` + the
 * violation's path), the `rule`, the `subject` and every violation.
 * @param location - where the step is: file, line, column, and the step's own JSON path (`/commands/0/steps/1`)
 */
export function assertSharedStepAllowed(
  step: Step,
  source: CommandSource,
  location: SourceLocation = {},
): void {
  const violations = checkSharedStep(step, source);
  const first = violations[0];
  if (!first) return;
  throw new SlashiError(SlashiErrorCode.STEP_NOT_ALLOWED, first.message, {
    ...location,
    jsonPath: `${location.jsonPath ?? ""}${first.jsonPath}`,
    rule: first.rule,
    subject: first.subject,
    violations,
  });
}
