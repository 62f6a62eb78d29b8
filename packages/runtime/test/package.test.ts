import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import pkg from "../package.json" with { type: "json" };
import * as runtime from "../src/index.js";

describe("runtime package", () => {
  it("pins the core exactly (it uses @slashi/core/internal) and execa 9.6.1 (10.x needs Node 22)", () => {
    expect(pkg.dependencies["@slashi/core"]).toBe("workspace:*");
    expect(pkg.dependencies.execa).toBe("9.6.1");
  });

  it("exports one folder per concept from its entry point", () => {
    for (const name of [
      "discoverConfig",
      "findWorkspace",
      "checkManagedPolicy",
      "protectedPaths",
      "ApprovalFileStore",
      "TrustFileStore",
      "CommandApprovalFileStore",
      "JsonFileStore",
      "AuditLog",
      "readAudit",
      "runCommand",
      "scrubEnv",
      "cordonAvailability",
      "probeCordon",
      "wrapInCordon",
      "workspaceKeyOf",
    ]) {
      expect(runtime).toHaveProperty(name);
    }
  });

  it("names every export explicitly (no export *)", () => {
    const source = readFileSync(new URL("../src/index.ts", import.meta.url), "utf8");
    expect(source).not.toMatch(/export \*/);
  });
});
