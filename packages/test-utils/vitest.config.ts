import { slashiProject } from "@slashi/vitest-config";

export default slashiProject("test-utils");
