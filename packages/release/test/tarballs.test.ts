// Packs every public package as `pnpm publish` would and checks the tarball a registry would serve: publint,
// arethetypeswrong for the libraries, and this project's own rules (src/tarball-checks.ts).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { scratchDir } from "@slashi/test-utils";
import { beforeAll, describe, expect, it } from "vitest";
import { tarballProblems } from "../src/tarball-checks.js";
import {
  pack,
  publicPackages,
  tarballFile,
  tarballFiles,
  tarballManifest,
  type Manifest,
  type PublicPackage,
} from "../src/workspace.js";

const attw = fileURLToPath(new URL("../node_modules/.bin/attw", import.meta.url));
const packages = publicPackages();
const published = packages.map((p) => p.manifest.name);
const out = scratchDir("slashi-tarballs-");
const tarballs = new Map<string, string>();

beforeAll(() => {
  for (const p of packages) tarballs.set(p.manifest.name, pack(p.dir, out));
});

const tarballOf = (p: PublicPackage): string => tarballs.get(p.manifest.name)!;

describe("the public packages", () => {
  it("are the three libraries and the two commands", () => {
    expect(published.sort()).toEqual([
      "@slashi/cli",
      "@slashi/core",
      "@slashi/mcp-server",
      "@slashi/registry-client",
      "@slashi/runtime",
    ]);
  });
});

describe.each(packages.map((p) => [p.manifest.name, p] as const))("the tarball of %s", (_name, p) => {
  it("passes publint at its strictest", async () => {
    const bytes = readFileSync(tarballOf(p));
    const result = await publint({
      pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
      level: "suggestion",
      strict: true,
    });
    expect(result.messages.map((m) => `${m.code}: ${formatMessage(m, result.pkg) ?? ""}`)).toEqual([]);
  });

  it("has the publishing fields, packs every file it names, and needs nothing unpublished", () => {
    expect(tarballProblems(tarballManifest(tarballOf(p)), tarballFiles(tarballOf(p)), published)).toEqual([]);
  });

  it("exports the same entry points as the workspace manifest", () => {
    const source = JSON.parse(readFileSync(path.join(p.dir, "package.json"), "utf8")) as Manifest;
    expect(Object.keys(tarballManifest(tarballOf(p)).exports ?? {})).toEqual(
      Object.keys(source.exports ?? {}),
    );
  });

  if (p.library) {
    it("resolves its types for ES-module consumers (arethetypeswrong)", () => {
      const manifest = tarballManifest(tarballOf(p));
      const assets = Object.keys(manifest.exports ?? {}).filter((k) => /\.(wasm|json)$/.test(k));
      const args = [tarballOf(p), "--profile", "esm-only", "--format", "ascii"];
      if (assets.length > 0) args.push("--exclude-entrypoints", ...assets);
      let report = "";
      let status = 0;
      try {
        execFileSync(attw, args, { encoding: "utf8", stdio: "pipe" });
      } catch (error) {
        const e = error as { status: number; stdout: string; stderr: string };
        status = e.status;
        report = `${e.stdout}${e.stderr}`;
      }
      expect(report).toBe("");
      expect(status).toBe(0);
    });
  } else {
    it("declares no dependencies: the command is one bundle with its grammars beside it", () => {
      const manifest = tarballManifest(tarballOf(p));
      expect(manifest.dependencies ?? {}).toEqual({});
      const files = tarballFiles(tarballOf(p));
      expect(files).toEqual(
        expect.arrayContaining(["dist/tree-sitter-bash.wasm", "dist/web-tree-sitter.wasm"]),
      );
      for (const bin of Object.values(manifest.bin ?? {})) {
        expect(tarballFile(tarballOf(p), bin).startsWith("#!/usr/bin/env node")).toBe(true);
      }
    });
  }
});

describe("the core tarball", () => {
  it("carries the bash grammar next to its modules, so installing it needs no grammar package", () => {
    const core = packages.find((p) => p.manifest.name === "@slashi/core")!;
    const manifest = tarballManifest(tarballOf(core));
    expect(tarballFiles(tarballOf(core))).toContain("dist/tree-sitter-bash.wasm");
    expect(Object.keys(manifest.dependencies ?? {})).not.toContain("tree-sitter-bash");
  });
});

describe("the libraries, unpacked with only their declared dependencies", () => {
  it("load (the core's internal entry too), and the core decides with the grammar it ships", () => {
    const root = path.join(out, "consumer");
    const modules = path.join(root, "node_modules");
    mkdirSync(modules, { recursive: true });
    writeFileSync(path.join(root, "package.json"), JSON.stringify({ type: "module", private: true }));
    const libraries = packages.filter((p) => p.library);
    for (const p of libraries) {
      const target = path.join(modules, p.manifest.name);
      mkdirSync(target, { recursive: true });
      execFileSync("tar", ["-xzf", tarballOf(p), "-C", target, "--strip-components=1"]);
      // Each third-party dependency is linked to the copy the workspace installed for that package.
      for (const name of Object.keys(tarballManifest(tarballOf(p)).dependencies ?? {})) {
        const link = path.join(modules, name);
        if (name.startsWith("@slashi/") || existsSync(link)) continue;
        mkdirSync(path.dirname(link), { recursive: true });
        symlinkSync(realpathSync(path.join(p.dir, "node_modules", name)), link);
      }
    }
    const script = [
      ...libraries.map((p) => `await import(${JSON.stringify(p.manifest.name)});`),
      'const core = await import("@slashi/core");',
      "await core.loadShellParser();",
      'const internal = await import("@slashi/core/internal");',
      'if (typeof internal.sha256Hex !== "function") throw new Error("no @slashi/core/internal");',
      'const verdict = core.decide("rm -rf ~", core.resolvePolicy([]), { home: "/home/someone" });',
      "console.log(JSON.stringify(verdict.decision));",
    ].join("\n");
    const printed = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: root,
      encoding: "utf8",
    });
    expect(printed.trim()).toBe('"deny"');
  });
});
