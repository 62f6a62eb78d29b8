// Shared vitest settings: every package's vitest.config.ts imports `slashiProject` from this package by name.
// Plain JavaScript, so vitest's config loader and Node read it without a build step and no emitted file can
// stand in for it. Workspace packages resolve to their TypeScript sources through the `@slashi/source` export
// condition, so tests never need a prior build of their dependencies.
import { defineConfig } from "vitest/config";

const conditions = ["@slashi/source", "node", "import", "module", "default"];

/**
 * Builds a package's vitest project config: source resolution, JSON report for the root summary.
 * @param {string} name
 * @param {import("vitest/config").ViteUserConfig["test"]} [overrides]
 * @returns {import("vitest/config").ViteUserConfig}
 */
export function slashiProject(name, overrides = {}) {
  return defineConfig({
    resolve: { conditions },
    ssr: { resolve: { conditions, externalConditions: conditions } },
    test: {
      name,
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      // Packages run in parallel on small CI machines, beside the execution oracle's bubblewrap runs: property
      // tests that start real shells take 15 s on a loaded 2-core machine and more in CI. A timeout only catches
      // a hang; it never measures speed (benchmarks do).
      testTimeout: 120_000,
      hookTimeout: 180_000,
      clearMocks: true,
      restoreMocks: true,
      reporters: ["default", ["json", { outputFile: ".test-results.json" }]],
      ...overrides,
    },
  });
}
