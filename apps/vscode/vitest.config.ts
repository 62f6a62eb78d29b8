import { fileURLToPath } from "node:url";
import type { ViteUserConfig } from "vitest/config";
import { slashiProject } from "@slashi/vitest-config";

// The `vscode` module exists only inside the editor: tests get a small stand-in with the surface the adapter uses.
const base = slashiProject("vscode");
const config: ViteUserConfig = {
  ...base,
  resolve: {
    ...base.resolve,
    alias: { vscode: fileURLToPath(new URL("./test/vscode-stub.ts", import.meta.url)) },
  },
};
export default config;
