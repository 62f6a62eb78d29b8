export {
  pack,
  publicPackages,
  readJson,
  ROOT,
  tarballFile,
  tarballFiles,
  tarballManifest,
} from "./workspace.js";
export type { Manifest, PublicPackage } from "./workspace.js";
export { tarballProblems } from "./tarball-checks.js";
