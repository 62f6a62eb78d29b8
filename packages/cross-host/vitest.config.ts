import { slashiProject } from "@slashi/vitest-config";

// Drives the built `slashi` and `slashi-mcp` binaries (turbo builds them first, see turbo.json).
export default slashiProject("cross-host", { testTimeout: 120_000, hookTimeout: 300_000 });
