import { slashiProject } from "../../vitest.shared.js";

export default slashiProject("test-utils");
