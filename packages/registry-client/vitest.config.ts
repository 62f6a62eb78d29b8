import { slashiProject } from "@slashi/vitest-config";

// The end-to-end tests talk to a real verdaccio that the global setup starts on loopback and stops afterwards.
export default slashiProject("registry-client", {
  globalSetup: ["./test/global-setup.ts"],
});
