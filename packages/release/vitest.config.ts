import { slashiProject } from "@slashi/vitest-config";

// The tarball checks pack every public package; the release test publishes and installs them twice.
export default slashiProject("release", { testTimeout: 240_000, hookTimeout: 240_000 });
