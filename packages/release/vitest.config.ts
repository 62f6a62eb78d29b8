import { slashiProject } from "@slashi/vitest-config";

// The tarball checks pack every public package; the release test publishes and installs them twice. The
// timeouts only guard against a hang on a loaded machine.
export default slashiProject("release", { testTimeout: 480_000, hookTimeout: 240_000 });
