/** Helpers for the registry tests: raw publishing, directory snapshots and a tampering proxy. */
import { createHash } from "node:crypto";
import { readFile, readdir, lstat } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import {
  PackManager,
  RegistryClient,
  createTarball,
  publishDocument,
  resolveRegistry,
} from "../src/index.js";
import type { TarEntry } from "../src/index.js";
import type { RunningRegistry } from "@slashi/test-utils/verdaccio";

/** A pack manager on a registry, with the registry's token in a fake environment. */
export async function managerFor(
  registry: { url: string; caFile?: string },
  packsDir: string,
  token?: string,
  options: { maxUnpackedBytes?: number } = {},
): Promise<PackManager> {
  const resolved = await resolveRegistry({
    url: registry.url,
    token: { env: "E2E_REGISTRY_TOKEN" },
    ...(registry.caFile ? { ca: registry.caFile } : {}),
  });
  return new PackManager({
    packsDir,
    registries: [resolved],
    tokenEnvironment: { env: token === undefined ? {} : { E2E_REGISTRY_TOKEN: token } },
    ...(options.maxUnpackedBytes === undefined
      ? {}
      : { limits: { maxUnpackedBytes: options.maxUnpackedBytes } }),
  });
}

/** A valid manifest with one terminal command. */
export function manifestText(command = "echo pack-ran"): string {
  return JSON.stringify({
    version: 1,
    commands: [
      { name: "say", description: "Print a word", steps: [{ type: "terminal", command }] },
      { name: "hello", steps: [{ type: "notify", message: "hi" }] },
    ],
    policy: { version: 1, rules: [{ match: ["terraform", "apply"], decision: "deny", reason: "CI only" }] },
  });
}

/**
 * Publishes a tarball built from raw entries (which may be hostile), bypassing every client-side check.
 * `package.json` is added first unless `packageJson` is null.
 */
export async function publishRaw(
  registry: RunningRegistry,
  name: string,
  version: string,
  entries: TarEntry[],
  packageJson: Record<string, unknown> | null = { keywords: ["slashi-pack"] },
): Promise<void> {
  const raw = { name, version, ...(packageJson ?? {}) };
  const all: TarEntry[] =
    packageJson === null
      ? entries
      : [{ path: "package/package.json", data: Buffer.from(JSON.stringify(raw)) }, ...entries];
  const tarball = createTarball(all);
  const client = new RegistryClient(
    await resolveRegistry({ url: registry.url, ...(registry.caFile ? { ca: registry.caFile } : {}) }),
    {
      token: registry.token,
    },
  );
  await client.publish(name, publishDocument({ name, version, raw }, tarball, registry.url));
}

/** Every path under a folder with a digest of each file's bytes (symlinks shown as such), sorted. */
export async function snapshot(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    const full = path.join(dir, rel);
    let entries: string[];
    try {
      entries = await readdir(full);
    } catch {
      return;
    }
    for (const entry of entries.sort()) {
      const child = path.join(rel, entry);
      const info = await lstat(path.join(dir, child));
      if (info.isDirectory()) {
        out.push(`${child}/`);
        await walk(child);
      } else if (info.isSymbolicLink()) {
        out.push(`${child} -> link`);
      } else {
        const digest = createHash("sha256")
          .update(await readFile(path.join(dir, child)))
          .digest("hex");
        out.push(`${child} ${info.mode.toString(8)} ${digest}`);
      }
    }
  };
  await walk("");
  return out;
}

/** How the proxy alters what verdaccio answers. */
export type Tamper =
  | { kind: "tarball-bytes" }
  | { kind: "integrity"; integrity: string }
  | { kind: "tarball-url"; url: string }
  | {
      kind: "sign";
      keys: unknown;
      sign: (name: string, version: string, integrity: string) => { keyid: string; sig: string }[];
    };

/**
 * A loopback HTTP proxy in front of a verdaccio that alters answers: flips a byte of every tarball, replaces
 * `dist.integrity` or `dist.tarball`, or serves signing keys and signs versions.
 */
export async function startProxy(
  upstream: string,
  tamper: Tamper,
): Promise<{ url: string; close: () => Promise<void> }> {
  const target = new URL(upstream);
  const server = http.createServer((req, res) => {
    const self = `http://${req.headers.host}/`;
    if (tamper.kind === "sign" && req.url === "/-/npm/v1/keys") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ keys: tamper.keys }));
      return;
    }
    const forward = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: req.headers.host, "accept-encoding": "identity" },
      },
      (up) => {
        const chunks: Buffer[] = [];
        up.on("data", (c: Buffer) => chunks.push(c));
        up.on("end", () => {
          let body = Buffer.concat(chunks);
          const type = String(up.headers["content-type"] ?? "");
          if (tamper.kind === "tarball-bytes" && req.url?.endsWith(".tgz") && body.length > 20) {
            body = Buffer.from(body);
            body[body.length - 10] = (body[body.length - 10] as number) ^ 0xff;
          } else if (type.includes("json") && up.statusCode === 200 && !req.url?.startsWith("/-/")) {
            const doc = JSON.parse(body.toString("utf8")) as {
              name: string;
              versions?: Record<string, { version: string; dist: Record<string, unknown> }>;
            };
            for (const version of Object.values(doc.versions ?? {})) {
              version.dist.tarball = String(version.dist.tarball).replace(upstream, self);
              if (tamper.kind === "integrity") version.dist.integrity = tamper.integrity;
              if (tamper.kind === "tarball-url") version.dist.tarball = tamper.url;
              if (tamper.kind === "sign")
                version.dist.signatures = tamper.sign(
                  doc.name,
                  version.version,
                  String(version.dist.integrity),
                );
            }
            body = Buffer.from(JSON.stringify(doc));
          }
          const headers = { ...up.headers };
          delete headers["content-length"];
          delete headers["transfer-encoding"];
          delete headers["content-encoding"];
          delete headers.etag;
          res.writeHead(up.statusCode ?? 502, headers);
          res.end(body);
        });
      },
    );
    forward.on("error", () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
