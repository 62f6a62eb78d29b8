import { slashiProject } from "@slashi/vitest-config";

// One oracle run drives thousands of lines through bubblewrap: give it minutes, not the default seconds.
export default slashiProject("oracle", { testTimeout: 2_700_000, hookTimeout: 2_700_000 });
