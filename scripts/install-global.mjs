#!/usr/bin/env node
// Puts `slashi` and `slashi-mcp` on PATH from this clone: packs the two built apps and installs the tarballs with
// `npm install -g`, so the installed copies do not depend on the clone (remove it, rebuild it: they keep working).
// Run `pnpm build` first. npm's own settings apply (`npm_config_prefix` chooses where, as for any global install).
// Uninstall with: npm uninstall -g @slashi/cli @slashi/mcp-server
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const apps = [
  { dir: join(root, "apps", "cli"), bin: "dist/bin.js" },
  { dir: join(root, "apps", "mcp-server"), bin: "dist/bin.js" },
];
const missing = apps.filter((a) => !existsSync(join(a.dir, a.bin)));
if (missing.length > 0) {
  console.error(`not built: ${missing.map((a) => a.dir).join(", ")}; run \`pnpm build\` first`);
  process.exit(1);
}
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const out = mkdtempSync(join(tmpdir(), "slashi-pack-"));
try {
  const tarballs = apps.map((a) => {
    const name = execFileSync(npm, ["pack", "--silent", "--pack-destination", out], {
      cwd: a.dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    })
      .trim()
      .split("\n")
      .pop();
    return join(out, name);
  });
  execFileSync(npm, ["install", "--global", "--no-audit", "--no-fund", ...tarballs], { stdio: "inherit" });
  const prefix = execFileSync(npm, ["prefix", "--global"], { encoding: "utf8" }).trim();
  const bin = process.platform === "win32" ? prefix : join(prefix, "bin");
  console.log(`installed slashi and slashi-mcp in ${bin}`);
  console.log("uninstall with: npm uninstall -g @slashi/cli @slashi/mcp-server");
} finally {
  rmSync(out, { recursive: true, force: true });
}
