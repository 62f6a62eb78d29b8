import { SlashiError, SlashiErrorCode } from "../errors.js";

/** Options for {@link canonicalWorkspaceKey}. */
export interface WorkspaceKeyOptions {
  /**
   * Whether the volume compares names case-insensitively (Windows, macOS by default). When true the whole key
   * is lowercased. Default: true for Windows paths (drive letter or UNC), false otherwise.
   */
  caseInsensitive?: boolean;
}

/**
 * The canonical key of a workspace folder, used in approval keys (requirement 5). Pure: the caller resolves
 * symlinks first (for example with `fs.realpathSync.native`) and passes the real, absolute path; the core has
 * no file system. Normalisation:
 * - Windows paths (`C:\…`, `\\server\share\…`, `\\?\C:\…`): backslashes become `/`, the `\\?\` prefix is
 *   dropped, the drive letter is lowercased; POSIX paths keep backslashes (they are ordinary name characters).
 * - repeated separators collapse, `.` segments go, `..` segments are resolved lexically, a trailing separator
 *   is dropped (except for the root: `/`, `c:/`).
 * - on case-insensitive volumes the whole key is lowercased. No Unicode normalisation.
 *
 * `C:\Repo` and `c:\repo\` give `c:/repo`; `/home/me/repo/` gives `/home/me/repo`.
 * @param path - the absolute, symlink-resolved path of the workspace folder
 * @throws SlashiError `INVALID_FINGERPRINT` for an empty or relative path, or one with NUL
 */
export function canonicalWorkspaceKey(path: string, options: WorkspaceKeyOptions = {}): string {
  if (typeof path !== "string" || path === "" || path.includes("\0")) {
    throw new SlashiError(SlashiErrorCode.INVALID_FINGERPRINT, "the workspace path is empty or malformed");
  }
  let p = path;
  if (/^\\\\[?.]\\UNC\\/i.test(p)) p = `\\\\${p.slice(8)}`;
  else if (/^\\\\[?.]\\[A-Za-z]:/.test(p)) p = p.slice(4);
  const drive = /^[A-Za-z]:[\\/]/.test(p) || /^[A-Za-z]:$/.test(p);
  const unc = /^\\\\[^\\/]/.test(p) || /^\/\/[^/]/.test(p);
  const windows = drive || (unc && p.startsWith("\\"));
  if (windows) p = p.replace(/\\/g, "/");
  let root: string;
  let rest: string;
  if (drive) {
    root = `${(p[0] as string).toLowerCase()}:/`;
    rest = p.slice(2);
  } else if (unc) {
    root = "//";
    rest = p.slice(2);
  } else if (p.startsWith("/")) {
    root = "/";
    rest = p;
  } else {
    throw new SlashiError(SlashiErrorCode.INVALID_FINGERPRINT, "the workspace path must be absolute");
  }
  const parts: string[] = [];
  for (const seg of rest.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (parts.length > (unc ? 2 : 0)) parts.pop();
      continue;
    }
    parts.push(seg);
  }
  const key = root + parts.join("/");
  const insensitive = options.caseInsensitive ?? windows;
  return insensitive ? key.toLowerCase() : key;
}
