/**
 * "Always allow" of one shell command, the same for every host: the binding (exact argv, cwd and the content it
 * executes, see binding.ts), looked up in and written to the command-approval store. A remembered approval only
 * answers an `ask`: a `deny` is never lifted, and a line that needs the shell is never remembered.
 */
import { isSlashiError, type Decision } from "@slashi/core";
import { diffText } from "@slashi/core/internal";
import { readBoundedFileSync } from "../fs/bounded-read.js";
import { plainArgv } from "../runner/plain-argv.js";
import type { CommandApprovalFileStore } from "../store/command-approvals.js";
import { workspaceIdentity } from "../config/workspace-identity.js";
import { workspaceOf } from "../config/workspace.js";
import { commandBinding, type Binding, type BindingSite } from "./binding.js";
import type { BindingEnv, ReadText } from "./env-binding.js";

/** Programs and scripts bound by content may be compiled binaries: larger than a policy file. */
const BINDING_READ_LIMIT = 256 * 1024 * 1024;

/**
 * Reads a file's bytes for the binding: `undefined` when it does not exist, and a refusal (never a wait) when it
 * is not a regular file (a FIFO or a link to `/dev/zero` put where the script should be) or is over 256 MiB:
 * the binding is then refused and the command asks every time.
 */
export function readBindingFile(file: string): Uint8Array | undefined | { refused: string } {
  try {
    return readBoundedFileSync(file, { maxBytes: BINDING_READ_LIMIT });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    return { refused: isSlashiError(error) ? error.message : `it cannot be read (${code ?? "error"})` };
  }
}

/**
 * {@link readBindingFile} as text, `undefined` for a missing or refused file (for callers that show a file;
 * the binding itself digests bytes).
 */
export function readTextOrUndefined(file: string): string | undefined {
  const got = readBindingFile(file);
  return got instanceof Uint8Array ? Buffer.from(got).toString("utf8") : undefined;
}

/** What the store says about one decided command line. */
export interface RememberedApproval {
  /** The argv it runs as, or `undefined` when it needs the shell. */
  argv: string[] | undefined;
  /** The binding that "Always allow" would store, or why it may not be stored. */
  binding: Binding;
  /** True when the store holds this binding with this content digest: the `ask` is answered. */
  approved: boolean;
  /** True when the store holds this binding with another digest: what it runs changed since. */
  changed: boolean;
  /**
   * When `changed`: a line diff of the bound content, approved against now (`- old`, `+ new`, see core's
   * `diffText`), when the approval kept the content (`shown`, at most `MAX_SHOWN_CONTENT` characters) and it
   * still fits. Empty otherwise.
   */
  diff: string[];
  /**
   * When `changed`: the bound files (beyond the one the diff shows) whose bytes changed, appeared or went away
   * since the approval, when the approval kept each file's digest. Empty otherwise.
   */
  changedFiles: string[];
}

/** The files of `now` whose digest differs from `before`'s, and those of `before` that are no longer bound. */
function changedFiles(before: unknown, now: readonly [string, string][] | undefined): string[] {
  if (!Array.isArray(before) || now === undefined) return [];
  const old = new Map(
    before.filter(
      (entry): entry is [string, string] =>
        Array.isArray(entry) && typeof entry[0] === "string" && typeof entry[1] === "string",
    ),
  );
  const out = now.filter(([file, digest]) => old.get(file) !== digest).map(([file]) => file);
  const bound = new Set(now.map(([file]) => file));
  return [...out, ...[...old.keys()].filter((file) => !bound.has(file))];
}

/**
 * Where a command runs, for its binding: the directory, the environment, the repository around it
 * (`workspaceOf`) and that repository's identity (`workspaceIdentity`: which directory and `.git` sit there).
 */
export async function bindingSite(cwd: string, env: BindingEnv): Promise<BindingSite> {
  const { root } = workspaceOf(cwd);
  return { cwd, env, root, identity: await workspaceIdentity(root) };
}

/**
 * Looks up the remembered approval of a decided command line run at `at.cwd` with the environment `at.env`
 * (every host passes the one the command will run with). An approval holds only for the repository it was given
 * in: another repository at the same path (cloned again, `git init` anew) has none, and approvals stored before
 * the repository's identity was part of the key are never honoured.
 * @param read - reads a file (default: the file system)
 */
export async function rememberedApproval(
  decision: Decision,
  at: { cwd: string; env: BindingEnv },
  store: CommandApprovalFileStore,
  read: ReadText = readBindingFile,
): Promise<RememberedApproval> {
  const argv = plainArgv(decision);
  if (decision.decision !== "ask") {
    const reason = `a ${decision.decision} is never answered by a remembered approval`;
    return {
      argv,
      binding: { ok: false, reason },
      approved: false,
      changed: false,
      diff: [],
      changedFiles: [],
    };
  }
  const binding: Binding = argv
    ? commandBinding(argv, await bindingSite(at.cwd, at.env), read)
    : {
        ok: false,
        reason:
          "a command line that needs the shell (pipes, lists, redirections, expansions) is approved once at a time",
      };
  if (!binding.ok) return { argv, binding, approved: false, changed: false, diff: [], changedFiles: [] };
  const stored = await store.get(binding.key);
  const changed = stored !== undefined && stored.digest !== binding.digest;
  const before = stored?.shown;
  const now = binding.content.text;
  return {
    argv,
    binding,
    approved: stored?.digest === binding.digest,
    changed,
    diff: changed && typeof before === "string" && now !== undefined ? diffText(before, now) : [],
    changedFiles: changed ? changedFiles(stored?.files, binding.content.files) : [],
  };
}

/**
 * Stores "Always allow" for a binding: the record every host looks up with {@link rememberedApproval}, with the
 * workspace it was given in (so `slashi approvals reset --workspace` finds it) and, bounded, the content it ran
 * (so a change can be shown as a diff at the next prompt). It approves nothing else: the same argv in another
 * directory or another repository, or after what it runs changed, asks again.
 * @param workspaceKey - the workspace's key, when the host has one
 * @param now - the time of the approval
 */
export async function rememberApproval(
  store: CommandApprovalFileStore,
  binding: Extract<Binding, { ok: true }>,
  workspaceKey: string | undefined,
  now: Date = new Date(),
): Promise<void> {
  await store.put({
    key: binding.key,
    digest: binding.digest,
    argv: binding.argv,
    cwd: binding.cwd,
    identity: binding.identity,
    approvedAt: now.toISOString(),
    ...(workspaceKey === undefined ? {} : { workspaceKey }),
    content: binding.content.kind,
    ...(binding.content.file ? { file: binding.content.file } : {}),
    ...(binding.environment === undefined ? {} : { environment: binding.environment }),
    ...(binding.content.text === undefined ? {} : { shown: binding.content.text }),
    ...(binding.content.files === undefined ? {} : { files: binding.content.files }),
  });
}
