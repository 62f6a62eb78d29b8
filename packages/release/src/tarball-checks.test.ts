import { describe, expect, it } from "vitest";
import { tarballProblems } from "./tarball-checks.js";
import type { Manifest } from "./workspace.js";

const good: Manifest = {
  name: "@slashi/lib",
  version: "1.2.3",
  license: "MIT",
  engines: { node: ">=20.19" },
  repository: { type: "git", directory: "packages/lib" },
  files: ["dist"],
  exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" } },
  dependencies: { "@slashi/core": "^1.2.3", ajv: "8.20.0" },
  devDependencies: { "@slashi/conformance": "workspace:*" },
};
const files = ["package.json", "LICENSE", "dist/index.js", "dist/index.d.ts"];
const published = ["@slashi/core", "@slashi/lib"];

describe("tarballProblems", () => {
  it("passes a complete manifest whose files are all packed (devDependencies are not installed)", () => {
    expect(tarballProblems(good, files, published)).toEqual([]);
  });

  it("names an export condition whose file was left out, in any condition", () => {
    const manifest = {
      ...good,
      exports: { ".": { "@slashi/source": "./src/index.ts", ...(good.exports!["."] as object) } },
    };
    expect(tarballProblems(manifest, files, published)).toEqual([
      "exports or bin name src/index.ts, which is not in the tarball",
    ]);
  });

  it("names a bin that is not packed", () => {
    expect(tarballProblems({ ...good, bin: { x: "./dist/bin.js" } }, files, published)).toHaveLength(1);
  });

  it("names workspace-only ranges and unpublished workspace packages a consumer would install", () => {
    const manifest = {
      ...good,
      dependencies: { "@slashi/core": "workspace:^", "@slashi/conformance": "0.0.0" },
      peerDependencies: { x: "link:../x" },
    };
    expect(tarballProblems(manifest, files, published)).toEqual([
      "dependencies.@slashi/core is workspace:^",
      "dependencies.@slashi/conformance is never published",
      "peerDependencies.x is link:../x",
    ]);
  });

  it("names a tarball without the licence text", () => {
    expect(
      tarballProblems(
        good,
        files.filter((f) => f !== "LICENSE"),
        published,
      ),
    ).toEqual(["no LICENSE file"]);
    expect(tarballProblems(good, ["LICENSE.md", ...files.slice(2)], published)).toEqual([]);
  });

  it("names each missing publishing field", () => {
    const { license: _l, engines: _e, repository: _r, files: _f, exports: _x, ...bare } = good;
    expect(tarballProblems({ ...bare, private: true }, files, published)).toHaveLength(6);
  });
});
