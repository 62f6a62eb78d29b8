/** A classifier's or the analyser's verdict about one thing it saw. */
export interface Finding {
  /** Stable code, such as `rm.recursive-root`, `git.force-push`, `shell.parse-error`. */
  code: string;
  /** `deny` cannot be approved in the moment; `ask` can. */
  severity: "deny" | "ask";
  /** Plain-words reason for a person. */
  message: string;
  /** Source text of the command it is about, when it is about one command. */
  command?: string;
  /** The word, option or path the finding is about, as written (`/`, `--force`, `~/.bashrc`). */
  subject?: string;
}

/** What the safety classifiers need to know about where a command runs. All paths are absolute. */
export interface SafetyContext {
  /** Directory the command runs in; relative paths resolve against it (unless `cwdUnknown`). */
  cwd: string;
  /**
   * The directory the command runs in is only known at run time (`cd "$(…)" && …`): relative paths resolve
   * to nothing (`resolvePath` gives `null`) instead of against `cwd`.
   */
  cwdUnknown?: boolean;
  /**
   * Whether the host trusts the workspace; default trusted. Tools that run the directory's own code or
   * configuration (`make`, `git`, `npm test`…) raise no finding only in a trusted workspace.
   */
  workspaceTrusted?: boolean;
  /**
   * The folder inside which those tools count as running in the (trusted) workspace; default `workspaceRoot`.
   * The policy sets it to the directory the line starts in when the host names no workspace.
   */
  trustedRoot?: string;
  /** Root of the open workspace or project, when there is one. */
  workspaceRoot?: string;
  /** The user's home directory; `~`, `$HOME` and `${HOME}` resolve to it. */
  home: string;
  /**
   * When true, writes by redirection or by a tool's output option (`> out.txt`, `tee log`, `sort -o x`) raise
   * no finding if the target resolves inside the workspace. Sensitive and protected paths are never exempt.
   */
  allowWorkspaceWrites?: boolean;
  /** Slashi's own config, policy and approval files or folders, given by the adapter; writes to them deny. */
  protectedPaths?: string[];
  /** Path syntax: `posix` (default) or `windows` (drive letters, `\` separators, case-insensitive). */
  platform?: "posix" | "windows";
  /**
   * The real file system, read-only, when the host has one: symbolic links are then resolved and globs
   * expanded at decision time. It only adds findings; without it the words alone decide.
   */
  fs?: FileSystemPort;
  /**
   * Variables the line binds once to known words (`for f in src/*.ts`), as raw shell words; a word that is
   * exactly `$NAME` reads as those words. Others stay unknown.
   */
  variables?: ReadonlyMap<string, readonly string[]>;
}

/**
 * A small, synchronous, read-only view of the file system that a host may hand to the classifiers. Core never
 * reads files itself; `@slashi/runtime` provides the Node implementation (`nodeFileSystemPort`). Every method
 * answers `undefined` (or throws, which counts the same) when it cannot tell.
 */
export interface FileSystemPort {
  /**
   * The absolute path with every symbolic link in its existing part resolved and the part that does not exist
   * appended unchanged (`/w/docs/id_rsa` → `/home/u/.ssh/id_rsa` when `docs` links to `~/.ssh`).
   */
  realpath(path: string): string | undefined;
  /** The names in a folder (no `.`/`..`), or `undefined` when it is not a readable folder. */
  readdir(path: string): readonly string[] | undefined;
  /**
   * The entries of a folder with what each is, links not followed (`link` for a symbolic link, `folder`, `file`
   * for anything else), or `undefined` when it is not a readable folder. Optional: without it a recursive read's
   * tree is walked through `readdir` and `realpath` alone, at two more calls per entry.
   */
  entries?(path: string): readonly FolderEntry[] | undefined;
  /**
   * Every mount point of the host (absolute, as the mount table spells them: `/proc`, `/home/u/app/cache`), or
   * `undefined` when the host has no mount table the port can read (then every recursive removal asks, since a
   * mount point cannot be ruled out). Not the mounts' sources or options. A port without this method counts as a
   * host without a mount table.
   */
  mountPoints?(): readonly string[] | undefined;
}

/** One name in a folder, as {@link FileSystemPort.entries} lists it. */
export interface FolderEntry {
  /** The name (no `/`). */
  name: string;
  /** `link` for a symbolic link (not followed), `folder`, or `file` for anything else. */
  kind: "file" | "folder" | "link";
}
