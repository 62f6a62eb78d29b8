import type { ViteUserConfig } from "vitest/config";

/**
 * Builds a package's vitest project config: resolution of workspace packages to their TypeScript sources (the
 * `@slashi/source` condition), tests under `src/` and `test/`, generous timeouts for a loaded CI machine, and a
 * JSON report (`.test-results.json`) the root summary counts. It does not set a global setup or aliases: pass
 * those in `overrides` or spread the result.
 * @param name - the project name vitest prints
 * @param overrides - settings that replace the shared `test` settings of the same name
 */
export function slashiProject(name: string, overrides?: ViteUserConfig["test"]): ViteUserConfig;
