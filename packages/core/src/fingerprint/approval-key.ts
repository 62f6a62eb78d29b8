import { SlashiError, SlashiErrorCode } from "../errors.js";
import { canonicalize } from "./canonical.js";
import { isCurrentFingerprint } from "./fingerprint.js";

/** Format version of approval keys and command identity keys. */
export const APPROVAL_KEY_FORMAT = "slashi-ak-1";

/** Who a shared command is: its source, its name and where it lives. The fingerprint says what it is. */
export type CommandIdentity =
  | {
      /** A team command from a workspace folder. */
      source: "workspace";
      /** Command name (a leading `/` is ignored). */
      name: string;
      /** {@link canonicalWorkspaceKey} of the workspace folder that holds it. */
      workspaceKey: string;
    }
  | {
      /** A command from an installed action pack. */
      source: "pack";
      /** Command name (a leading `/` is ignored). */
      name: string;
      /** Package name of the pack, such as `@acme/slashi-pack`. */
      packId: string;
      /** Exact installed version. */
      packVersion: string;
      /** Content hash of the pack payload (`dist.integrity`), when known. */
      packIntegrity?: string;
    };

/** A {@link CommandIdentity} plus the fingerprint the person approved. */
export type ApprovalKeyInput = CommandIdentity & {
  /** {@link fingerprintCommand} of the approved definition. */
  fingerprint: string;
};

function invalid(message: string, data: Record<string, unknown> = {}): never {
  throw new SlashiError(SlashiErrorCode.INVALID_FINGERPRINT, message, data);
}

function text(value: unknown, field: string): string {
  if (typeof value !== "string" || value === "")
    invalid(`the approval key needs a non-empty ${field}`, { field });
  return value;
}

function identityParts(identity: CommandIdentity): string[] {
  const name = text(
    typeof identity.name === "string" ? identity.name.replace(/^\//, "") : identity.name,
    "name",
  );
  switch (identity.source) {
    case "workspace":
      return ["workspace", text(identity.workspaceKey, "workspaceKey"), name];
    case "pack":
      return [
        "pack",
        text(identity.packId, "packId"),
        text(identity.packVersion, "packVersion"),
        identity.packIntegrity ?? "",
        name,
      ];
    default:
      return invalid("only workspace and pack commands have approval keys", {
        source: (identity as { source?: unknown }).source,
      });
  }
}

/**
 * The key under which an approval of one exact command is stored: `slashi-ak-1:` followed by a canonical JSON
 * array of the identity and the fingerprint, e.g.
 * `slashi-ak-1:["workspace","c:/repo","deploy","slashi-fp-1:sha256:…"]` or
 * `slashi-ak-1:["pack","@acme/pack","1.2.3","sha512-…","deploy","slashi-fp-1:sha256:…"]`.
 * The same steps in another workspace, another pack, another pack version or under another name get another key.
 * @throws SlashiError `INVALID_FINGERPRINT` for a missing field, a non-shared source or a fingerprint that is not
 *   of the current format
 */
export function approvalKey(input: ApprovalKeyInput): string {
  if (!isCurrentFingerprint(input.fingerprint))
    invalid("the fingerprint is malformed or of an unknown format");
  return `${APPROVAL_KEY_FORMAT}:${canonicalize([...identityParts(input), input.fingerprint])}`;
}

/**
 * The key of a command's identity without its fingerprint (`slashi-ak-1:id:[…]`). Every approval of the same
 * command, whatever its steps, shares it, so a host can find the previous approval and say what changed.
 */
export function commandIdentityKey(identity: CommandIdentity): string {
  return `${APPROVAL_KEY_FORMAT}:id:${canonicalize(identityParts(identity))}`;
}

/**
 * Reads an approval key back into its parts.
 * @throws SlashiError `INVALID_FINGERPRINT` when the key is malformed or of an unknown format version (an old or
 *   future key is never read as a current one)
 */
export function parseApprovalKey(key: string): ApprovalKeyInput {
  if (typeof key !== "string") invalid("the approval key is not a string");
  const colon = key.indexOf(":");
  const format = colon > 0 ? key.slice(0, colon) : "";
  if (format !== APPROVAL_KEY_FORMAT)
    invalid(`unknown approval key format ${format || "(none)"}`, { format });
  let parts: unknown;
  try {
    parts = JSON.parse(key.slice(colon + 1));
  } catch {
    return invalid("the approval key is malformed");
  }
  if (!Array.isArray(parts) || !parts.every((p) => typeof p === "string"))
    invalid("the approval key is malformed");
  const p = parts as string[];
  let result: ApprovalKeyInput;
  if (p[0] === "workspace" && p.length === 4) {
    result = {
      source: "workspace",
      workspaceKey: p[1] as string,
      name: p[2] as string,
      fingerprint: p[3] as string,
    };
  } else if (p[0] === "pack" && p.length === 6) {
    result = {
      source: "pack",
      packId: p[1] as string,
      packVersion: p[2] as string,
      ...(p[3] ? { packIntegrity: p[3] } : {}),
      name: p[4] as string,
      fingerprint: p[5] as string,
    };
  } else {
    return invalid("the approval key is malformed");
  }
  if (approvalKey(result) !== key) invalid("the approval key is not in canonical form");
  return result;
}

/** True only for a well-formed approval key of the current format with a current fingerprint. Never throws. */
export function isCurrentApprovalKey(key: unknown): boolean {
  try {
    parseApprovalKey(key as string);
    return true;
  } catch {
    return false;
  }
}
