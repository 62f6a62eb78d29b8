// The public API of @slashi/registry-client. Every export added here becomes public API: name it explicitly.
// Grouped by the folder that owns them.

// registry
export {
  DEFAULT_REGISTRY_URL,
  REGISTRIES_FILE,
  checkRegistryUrl,
  isLoopbackHost,
  loadRegistries,
  normalizeRegistryUrl,
  parseRegistries,
  registriesSchema,
  registryFor,
  resolveRegistry,
  scopeOf,
} from "./registry/config.js";
export type { RegistryConfig, ResolvedRegistry, TokenSource } from "./registry/config.js";
export { npmrcToken, readToken } from "./registry/token.js";
export type { TokenEnvironment } from "./registry/token.js";
export { httpRequest } from "./registry/http.js";
export type { HttpRequest, HttpResponse } from "./registry/http.js";
export {
  RegistryClient,
  assertPackName,
  encodePackName,
  isExactVersion,
  pickVersion,
} from "./registry/client.js";
export type {
  Packument,
  PackumentDist,
  PackumentVersion,
  RegistryClientOptions,
  SearchHit,
} from "./registry/client.js";

// verify
export { sha512Digests, tarballDigests, verifyIntegrity } from "./verify/integrity.js";
export type { TarballDigests } from "./verify/integrity.js";
export { signedMessage, verifySignature } from "./verify/signatures.js";
export type { DistSignature, RegistryKey, SignatureStatus } from "./verify/signatures.js";

// tar
export { DEFAULT_MAX_FILES, DEFAULT_MAX_UNPACKED_BYTES, packagePath, readTarball } from "./tar/read.js";
export type { TarFile, TarLimits } from "./tar/read.js";
export { createTarball } from "./tar/write.js";
export type { TarEntry } from "./tar/write.js";

// pack
export { ensureParserFor, parsePackPackageJson, readPackContent } from "./pack/content.js";
export type { PackContent, PackPackageJson } from "./pack/content.js";
export {
  PACK_POLICY_FORMAT,
  compareCommands,
  describeCommand,
  describePack,
  describeUpdateChanges,
  packPolicyFingerprint,
} from "./pack/describe.js";
export type {
  CommandChange,
  CommandChangeKind,
  DescribedCommand,
  DescribedStep,
  PackDescription,
  PackIdentity,
} from "./pack/describe.js";
export { PACKS_LOCK_FILE, PACKS_LOCK_FORMAT, readPacksLock, writePacksLock } from "./pack/lockfile.js";
export type { LockedPack, PacksLock } from "./pack/lockfile.js";
export { PackManager, defaultPacksDir, packDirName } from "./pack/manager.js";
export type {
  InstallResult,
  InstalledPack,
  PackInfo,
  PackManagerOptions,
  PreparedPack,
  UpdatePlan,
  UpdateResult,
} from "./pack/manager.js";
export { preparePublish, publishDocument, publishPack } from "./pack/publish.js";
export type { PublishablePack } from "./pack/publish.js";
export { scaffoldFiles, scaffoldPack } from "./pack/init.js";
export type { ScaffoldOptions } from "./pack/init.js";
export { loadInstalledPackLayers, loadPackPresets } from "./pack/presets.js";
export { loadInstalledPackCommands } from "./pack/commands.js";
export type { LoadPackPresetsOptions, PackPolicyIdentity } from "./pack/presets.js";
