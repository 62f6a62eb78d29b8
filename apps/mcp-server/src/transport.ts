/**
 * The stdio transport: newline-delimited JSON-RPC on stdin and stdout, like the SDK's own, except that bad input
 * is answered instead of dropped. A line that is not JSON gets a `-32700` parse error; JSON that is not a
 * JSON-RPC message gets `-32600` (with the request's id when it has a usable one, else `null`); a line longer
 * than the limit is skipped up to its newline and answered with `-32600`. The connection stays open in every
 * case, so one bad line never takes the server down.
 */
import type { Readable, Writable } from "node:stream";
import {
  parseJSONRPCMessage,
  serializeMessage,
  type JSONRPCMessage,
  type Transport,
} from "@modelcontextprotocol/server";

/** JSON-RPC error codes the transport answers with. */
export const PARSE_ERROR = -32700;
/** The message is JSON but not a valid JSON-RPC message. */
export const INVALID_REQUEST = -32600;

/** Default longest line: 16 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

function idOf(value: unknown): string | number | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}

/** Newline-delimited JSON-RPC over a pair of streams that answers malformed input. */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  readonly #in: Readable;
  readonly #out: Writable;
  readonly #maxLineBytes: number;
  #chunks: Buffer[] = [];
  #size = 0;
  #skipping = false;
  #started = false;
  #closed = false;

  /**
   * @param input - where requests arrive (default stdin)
   * @param output - where answers go (default stdout)
   * @param maxLineBytes - longest accepted line
   */
  constructor(
    input: Readable = process.stdin,
    output: Writable = process.stdout,
    maxLineBytes = DEFAULT_MAX_LINE_BYTES,
  ) {
    this.#in = input;
    this.#out = output;
    this.#maxLineBytes = maxLineBytes;
  }

  readonly #onData = (chunk: Buffer): void => {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl < 0) {
        this.#keep(chunk.subarray(start));
        return;
      }
      this.#keep(chunk.subarray(start, nl));
      const skipped = this.#skipping;
      const line = skipped ? undefined : Buffer.concat(this.#chunks, this.#size).toString("utf8");
      this.#chunks = [];
      this.#size = 0;
      this.#skipping = false;
      if (skipped)
        this.#reject(
          null,
          INVALID_REQUEST,
          `Invalid Request: the message is longer than ${this.#maxLineBytes} bytes`,
        );
      else this.#line(line as string);
      start = nl + 1;
    }
  };

  readonly #onEnd = (): void => {
    void this.close();
  };

  readonly #onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  readonly #onOutputError = (error: Error): void => {
    if (this.#closed) return;
    this.onerror?.(error);
    void this.close();
  };

  #keep(part: Buffer): void {
    if (this.#skipping || part.length === 0) return;
    if (this.#size + part.length > this.#maxLineBytes) {
      this.#chunks = [];
      this.#size = 0;
      this.#skipping = true;
      return;
    }
    this.#chunks.push(part);
    this.#size += part.length;
  }

  #line(raw: string): void {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.#reject(null, PARSE_ERROR, `Parse error: ${(error as Error).message}`);
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      // Notifications and responses get no answer in JSON-RPC; anything with an id or without a method does.
      const isNotification =
        typeof value === "object" &&
        value !== null &&
        !Array.isArray(value) &&
        "method" in value &&
        !("id" in value);
      if (isNotification) {
        this.onerror?.(new Error("dropped an invalid notification"));
        return;
      }
      this.#reject(
        idOf(value),
        INVALID_REQUEST,
        "Invalid Request: not a JSON-RPC 2.0 request, notification or response",
      );
      return;
    }
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  #reject(id: string | number | null, code: number, message: string): void {
    this.onerror?.(new Error(message));
    if (this.#closed) return;
    // The error response shape of JSON-RPC 2.0; `id` is null when the request's id could not be read.
    this.#out.write(`${JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } })}\n`);
  }

  /** Starts reading. */
  async start(): Promise<void> {
    if (this.#started) throw new Error("the transport is already started");
    this.#started = true;
    if (this.#in.readableEnded || this.#in.destroyed) setImmediate(this.#onEnd);
    this.#in.on("data", this.#onData);
    this.#in.on("error", this.#onInputError);
    this.#in.on("end", this.#onEnd);
    this.#in.on("close", this.#onEnd);
    this.#out.on("error", this.#onOutputError);
  }

  /** Writes one message as a line. */
  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("the transport is closed"));
    return new Promise((resolve, reject) => {
      const text = serializeMessage(message);
      if (this.#out.write(text, (error) => (error ? reject(error) : undefined))) resolve();
      else this.#out.once("drain", () => resolve());
    });
  }

  /** Stops reading and reports the close. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#in.off("data", this.#onData);
    this.#in.off("error", this.#onInputError);
    this.#in.off("end", this.#onEnd);
    this.#in.off("close", this.#onEnd);
    if (this.#in.listenerCount("data") === 0) this.#in.pause();
    this.#chunks = [];
    this.onclose?.();
  }
}
