/**
 * Stable string codes for every error Slashi raises. Adapters map these to exit codes, tool errors and
 * notifications; tests assert the code, never the message text.
 */
export const SlashiErrorCode = {
  /** Input could not be parsed as JSON / JSONC. */
  INVALID_JSON: "INVALID_JSON",
  /** A document does not match its JSON Schema. */
  SCHEMA_INVALID: "SCHEMA_INVALID",
  /** A team file or pack tried to carry approvals, trust or policy-loosening fields. */
  FORBIDDEN_FIELD: "FORBIDDEN_FIELD",
  /** A step of an unknown kind, or a malformed step. */
  INVALID_STEP: "INVALID_STEP",
  /** A `${…}` reference names no known variable. */
  UNDEFINED_VARIABLE: "UNDEFINED_VARIABLE",
  /** A `${…}` reference is malformed (unterminated, empty name). */
  INVALID_VARIABLE: "INVALID_VARIABLE",
  /** A variable that may carry secrets is used where the source may not expand it. */
  VARIABLE_NOT_ALLOWED: "VARIABLE_NOT_ALLOWED",
  /** A value cannot be quoted safely for the target shell (NUL, CR/LF for cmd). */
  UNQUOTABLE_VALUE: "UNQUOTABLE_VALUE",
  /** The target shell is unknown: quoting and analysis fail closed. */
  UNKNOWN_SHELL: "UNKNOWN_SHELL",
  /** A fingerprint string or approval key is malformed or of an unknown format version. */
  INVALID_FINGERPRINT: "INVALID_FINGERPRINT",
  /** The shell parser could not be loaded. */
  PARSER_UNAVAILABLE: "PARSER_UNAVAILABLE",
  /** A policy file is malformed, has a zero-token or contradictory rule, or an example that fails. */
  INVALID_POLICY: "INVALID_POLICY",
  /** The policy decided `deny`. */
  POLICY_DENIED: "POLICY_DENIED",
  /** A `slash` step calls a command that does not exist, recurses, or nests too deep. */
  SLASH_CALL_INVALID: "SLASH_CALL_INVALID",
  /** A shared step tries something its source may never do (protected setting, denied command, URL scheme). */
  STEP_NOT_ALLOWED: "STEP_NOT_ALLOWED",
  /** A step of a kind this host cannot perform (an editor step in a terminal); nothing of the command ran. */
  STEP_UNAVAILABLE: "STEP_UNAVAILABLE",
  /** A bug in Slashi itself. */
  INTERNAL: "INTERNAL",
  /** A Slashi store or log file is locked by another process for longer than the lock timeout. */
  STORE_LOCKED: "STORE_LOCKED",
  /** A Slashi store file is not valid JSON, has the wrong shape, or was written by an unknown format version. */
  STORE_CORRUPT: "STORE_CORRUPT",
  /** A file Slashi keeps (store, audit log) could not be read or written (permissions, full disk). */
  IO_FAILED: "IO_FAILED",
  /**
   * A file on a decision path was not read: it is not a regular file (a FIFO, device, socket or directory, also
   * behind a symlink), it changed while being opened, or it is larger than its size limit.
   */
  FILE_UNSAFE: "FILE_UNSAFE",
  /** A run request cannot be carried out safely as given (no command, both argv and script, batch file with an argv). */
  RUN_INVALID: "RUN_INVALID",
  /** The cordon (sandbox) cannot be enforced on this host; the command was not run. */
  CORDON_UNAVAILABLE: "CORDON_UNAVAILABLE",
  /** A registry cannot be used as configured: plain HTTP to a non-loopback host, a bad URL, a missing CA file. */
  REGISTRY_INSECURE: "REGISTRY_INSECURE",
  /** A registry request failed (network, TLS, HTTP status, an answer that is not a registry document). */
  REGISTRY_FAILED: "REGISTRY_FAILED",
  /** A pack or pack version does not exist in the registry, or is not installed. */
  PACK_NOT_FOUND: "PACK_NOT_FOUND",
  /** A pack's bytes do not match the registry listing (`dist.integrity`) or its registry signature. */
  PACK_INTEGRITY: "PACK_INTEGRITY",
  /** A pack archive holds something extraction refuses (absolute path, `..`, link, device, over a size cap). */
  PACK_UNSAFE: "PACK_UNSAFE",
  /** A package is not a Slashi pack (no `slashi-pack` keyword or no manifest), or its package.json is unusable. */
  PACK_INVALID: "PACK_INVALID",
} as const;

