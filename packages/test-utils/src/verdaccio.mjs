// Starts and stops a real verdaccio on loopback: config, storage, optional TLS certificate (openssl), a free
// port, a user and its token. Shared by every test that needs a registry and by the packs benchmark; plain
// JavaScript so a benchmark run by Node itself can import it.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, openSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The verdaccio that `e2e/registry/install.sh` installs. */
export const verdaccioBin = fileURLToPath(
  new URL("../../../e2e/registry/node_modules/.bin/verdaccio", import.meta.url),
);

/**
 * Why no local registry can be started here (verdaccio is not installed), or `undefined` when one can. With
 * `CI` set a missing verdaccio throws instead: CI installs it, so its absence is a failure, not a skip.
 * @returns the reason to skip, or `undefined`
 */
export function verdaccioUnavailable() {
  if (existsSync(verdaccioBin)) return undefined;
  const message = `verdaccio is not installed (${verdaccioBin}); run e2e/registry/install.sh`;
  // as `underCi` (tools.ts) reads CI; this file stays plain JavaScript for the benchmarks
  const ci = process.env.CI?.trim().toLowerCase();
  if (ci !== undefined && !["", "0", "false"].includes(ci)) throw new Error(message);
  return message;
}

/** A free TCP port on 127.0.0.1 (bound, read, released). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function call(url, { method = "GET", body, ca, headers = {} } = {}) {
  const parsed = new URL(url);
  const request = parsed.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      parsed,
      {
        method,
        headers: { "content-type": "application/json", ...headers },
        ...(ca ? { ca } : {}),
        timeout: 5000,
      },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * Starts verdaccio in `dir` and waits for `/-/ping`, then creates user `ci` and returns its token.
 * @param {{ bin: string, dir: string, tls: boolean }} options
 */
export async function startRegistry({ bin, dir, tls }) {
  await mkdir(path.join(dir, "storage"), { recursive: true });
  let ca;
  let https = "";
  if (tls) {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "tls-key.pem",
        "-out",
        "tls-cert.pem",
        "-days",
        "2",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1,DNS:localhost",
      ],
      { cwd: dir, stdio: "ignore" },
    );
    ca = (await import("node:fs")).readFileSync(path.join(dir, "tls-cert.pem"), "utf8");
    https = "https:\n  key: ./tls-key.pem\n  cert: ./tls-cert.pem\n";
  }
  await writeFile(
    path.join(dir, "config.yaml"),
    [
      "storage: ./storage",
      "auth:\n  htpasswd:\n    file: ./htpasswd\n    max_users: 100",
      "uplinks: {}",
      "packages:",
      "  '@*/*': { access: $all, publish: $authenticated, unpublish: $authenticated }",
      "  '**': { access: $all, publish: $authenticated, unpublish: $authenticated }",
      "web: { enable: false }",
      // JWT tokens: verdaccio's legacy tokens re-check the htpasswd (bcrypt) on every request.
      "security:\n  api:\n    jwt:\n      sign:\n        expiresIn: 1d",
      "max_body_size: 64mb",
      "log: { type: stdout, format: pretty, level: warn }",
      https,
    ].join("\n"),
  );
  const port = await freePort();
  const url = `${tls ? "https" : "http"}://127.0.0.1:${port}/`;
  const log = openSync(path.join(dir, "verdaccio.log"), "a");
  const child = spawn(bin, ["--config", path.join(dir, "config.yaml"), "--listen", url], {
    cwd: dir,
    detached: true,
    stdio: ["ignore", log, log],
  });
  const registry = {
    url,
    pid: child.pid,
    dir,
    caFile: tls ? path.join(dir, "tls-cert.pem") : undefined,
    token: "",
  };
  let exited = false;
  child.on("exit", () => (exited = true));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`verdaccio exited while starting; see ${path.join(dir, "verdaccio.log")}`);
    try {
      const ping = await call(`${url}-/ping`, { ca });
      if (ping.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      stopRegistry(registry);
      throw new Error(`verdaccio did not answer on ${url} within 60 s`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  const user = await call(`${url}-/user/org.couchdb.user:ci`, {
    method: "PUT",
    ca,
    body: JSON.stringify({
      name: "ci",
      password: "ci-password-1",
      email: "ci@example.invalid",
      type: "user",
    }),
  });
  const token = JSON.parse(user.body).token;
  if (typeof token !== "string") throw new Error(`verdaccio did not create the user: ${user.status}`);
  registry.token = token;
  return registry;
}

/** Stops a registry: SIGTERM to its process group, then SIGKILL if it is still there. */
export async function stopRegistry(registry) {
  const alive = () => {
    try {
      process.kill(-registry.pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  try {
    process.kill(-registry.pid, "SIGTERM");
  } catch {
    return;
  }
  for (let i = 0; i < 40 && alive(); i++) await new Promise((r) => setTimeout(r, 50));
  if (alive()) {
    try {
      process.kill(-registry.pid, "SIGKILL");
    } catch {
      // gone
    }
  }
}
