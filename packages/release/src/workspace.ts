import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The monorepo's root directory. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** A package.json as far as publishing reads it. */
export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  engines?: Record<string, string>;
  repository?: { type?: string; url?: string; directory?: string };
  files?: string[];
  bin?: Record<string, string>;
  exports?: Record<string, unknown>;
  publishConfig?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** A workspace package that is published: its folder, its manifest, and whether it ships types (a library). */
export interface PublicPackage {
  dir: string;
  manifest: Manifest;
  library: boolean;
}

/** Reads a JSON file. */
export function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, "utf8")) as T;
}

/**
 * Every workspace package without `"private": true`, libraries first. Derived from the folders, so a new public
 * package is checked and released without being listed anywhere; the extension is private (it ships as a .vsix).
 */
export function publicPackages(): PublicPackage[] {
  const found: PublicPackage[] = [];
  for (const group of ["packages", "apps"]) {
    for (const name of readdirSync(path.join(ROOT, group)).sort()) {
      const dir = path.join(ROOT, group, name);
      const file = path.join(dir, "package.json");
      if (!existsSync(file)) continue;
      const manifest = readJson<Manifest>(file);
      if (manifest.private === true) continue;
      found.push({ dir, manifest, library: manifest.bin === undefined });
    }
  }
  return found.sort((a, b) => Number(b.library) - Number(a.library));
}

/**
 * Packs a package with pnpm (which applies `publishConfig` and rewrites `workspace:` ranges, as `pnpm publish`
 * does) into `destination` and returns the tarball's path.
 */
export function pack(dir: string, destination: string): string {
  const out = execFileSync("pnpm", ["pack", "--json", "--pack-destination", destination], {
    cwd: dir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const report = JSON.parse(out) as { filename: string } | { filename: string }[];
  const filename = Array.isArray(report) ? report[0]!.filename : report.filename;
  return path.isAbsolute(filename) ? filename : path.join(destination, filename);
}

/** The paths inside a tarball, without npm's `package/` prefix. */
export function tarballFiles(tarball: string): string[] {
  return execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => line.replace(/^package\//, ""));
}

/** One file of a tarball as text; `file` is relative to the package root. */
export function tarballFile(tarball: string, file: string): string {
  return execFileSync("tar", ["-xzOf", tarball, `package/${file.replace(/^\.\//, "")}`], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
}

/** The manifest inside a tarball: what a registry serves and what `npm install` reads. */
export function tarballManifest(tarball: string): Manifest {
  return JSON.parse(tarballFile(tarball, "package.json")) as Manifest;
}
