/** A package with a guarded API: its folder (relative to the repository, or absolute) and its entry points. */
export interface ApiPackage {
  dir: string;
  entries: Record<string, string>;
}
/** The packages whose reports `pnpm api:check` compares. */
export const API_PACKAGES: readonly ApiPackage[];
/**
 * The report of one package, one block per entry point.
 * @throws Error when a public signature names a type only another entry point exports
 */
export function apiReport(pkg: ApiPackage): string;
/** Where a package's committed report lives. */
export function reportPath(pkg: ApiPackage): string;