/** One of the stable {@link SlashiErrorCode} strings. */
export type SlashiErrorCode = (typeof SlashiErrorCode)[keyof typeof SlashiErrorCode];

/**
 * What kind of failure an error is, and so what the person can do about it. Each adapter turns a category (never
 * a single code) into its own answer: the CLI's exit status, the MCP server's tool error code, the editor's
 * refusal or failure. A category says nothing about the message: that stays the code's own.
 */
export const SlashiErrorCategory = {
  /** The request cannot be carried out as asked (no command, an unknown shell, a pack that is not there): change the request. */
  USAGE: "usage",
  /** A file a person or team wrote is malformed or contradicts itself (policy, team file, manifest, registries): fix the file. */
  CONFIG: "config",
  /** Shared content tries what its source may never do (a protected setting, a secret variable): no answer lifts it. */
  REFUSED: "refused",
  /** The policy decided `deny`: nothing ran. */
  DENIED: "denied",
  /** Bytes from outside were not trusted (a file that is not a regular file, a pack archive or digest that fails): nothing was read or installed. */
  UNSAFE_FILE: "unsafe-file",
  /** A file Slashi keeps (store, audit log) is locked, corrupt or cannot be read or written. */
  IO: "io",
  /** A safeguard the host must provide (the cordon) cannot be enforced here: nothing ran. */
  UNAVAILABLE: "unavailable",
  /** A registry request failed (network, TLS, HTTP status): trying again later may help. */
  REMOTE: "remote",
  /** A bug in Slashi or a broken installation (the parser cannot load). */
  INTERNAL: "internal",
} as const;

/** One of the {@link SlashiErrorCategory} strings. */
export type SlashiErrorCategory = (typeof SlashiErrorCategory)[keyof typeof SlashiErrorCategory];

/**
 * The category of every {@link SlashiErrorCode}: one entry per code, so a new code does not compile until it has
 * one. Adapters read it through {@link errorCategoryOf}.
 */
export const SLASHI_ERROR_CATEGORIES: { readonly [C in SlashiErrorCode]: SlashiErrorCategory } = {
  RUN_INVALID: SlashiErrorCategory.USAGE,
  UNKNOWN_SHELL: SlashiErrorCategory.USAGE,
  UNQUOTABLE_VALUE: SlashiErrorCategory.USAGE,
  PACK_NOT_FOUND: SlashiErrorCategory.USAGE,
  INVALID_JSON: SlashiErrorCategory.CONFIG,
  SCHEMA_INVALID: SlashiErrorCategory.CONFIG,
  FORBIDDEN_FIELD: SlashiErrorCategory.CONFIG,
  INVALID_STEP: SlashiErrorCategory.CONFIG,
  UNDEFINED_VARIABLE: SlashiErrorCategory.CONFIG,
  INVALID_VARIABLE: SlashiErrorCategory.CONFIG,
  INVALID_FINGERPRINT: SlashiErrorCategory.CONFIG,
  INVALID_POLICY: SlashiErrorCategory.CONFIG,
  SLASH_CALL_INVALID: SlashiErrorCategory.CONFIG,
  PACK_INVALID: SlashiErrorCategory.CONFIG,
  REGISTRY_INSECURE: SlashiErrorCategory.CONFIG,
  VARIABLE_NOT_ALLOWED: SlashiErrorCategory.REFUSED,
  STEP_NOT_ALLOWED: SlashiErrorCategory.REFUSED,
  STEP_UNAVAILABLE: SlashiErrorCategory.REFUSED,
  POLICY_DENIED: SlashiErrorCategory.DENIED,
  FILE_UNSAFE: SlashiErrorCategory.UNSAFE_FILE,
  PACK_UNSAFE: SlashiErrorCategory.UNSAFE_FILE,
  PACK_INTEGRITY: SlashiErrorCategory.UNSAFE_FILE,
  STORE_LOCKED: SlashiErrorCategory.IO,
  STORE_CORRUPT: SlashiErrorCategory.IO,
  IO_FAILED: SlashiErrorCategory.IO,
  CORDON_UNAVAILABLE: SlashiErrorCategory.UNAVAILABLE,
  REGISTRY_FAILED: SlashiErrorCategory.REMOTE,
  INTERNAL: SlashiErrorCategory.INTERNAL,
  PARSER_UNAVAILABLE: SlashiErrorCategory.INTERNAL,
};

