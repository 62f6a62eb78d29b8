import type { Manifest } from "./workspace.js";

/** Dependency fields npm installs for a consumer (devDependencies are never installed from a registry). */
const INSTALLED_FIELDS = ["dependencies", "optionalDependencies", "peerDependencies"] as const;

/** Every file path an `exports` map or `bin` names, in any condition. */
function namedFiles(manifest: Manifest): string[] {
  const targets: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "string") targets.push(value);
    else if (value !== null && typeof value === "object") for (const v of Object.values(value)) walk(v);
  };
  walk(manifest.exports);
  walk(manifest.bin);
  return targets.map((t) => t.replace(/^\.\//, ""));
}

/**
 * What is wrong with a packed manifest and its file list, as sentences (empty when nothing is). Covers what
 * publint and arethetypeswrong do not: an export condition naming a file left out of the tarball, a range only
 * the workspace understands, a dependency that is never published, and the publishing fields this project
 * requires of every public package, with the licence text the `license` field refers to.
 * @param published - names of the packages the release publishes; the only `@slashi/*` names a manifest may need
 */
export function tarballProblems(
  manifest: Manifest,
  files: readonly string[],
  published: readonly string[],
): string[] {
  const problems: string[] = [];
  const present = new Set(files);
  for (const file of namedFiles(manifest)) {
    if (!present.has(file)) problems.push(`exports or bin name ${file}, which is not in the tarball`);
  }
  if (manifest.license === undefined) problems.push("no license");
  if (!files.some((file) => /^LICEN[CS]E(\.(md|txt))?$/i.test(file))) problems.push("no LICENSE file");
  if (manifest.engines?.node === undefined) problems.push("no engines.node");
  if (manifest.repository?.type !== "git" || manifest.repository.directory === undefined) {
    problems.push("no repository with type git and the package's directory");
  }
  if (manifest.files === undefined)
    problems.push("no files list (everything in the folder would be published)");
  if (manifest.exports === undefined) problems.push("no exports map");
  if (manifest.private === true) problems.push("private");
  for (const field of INSTALLED_FIELDS) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (/^(workspace|link|file|portal):/.test(range)) problems.push(`${field}.${name} is ${range}`);
      if (name.startsWith("@slashi/") && !published.includes(name)) {
        problems.push(`${field}.${name} is never published`);
      }
    }
  }
  return problems;
}
