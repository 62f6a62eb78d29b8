/**
 * Editor commands a shared `command` step may never run (requirement 17), whatever the person approved: they
 * install software, type into or create terminals behind the policy's back, run tasks or debug
 * configurations, edit settings or keybinding files, manage trust, open URIs without the `open` step's checks,
 * run other commands, or hand a prompt to an AI agent. The list is a floor, not a ceiling: every other
 * `command` step still needs approval.
 */

/** Exact command ids (compared case-insensitively). */
export const DENIED_EDITOR_COMMANDS: readonly string[] = Object.freeze([
  "workbench.action.terminal.sendSequence",
  "workbench.action.terminal.runSelectedText",
  "workbench.action.terminal.runActiveFile",
  "workbench.action.terminal.runRecentCommand",
  "workbench.action.terminal.paste",
  "workbench.action.terminal.pasteSelection",
  "workbench.action.terminal.newWithProfile",
  "workbench.action.terminal.selectDefaultShell",
  "workbench.action.openSettingsJson",
  "workbench.action.openApplicationSettingsJson",
  "workbench.action.openWorkspaceSettingsFile",
  "workbench.action.openFolderSettingsFile",
  "workbench.action.openRemoteSettingsFile",
  "workbench.action.openWorkspaceConfigFile",
  "workbench.action.openGlobalKeybindingsFile",
  "workbench.action.openDefaultKeybindingsFile",
  "workbench.action.manageTrust",
  "workbench.action.manageTrustedDomain",
  "workbench.action.configureWorkspaceTrust",
  "runCommands",
  "vscode.open",
  "vscode.openWith",
  "vscode.openFolder",
  "vscode.newWindow",
  "simpleBrowser.show",
  "simpleBrowser.api.open",
  "python.execInTerminal",
  "python.execSelectionInTerminal",
  "git.clone",
]);

/** Command id namespaces denied with everything under them (compared case-insensitively). */
export const DENIED_EDITOR_COMMAND_PREFIXES: readonly string[] = Object.freeze([
  "workbench.extensions.",
  "workbench.trust.",
  "workbench.action.tasks.",
  "workbench.action.debug.",
  "debug.",
  "workbench.action.chat.",
  "workbench.profiles.",
  "workbench.userDataSync.",
  "notebook.cell.execute",
  "notebook.execute",
  "jupyter.",
  "slashi.",
]);

/** Words that deny a command id wherever they appear in it (compared case-insensitively). */
const DENIED_WORDS = ["installextension", "installvsix", "installfromvsix", "sendsequence", "executecommand"];

const exact = new Set(DENIED_EDITOR_COMMANDS.map((c) => c.toLowerCase()));
const prefixes = DENIED_EDITOR_COMMAND_PREFIXES.map((p) => p.toLowerCase());

/**
 * Whether a shared `command` step may never run the editor command `id`: the {@link DENIED_EDITOR_COMMANDS},
 * anything under the {@link DENIED_EDITOR_COMMAND_PREFIXES}, ids containing `installExtension`, `installVsix`,
 * `sendSequence` or `executeCommand`, internal commands whose id starts with `_`, and ids that are empty, not
 * strings, or contain whitespace, control or non-ASCII characters (ids are plain ASCII). Case-insensitive.
 * @param id - the `command` field of the step
 */
export function isDeniedEditorCommand(id: string): boolean {
  if (typeof id !== "string" || id === "" || !/^[\x21-\x7e]+$/.test(id)) return true;
  const lower = id.toLowerCase();
  if (lower.startsWith("_") || exact.has(lower)) return true;
  if (prefixes.some((p) => lower.startsWith(p))) return true;
  return DENIED_WORDS.some((w) => lower.includes(w));
}
