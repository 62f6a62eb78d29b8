/**
 * Starts two real verdaccio registries on loopback for the end-to-end tests, one over HTTP and one over HTTPS
 * with a certificate made here by openssl, each with its own storage and a user whose token the tests use.
 * Verdaccio comes from e2e/registry (run e2e/registry/install.sh). Without it the tests are skipped, unless CI
 * is set, then the run fails.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  startRegistry,
  stopRegistry,
  verdaccioBin,
  verdaccioUnavailable,
} from "@slashi/test-utils/verdaccio";
import type { RunningRegistry } from "@slashi/test-utils/verdaccio";
import { underCi } from "@slashi/test-utils";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The registries, or the reason they are not available. */
    registries: { http: RunningRegistry; https?: RunningRegistry; httpsSkip?: string } | { skip: string };
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const message = verdaccioUnavailable();
  if (message !== undefined) {
    console.warn(`[registry-client] skipping the registry tests: ${message}`);
    project.provide("registries", { skip: message });
    return async () => undefined;
  }
  const root = await mkdtemp(path.join(tmpdir(), "slashi-verdaccio-"));
  const started: RunningRegistry[] = [];
  try {
    const http = await startRegistry({ bin: verdaccioBin, dir: path.join(root, "http"), tls: false });
    started.push(http);
    let https: RunningRegistry | undefined;
    let httpsSkip: string | undefined;
    try {
      https = await startRegistry({ bin: verdaccioBin, dir: path.join(root, "https"), tls: true });
      started.push(https);
    } catch (error) {
      // The HTTPS registry needs openssl to make its certificate.
      if (underCi()) throw error;
      httpsSkip = `the HTTPS registry did not start: ${(error as Error).message}`;
      console.warn(`[registry-client] skipping the HTTPS registry tests: ${httpsSkip}`);
    }
    project.provide("registries", { http, ...(https ? { https } : {}), ...(httpsSkip ? { httpsSkip } : {}) });
  } catch (error) {
    for (const registry of started) await stopRegistry(registry);
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  return async () => {
    for (const registry of started) await stopRegistry(registry);
    await rm(root, { recursive: true, force: true });
  };
}
