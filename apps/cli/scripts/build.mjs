// Placeholder build until the CLI lands: bundles src/bin.ts with esbuild.
import { build } from "esbuild";

await build({
  entryPoints: ["src/bin.ts"],
  outfile: "dist/bin.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "bundle",
  logLevel: "warning",
});
