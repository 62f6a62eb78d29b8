import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { publicPackages, readJson, ROOT, type Manifest } from "./workspace.js";

/** What a copy leaves out: installed dependencies (linked instead), caches, test reports. */
const LEFT_OUT = new Set(["node_modules", ".turbo", ".test-results.json", ".e2e-results.json"]);

/**
 * A copy of the workspace to cut a release in, so `changeset version` never touches the clone: the root
 * manifest, `pnpm-workspace.yaml` and `.changeset/`, every public package with its sources and built `dist/`,
 * and the manifest of every private package (pnpm resolves `workspace:` ranges against them). Installed
 * dependencies are links to the clone's, so nothing is downloaded. Build the workspace first.
 * @param dir - an empty directory
 * @param npmrc - the `.npmrc` of the copy (registry, token)
 */
export function stageCheckout(dir: string, npmrc: string): void {
  mkdirSync(dir, { recursive: true });
  for (const file of ["package.json", "pnpm-workspace.yaml", "pnpm-lock.yaml", ".changeset"]) {
    cpSync(path.join(ROOT, file), path.join(dir, file), { recursive: true });
  }
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  writeFileSync(path.join(dir, ".npmrc"), npmrc);
  const published = new Set(publicPackages().map((p) => p.dir));
  for (const group of ["packages", "apps"]) {
    for (const name of readdirSync(path.join(ROOT, group))) {
      const from = path.join(ROOT, group, name);
      const to = path.join(dir, group, name);
      if (!existsSync(path.join(from, "package.json"))) continue;
      mkdirSync(to, { recursive: true });
      if (!published.has(from)) {
        cpSync(path.join(from, "package.json"), path.join(to, "package.json"));
        continue;
      }
      cpSync(from, to, { recursive: true, filter: (source) => !LEFT_OUT.has(path.basename(source)) });
      if (existsSync(path.join(from, "node_modules"))) {
        symlinkSync(path.join(from, "node_modules"), path.join(to, "node_modules"));
      }
    }
  }
}

/** Runs the workspace's changesets CLI in a checkout. */
export function changeset(dir: string, args: readonly string[], env: NodeJS.ProcessEnv): string {
  const bin = path.join(ROOT, "node_modules", "@changesets", "cli", "bin.js");
  return execFileSync(process.execPath, [bin, ...args], { cwd: dir, env, encoding: "utf8", stdio: "pipe" });
}

/**
 * Rebuilds the bundled commands of a checkout (their version is written into the bundle at build time, so a
 * release builds after `changeset version`). The libraries' compiled files carry no version.
 */
export function rebuildCommands(dir: string, env: NodeJS.ProcessEnv): void {
  for (const p of publicPackages().filter((q) => !q.library)) {
    const copy = path.join(dir, path.relative(ROOT, p.dir));
    execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: copy, env, stdio: "pipe" });
  }
}

/** Versions of the public packages in a checkout, by name. */
export function checkoutVersions(dir: string): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const p of publicPackages()) {
    const manifest = readJson<Manifest>(path.join(dir, path.relative(ROOT, p.dir), "package.json"));
    versions[manifest.name] = manifest.version;
  }
  return versions;
}
