/**
 * Reading settings by where their value comes from. Security settings are read from the person's own (user)
 * value only: a repository's workspace or folder value is never used for them, whatever form it takes.
 */

/** The part of `WorkspaceConfiguration.inspect()` the extension reads. */
export interface Inspection<T> {
  /** Declared default. */
  defaultValue?: T;
  /** User settings. */
  globalValue?: T;
  /** Workspace settings (the `.code-workspace` file, or the single folder's `.vscode/settings.json`). */
  workspaceValue?: T;
  /** Folder settings (multi-root). */
  workspaceFolderValue?: T;
}

/**
 * The value of an `application`-scoped security setting: the user's value, else the default. Workspace and folder
 * values are ignored even when the editor would merge them (old hosts merged nested-object forms).
 */
export function userValue<T>(inspection: Inspection<T> | undefined, fallback: T): T {
  if (!inspection) return fallback;
  if (inspection.globalValue !== undefined) return inspection.globalValue;
  if (inspection.defaultValue !== undefined) return inspection.defaultValue;
  return fallback;
}

/** The user settings of Slashi that change what runs. */
export interface SecuritySettings {
  /** Path of the person's policy file; `""` for the default. */
  policyFile: string;
  /** Ask before every command with steps that act on the machine. */
  confirmBeforeRunning: boolean;
  /** How long a terminal step waits for shell integration (ms). */
  shellIntegrationTimeout: number;
  /** Pack registries; empty for the defaults. */
  registries: unknown[];
}

/** Reads {@link SecuritySettings} through `inspect`, user values only; wrong types fall back to the defaults. */
export function readSecuritySettings(
  inspect: <T>(key: string) => Inspection<T> | undefined,
): SecuritySettings {
  const policyFile = userValue<unknown>(inspect("policyFile"), "");
  const confirm = userValue<unknown>(inspect("confirmBeforeRunning"), false);
  const timeout = userValue<unknown>(inspect("shellIntegrationTimeout"), 5000);
  const registries = userValue<unknown>(inspect("registries"), []);
  return {
    policyFile: typeof policyFile === "string" ? policyFile : "",
    confirmBeforeRunning: confirm === true,
    shellIntegrationTimeout:
      typeof timeout === "number" && Number.isFinite(timeout) ? Math.min(Math.max(timeout, 0), 60_000) : 5000,
    registries: Array.isArray(registries) ? registries : [],
  };
}
