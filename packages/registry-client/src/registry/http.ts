/**
 * HTTP(S) requests to a registry through `node:http` / `node:https`, so a registry's own CA can be passed per
 * request (no process-wide environment variable). Every URL, redirects included, must pass
 * {@link checkRegistryUrl}; the token goes only to the registry's own origin; bodies are capped.
 */
import http from "node:http";
import https from "node:https";
import { SlashiError, SlashiErrorCode } from "@slashi/core";
import { checkRegistryUrl } from "./config.js";

/** One request. */
export interface HttpRequest {
  /** Method (default `GET`). */
  method?: "GET" | "PUT" | "DELETE";
  /** Headers to send (the token is added separately). */
  headers?: Record<string, string>;
  /** Body to send. */
  body?: Buffer | string;
  /** Bearer token, sent only to `tokenOrigin`. */
  token?: string;
  /** Origin (`https://host:port`) that may receive the token. */
  tokenOrigin?: string;
  /** Extra CA certificates (PEM). */
  ca?: string;
  /** Abort after this many milliseconds (default 30 000). */
  timeoutMs?: number;
  /** Most bytes of response body to accept (default 32 MiB). */
  maxBytes?: number;
  /** What is fetched, for messages (`the packument of @acme/pack`). */
  what: string;
}

/** A response: status, headers and the whole body. */
export interface HttpResponse {
  /** HTTP status. */
  status: number;
  /** Response headers (lower-case names). */
  headers: http.IncomingHttpHeaders;
  /** The body. */
  body: Buffer;
  /** The final URL after redirects. */
  url: string;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;
const MAX_REDIRECTS = 5;

function failed(message: string, data: Record<string, unknown>, cause?: unknown): SlashiError {
  return new SlashiError(
    SlashiErrorCode.REGISTRY_FAILED,
    message,
    data,
    cause === undefined ? undefined : { cause },
  );
}

/** The URL without query, for messages. */
function shown(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/**
 * One request. A kept-alive socket that the server closed while it sat idle resets the next request sent on it
 * before the server read it (Node's agents keep sockets alive); such a request is sent once more on a new socket.
 */
function once(url: URL, request: HttpRequest, retried = false): Promise<HttpResponse> {
  const maxBytes = request.maxBytes ?? DEFAULT_MAX_BYTES;
  const headers: Record<string, string> = { "user-agent": "slashi-registry-client", ...request.headers };
  if (request.token !== undefined && request.tokenOrigin === url.origin)
    headers.authorization = `Bearer ${request.token}`;
  if (request.body !== undefined) headers["content-length"] = String(Buffer.byteLength(request.body));
  const options: https.RequestOptions = {
    method: request.method ?? "GET",
    headers,
    timeout: request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ...(url.protocol === "https:" && request.ca !== undefined ? { ca: request.ca } : {}),
  };
  const transport = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(url, options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const declared = Number(res.headers["content-length"]);
      if (Number.isFinite(declared) && declared > maxBytes) {
        res.destroy();
        reject(
          failed(`${request.what}: the answer from ${shown(url)} is larger than ${maxBytes} bytes`, {
            url: shown(url),
            limit: maxBytes,
          }),
        );
        return;
      }
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          res.destroy();
          reject(
            failed(`${request.what}: the answer from ${shown(url)} is larger than ${maxBytes} bytes`, {
              url: shown(url),
              limit: maxBytes,
            }),
          );
          return;
        }
        chunks.push(chunk);
      });
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          url: url.toString(),
        }),
      );
      res.on("error", (error) =>
        reject(failed(`${request.what}: ${shown(url)}: ${error.message}`, { url: shown(url) }, error)),
      );
    });
    req.on("timeout", () => {
      req.destroy(
        failed(`${request.what}: ${shown(url)} did not answer within ${options.timeout} ms`, {
          url: shown(url),
        }),
      );
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (error instanceof SlashiError) {
        reject(error);
        return;
      }
      const code = error.code ?? "error";
      if (req.reusedSocket && code === "ECONNRESET" && !retried) {
        resolve(once(url, request, true));
        return;
      }
      const tls = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|TLS|SSL/i.test(code)
        ? " (the server's certificate is not trusted: give the registry's CA file in registries.json \"ca\")"
        : "";
      reject(
        failed(
          `${request.what}: cannot reach ${shown(url)}: ${code}${tls}`,
          { url: shown(url), cause: code },
          error,
        ),
      );
    });
    if (request.body !== undefined) req.end(request.body);
    else req.end();
  });
}

/**
 * Sends a request, following up to 5 redirects for GET; every URL is checked with {@link checkRegistryUrl}.
 * @throws SlashiError `REGISTRY_INSECURE` for a URL that is not allowed, `REGISTRY_FAILED` for network errors,
 *   timeouts and oversized answers (never with the token in the message)
 */
export async function httpRequest(url: string, request: HttpRequest): Promise<HttpResponse> {
  let current = checkRegistryUrl(url, `URL of ${request.what}`);
  for (let hop = 0; ; hop++) {
    const response = await once(current, request);
    const location = response.headers.location;
    if ((request.method ?? "GET") !== "GET" || response.status < 300 || response.status >= 400 || !location)
      return response;
    if (hop >= MAX_REDIRECTS) throw failed(`${request.what}: too many redirects`, { url: shown(current) });
    current = checkRegistryUrl(new URL(location, current).toString(), `redirect target of ${request.what}`);
  }
}
