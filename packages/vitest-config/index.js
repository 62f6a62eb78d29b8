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
      // Packages run in parallel on small CI machines; property tests and real-process tests need headroom.
      testTimeout: 30_000,
      hookTimeout: 60_000,
      clearMocks: true,
      restoreMocks: true,
      reporters: ["default", ["json", { outputFile: ".test-results.json" }]],
      ...overrides,
    },
  });
}
