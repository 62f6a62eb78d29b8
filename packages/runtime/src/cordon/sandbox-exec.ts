import type { ResolvedCordon } from "./policy.js";

/** Quotes a string for SBPL (a Scheme string literal). */
export function sbplString(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/**
 * The macOS Seatbelt (SBPL) profile for `sandbox-exec -p`: deny by default; allow process execution, signals
 * and process information within the sandbox, sysctl reads and Mach lookups; allow reading everything except the hidden paths; allow
 * writing only the workspace, the extra writable directories, the temporary directories and `/dev/null`, minus
 * the protected workspace entries; network only when allowed. Later rules take precedence, so each deny comes
 * after the allow it narrows. Paths must be real paths (Seatbelt matches kernel-resolved paths).
 *
 * Generated and unit-tested only: this build has not run it on a Mac.
 */
export function sandboxExecProfile(
  cordon: ResolvedCordon,
  tmpDirs: readonly string[] = ["/private/tmp", "/private/var/folders"],
): string {
  const lines = [
    "(version 1)",
    "(deny default)",
    "(allow process-exec process-fork)",
    "(allow process-info* (target same-sandbox))",
    "(allow signal (target same-sandbox))",
    "(allow sysctl-read)",
    "(allow mach-lookup)",
    "(allow ipc-posix-shm)",
    "(allow file-read*)",
  ];
  for (const hidden of cordon.hidden) {
    const filter = hidden.kind === "dir" ? "subpath" : "literal";
    lines.push(`(deny file-read* (${filter} ${sbplString(hidden.path)}))`);
  }
  const writable = [
    ...(cordon.workspaceReadOnly === true ? [] : [cordon.workspace]),
    ...cordon.writable,
    ...tmpDirs,
  ];
  lines.push(
    `(allow file-write* ${writable.map((dir) => `(subpath ${sbplString(dir)})`).join(" ")} (literal "/dev/null") (literal "/dev/tty"))`,
  );
  for (const entry of cordon.readOnly) lines.push(`(deny file-write* (subpath ${sbplString(entry)}))`);
  for (const missing of cordon.unprotected) lines.push(`(deny file-write* (subpath ${sbplString(missing)}))`);
  for (const hidden of cordon.hidden) {
    const filter = hidden.kind === "dir" ? "subpath" : "literal";
    lines.push(`(deny file-write* (${filter} ${sbplString(hidden.path)}))`);
  }
  if (cordon.network) lines.push("(allow network*)");
  return `${lines.join("\n")}\n`;
}
