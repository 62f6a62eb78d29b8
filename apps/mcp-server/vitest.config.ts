import { slashiProject } from "@slashi/vitest-config";

// The tests drive the built server (dist/bin.js) over stdio; turbo builds it first (see turbo.json).
export default slashiProject("mcp-server");