/**
 * The category of anything thrown: a {@link SlashiError}'s (from its code), and `internal` for every other value,
 * since an error Slashi did not name is a bug. It does not look at messages or at `cause`.
 */
export function errorCategoryOf(error: unknown): SlashiErrorCategory {
  return isSlashiError(error)
    ? (SLASHI_ERROR_CATEGORIES[error.code] ?? SlashiErrorCategory.INTERNAL)
    : SlashiErrorCategory.INTERNAL;
}

/** Where in a document an error points: file, 1-based line and column, and the JSON path (`/steps/0/run`). */
export interface SourceLocation {
  /** File path or label (`.vscode/slashi.json`, `<stdin>`). */
  file?: string;
  /** 1-based line. */
  line?: number;
  /** 1-based column. */
  column?: number;
  /** JSON Pointer of the offending value, `""` for the document root. */
  jsonPath?: string;
}

/** Structured detail carried by a {@link SlashiError}. */
export interface SlashiErrorData extends SourceLocation {
  [key: string]: unknown;
}

const BRAND = Symbol.for("slashi.error");

/**
 * The one error class Slashi throws. `code` is stable; `data` carries the location and other structured
 * detail. Use {@link isSlashiError} rather than `instanceof` across bundles.
 */
export class SlashiError extends Error {
  /** Stable machine-readable code. */
  readonly code: SlashiErrorCode;
  /** Structured detail: location, offending key, variable name (never a secret value). */
  readonly data: SlashiErrorData;

  /**
   * @param code - stable code from {@link SlashiErrorCode}
   * @param message - human-readable message; must never contain a secret value
   * @param data - location and structured detail
   * @param options - standard `cause`
   */
  constructor(
    code: SlashiErrorCode,
    message: string,
    data: SlashiErrorData = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = code;
    this.data = data;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /**
   * The message prefixed with `file:line:column` and the JSON path when known. A message that already starts with
   * (part of) the same location, as a wrapped error's does, gets it once: the full prefix replaces the partial one.
   * A different file's location in the message stays (it says where the inner problem is).
   */
  get located(): string {
    return formatLocation(this.data) + withoutOwnLocation(this.message, this.data);
  }
}
Object.defineProperty(SlashiError.prototype, "name", { value: "SlashiError" });

/** Renders `file:line:col (at /json/path): ` for a location, or `""` when nothing is known. */
export function formatLocation(loc: SourceLocation): string {
  let out = loc.file ?? "";
  if (loc.line !== undefined) out += `${out ? ":" : "line "}${loc.line}`;
  if (loc.line !== undefined && loc.column !== undefined) out += `:${loc.column}`;
  if (loc.jsonPath !== undefined) out += `${out ? " " : ""}(at ${loc.jsonPath === "" ? "/" : loc.jsonPath})`;
  return out ? `${out}: ` : "";
}

/** The message without a leading `file[:line[:column]][ (at /path)]: ` that repeats (part of) `loc`. */
function withoutOwnLocation(message: string, loc: SourceLocation): string {
  const { file, line, column, jsonPath } = loc;
  if (file === undefined || file === "") return message;
  const spans: SourceLocation[] = [{ file, line, column }, { file, line }, { file }];
  const own = spans
    .flatMap((span) => [formatLocation({ ...span, jsonPath }), formatLocation(span)])
    .find((prefix) => message.startsWith(prefix));
  return own === undefined ? message : message.slice(own.length);
}

/** True for any {@link SlashiError}, including one from another bundled copy of the core. */
export function isSlashiError(value: unknown): value is SlashiError {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}
