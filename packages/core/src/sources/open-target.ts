import { makeVisible } from "../steps/visible.js";

/** URL schemes a shared `open` step may use. Everything else (`command:`, `vscode:`, `file:`, `javascript:` …) is refused. */
export const SHARED_OPEN_SCHEMES: readonly string[] = Object.freeze(["http", "https", "mailto"]);

/** The result of {@link checkOpenTarget}. */
export interface OpenTargetCheck {
  /** True when a shared source may open this target. */
  ok: boolean;
  /** `url` for anything with a scheme (or protocol-relative), `file` for paths and `file:` URLs. */
  kind: "url" | "file";
  /** Lowercased scheme without `:`, `""` when there is none (paths, protocol-relative). */
  scheme: string;
  /** For `http`/`https`: the host name as a URL parser reads it (IDN as punycode); otherwise `""`. */
  host: string;
  /** Why the target is refused, when `ok` is false. */
  reason?: string;
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** Removes what WHATWG URL parsing ignores (leading/trailing C0 and spaces, every tab/CR/LF) for classification. */
function asParsed(target: string): string {
  // eslint-disable-next-line no-control-regex
  return target.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "").replace(/[\t\n\r]/g, "");
}

function hiddenCharacters(target: string): boolean {
  if (/^ | $/.test(target)) return true;
  const plain = target.replace(/⟨/g, "");
  return makeVisible(plain) !== plain;
}

function refuse(kind: "url" | "file", scheme: string, host: string, reason: string): OpenTargetCheck {
  return { ok: false, kind, scheme, host, reason };
}

function checkPath(path: string): OpenTargetCheck {
  if (/^[\\/]{2}/.test(path)) {
    return path.startsWith("\\\\") || path.startsWith("/\\")
      ? refuse("file", "", "", "UNC network paths are not allowed")
      : refuse("url", "", "", "protocol-relative targets (//host) are not allowed");
  }
  if (/^[A-Za-z]:/.test(path) || path.startsWith("/") || path.startsWith("\\")) {
    return refuse("file", "", "", "absolute paths are not allowed; use a path relative to the workspace");
  }
  if (path.startsWith("~")) return refuse("file", "", "", "paths in the home folder are not allowed");
  if (path.split(/[\\/]/).includes(".."))
    return refuse("file", "", "", "paths may not leave the workspace (..)");
  if (path.includes("${")) return refuse("file", "", "", "variables are not allowed in shared open targets");
  return { ok: true, kind: "file", scheme: "", host: "" };
}

/**
 * Classifies the target of an `open` step and decides whether a shared source (workspace, pack, agent) may open
 * it (requirement 15). Allowed: `http:`/`https:` URLs with a host and no user name or password (which would
 * hide the real host), `mailto:`, and paths relative to the workspace that do not climb out with `..`.
 * Refused: every other scheme (`command:`, `vscode:`, `vscode-insiders:`, `file:`, `javascript:`, `data:`,
 * custom schemes), protocol-relative `//host`, UNC and absolute paths, `~`, backslashes in web URLs, and any
 * target with control, invisible or surrounding space characters. Classification reads the target the way a
 * URL parser does (leading control characters and spaces stripped, tabs and newlines removed, scheme case
 * ignored), so `" JavaScript:…"` is reported as scheme `javascript`.
 * @param target - the `target` field of the step, unexpanded
 */
export function checkOpenTarget(target: string): OpenTargetCheck {
  if (typeof target !== "string") return refuse("file", "", "", "the target is not a string");
  const parsed = asParsed(target);
  const m = SCHEME.exec(parsed);
  let result: OpenTargetCheck;
  if (parsed === "") {
    result = refuse("file", "", "", "the target is empty");
  } else if (!m || (m[1] as string).length === 1) {
    result = checkPath(parsed);
  } else {
    const scheme = (m[1] as string).toLowerCase();
    if (scheme === "file") {
      result = refuse("file", scheme, "", "file: URLs are not allowed");
    } else if (scheme === "http" || scheme === "https") {
      result = checkWebUrl(parsed, scheme);
    } else if (scheme === "mailto") {
      result =
        parsed.length > "mailto:".length
          ? { ok: true, kind: "url", scheme, host: "" }
          : refuse("url", scheme, "", "the mailto: target has no address");
    } else {
      result = refuse("url", scheme, "", `the scheme ${scheme}: is not allowed (only http, https, mailto)`);
    }
  }
  if (result.ok && hiddenCharacters(target)) {
    return {
      ...result,
      ok: false,
      reason: "the target contains control, invisible or surrounding space characters",
    };
  }
  return result;
}

function checkWebUrl(parsed: string, scheme: string): OpenTargetCheck {
  let url: URL;
  try {
    url = new URL(parsed);
  } catch {
    return refuse("url", scheme, "", "the URL cannot be parsed");
  }
  const host = url.hostname;
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/\\]/.test(parsed)) {
    return refuse("url", scheme, host, "a web URL must start with scheme://host");
  }
  if (parsed.includes("\\"))
    return refuse("url", scheme, host, "backslashes in a web URL are read as slashes");
  if (url.username !== "" || url.password !== "") {
    return refuse("url", scheme, host, "user names or passwords in a URL hide the real host");
  }
  if (host === "") return refuse("url", scheme, host, "the URL has no host");
  if (host.includes("${")) return refuse("url", scheme, host, "the host may not come from a variable");
  return { ok: true, kind: "url", scheme, host };
}

/**
 * Re-checks an `open` target after variable expansion, right before it is opened: the expanded target must pass
 * {@link checkOpenTarget} itself and keep the kind, scheme and host the person saw in the unexpanded target (a
 * value such as `${args}` may fill in a path or query, never move the link to another host or scheme).
 * @param unexpanded - the target as written and shown in the prompt
 * @param expanded - the same target after expansion
 */
export function checkExpandedOpenTarget(unexpanded: string, expanded: string): OpenTargetCheck {
  const before = checkOpenTarget(unexpanded);
  const after = checkOpenTarget(expanded);
  if (!before.ok) return before;
  if (!after.ok) return after;
  if (after.kind !== before.kind || after.scheme !== before.scheme || after.host !== before.host) {
    return { ...after, ok: false, reason: "expansion changed the kind, scheme or host of the target" };
  }
  return after;
}
