import { execFileSync } from "node:child_process";
import { symlinkSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { scratchDir } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";
import { SlashiErrorCode, isSlashiError } from "@slashi/core";
import { npmrcToken, readToken } from "./token.js";

describe("npmrcToken", () => {
  const npmrc = [
    "registry=https://registry.npmjs.org/",
    "//127.0.0.1:4873/:_authToken=local-token",
    "//npm.acme.example/:_authToken=short",
    "//npm.acme.example/team/:_authToken=${ACME_TOKEN}",
  ].join("\n");

  it("takes the entry for the registry's host and port", () => {
    expect(npmrcToken(npmrc, "http://127.0.0.1:4873/")).toBe("local-token");
    expect(npmrcToken(npmrc, "http://127.0.0.1:4874/")).toBeUndefined();
  });

  it("prefers the longest matching path and expands ${VAR}", () => {
    expect(npmrcToken(npmrc, "https://npm.acme.example/team/", { ACME_TOKEN: "from-env" })).toBe("from-env");
    expect(npmrcToken(npmrc, "https://npm.acme.example/other/", {})).toBe("short");
  });
});

describe("readToken", () => {
  it("reads an environment variable", async () => {
    const registry = { url: "https://a.example/", token: { env: "PACK_TOKEN" } };
    expect(await readToken(registry, true, { env: { PACK_TOKEN: "t1" } })).toBe("t1");
  });

  it("reads ~/.npmrc by default", async () => {
    const home = scratchDir("slashi-home-");
    await writeFile(path.join(home, ".npmrc"), "//a.example/:_authToken=t2\n");
    expect(await readToken({ url: "https://a.example/" }, true, { home, env: {} })).toBe("t2");
  });

  // The test timeout is the hang guard: a plain read of a FIFO or of /dev/zero never returns.
  it.runIf(process.platform !== "win32")(
    "refuses a FIFO or a link to /dev/zero as ~/.npmrc, at once",
    { timeout: 20_000 },
    async () => {
      for (const plant of [
        (file: string) => execFileSync("mkfifo", [file]),
        (file: string) => symlinkSync("/dev/zero", file),
      ]) {
        const home = scratchDir("slashi-home-");
        plant(path.join(home, ".npmrc"));
        const code = await readToken({ url: "https://a.example/" }, false, { home, env: {} }).then(
          () => "resolved",
          (error: unknown) => (isSlashiError(error) ? error.code : String(error)),
        );
        expect(code).toBe(SlashiErrorCode.FILE_UNSAFE);
      }
    },
  );

  it("names the source, not a value, when a required token is missing", async () => {
    const registry = { url: "https://a.example/", token: { env: "PACK_TOKEN" } };
    try {
      await readToken(registry, true, { env: { OTHER: "secret-value" } });
      expect.unreachable();
    } catch (error) {
      expect(isSlashiError(error) && error.code).toBe(SlashiErrorCode.REGISTRY_FAILED);
      expect(String((error as Error).message)).toContain("environment variable PACK_TOKEN");
      expect(String((error as Error).message)).not.toContain("secret-value");
    }
  });

  it("returns undefined when a token is optional and missing", async () => {
    expect(
      await readToken({ url: "https://a.example/", token: { env: "NOPE" } }, false, { env: {} }),
    ).toBeUndefined();
  });
});
