import { execFileSync } from "node:child_process";
import { symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { scratchDir } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";
import { SlashiErrorCode, isSlashiError } from "@slashi/core";
import type { SlashiError } from "@slashi/core";
import {
  DEFAULT_REGISTRY_URL,
  checkRegistryUrl,
  isLoopbackHost,
  loadRegistries,
  normalizeRegistryUrl,
  parseRegistries,
  registryFor,
  resolveRegistry,
} from "./config.js";

async function failure(fn: () => unknown): Promise<SlashiError> {
  try {
    await fn();
  } catch (error) {
    if (isSlashiError(error)) return error;
    throw error;
  }
  throw new Error("expected a SlashiError");
}

describe("registry URLs", () => {
  it.each(["localhost", "127.0.0.1", "127.3.2.1", "[::1]", "::1"])("treats %s as loopback", (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each(["10.0.0.1", "128.0.0.1", "localhost.evil.com", "127.0.0.1.nip.io", "0.0.0.0"])(
    "does not treat %s as loopback",
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );

  it("allows https anywhere and http on loopback only", () => {
    expect(normalizeRegistryUrl("https://npm.acme.example/npm")).toBe("https://npm.acme.example/npm/");
    expect(normalizeRegistryUrl("http://127.0.0.1:4873")).toBe("http://127.0.0.1:4873/");
  });

  it("refuses plain HTTP to another host", async () => {
    const error = await failure(() => checkRegistryUrl("http://npm.acme.example/"));
    expect(error.code).toBe(SlashiErrorCode.REGISTRY_INSECURE);
    expect(error.message).toContain("plain HTTP");
  });

  it("refuses credentials in the URL without repeating them", async () => {
    const error = await failure(() => checkRegistryUrl("https://bob:s3cret@npm.acme.example/"));
    expect(error.code).toBe(SlashiErrorCode.REGISTRY_INSECURE);
    expect(JSON.stringify([error.message, error.data])).not.toContain("s3cret");
  });

  it("refuses other schemes", async () => {
    expect((await failure(() => checkRegistryUrl("file:///tmp/x"))).code).toBe(
      SlashiErrorCode.REGISTRY_INSECURE,
    );
  });
});

describe("registries.json", () => {
  it("locates a plain-HTTP non-loopback URL in the file", async () => {
    const text = `{
  "version": 1,
  "registries": [
    { "url": "https://ok.example/" },
    { "url": "http://npm.acme.example/" },
  ],
}`;
    const error = await failure(() => parseRegistries(text, "registries.json"));
    expect(error.code).toBe(SlashiErrorCode.REGISTRY_INSECURE);
    expect(error.data).toMatchObject({ file: "registries.json", line: 5, jsonPath: "/registries/1/url" });
  });

  it("rejects an unknown field with its position", async () => {
    const error = await failure(() =>
      parseRegistries(`{"version":1,"registries":[{"url":"https://a.example/","password":"x"}]}`, "r.json"),
    );
    expect(error.code).toBe(SlashiErrorCode.SCHEMA_INVALID);
    expect(error.data.jsonPath).toBe("/registries/0/password");
  });

  it("falls back to the public registry without a file", async () => {
    const dir = scratchDir("slashi-reg-");
    expect((await loadRegistries(dir)).map((r) => r.url)).toEqual([DEFAULT_REGISTRY_URL]);
  });

  it("reads a CA file relative to the config dir and refuses one without a certificate", async () => {
    const dir = scratchDir("slashi-reg-");
    await writeFile(
      path.join(dir, "ca.pem"),
      "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
    );
    await writeFile(path.join(dir, "bad.pem"), "hello");
    const ok = await resolveRegistry({ url: "https://a.example", ca: "ca.pem" }, dir);
    expect(ok.caFile).toBe(path.join(dir, "ca.pem"));
    expect(ok.ca).toContain("BEGIN CERTIFICATE");
    const error = await failure(() => resolveRegistry({ url: "https://a.example", ca: "bad.pem" }, dir));
    expect(error.code).toBe(SlashiErrorCode.REGISTRY_INSECURE);
  });

  // The test timeout is the hang guard: a plain read of a FIFO or of /dev/zero never returns.
  it.runIf(process.platform !== "win32")(
    "refuses a FIFO as registries.json and /dev/zero as the CA file, at once",
    { timeout: 20_000 },
    async () => {
      const dir = scratchDir("slashi-reg-");
      execFileSync("mkfifo", [path.join(dir, "registries.json")]);
      expect((await failure(() => loadRegistries(dir))).code).toBe(SlashiErrorCode.FILE_UNSAFE);
      await symlink("/dev/zero", path.join(dir, "zero.pem"));
      const error = await failure(() => resolveRegistry({ url: "https://a.example", ca: "zero.pem" }, dir));
      expect(error.code).toBe(SlashiErrorCode.FILE_UNSAFE);
    },
  );

  it("picks the scoped registry for a scoped pack and the unscoped one otherwise", () => {
    const registries = [{ url: "https://public.example/" }, { url: "https://acme.example/", scope: "@acme" }];
    expect(registryFor("@acme/pack", registries).url).toBe("https://acme.example/");
    expect(registryFor("@other/pack", registries).url).toBe("https://public.example/");
    expect(registryFor("plain", registries).url).toBe("https://public.example/");
  });

  it("fails when only scoped registries exist for another pack", async () => {
    const error = await failure(() =>
      registryFor("plain", [{ url: "https://acme.example/", scope: "@acme" }]),
    );
    expect(error.code).toBe(SlashiErrorCode.REGISTRY_FAILED);
  });
});
