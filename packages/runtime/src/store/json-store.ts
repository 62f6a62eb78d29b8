import { copyFile } from "node:fs/promises";
import { parse, printParseErrorCode, type ParseError } from "jsonc-parser";
import { isSlashiError, SlashiError, SlashiErrorCode } from "@slashi/core";
import { readBoundedText } from "../fs/bounded-read.js";
import { writeFileAtomic } from "./atomic-write.js";
import { withFileLock, type LockOptions } from "./lock.js";

/** Every store file starts with these two fields. */
export interface StoreEnvelope {
  /** Format version of the file; an unknown version is an error, never a silent reset. */
  version: number;
  /** Which store this file is (`slashi.approvals`, …), so one store's file is never read as another's. */
  kind: string;
}

/** A shape problem: what is wrong and where (JSON Pointer). */
export interface ShapeProblem {
  /** JSON Pointer of the offending value. */
  jsonPath: string;
  /** What is wrong. */
  message: string;
}

/** How to build a {@link JsonFileStore}. */
export interface JsonStoreOptions<T extends StoreEnvelope> {
  /** The store file. */
  file: string;
  /** `kind` written into and expected from the file. */
  kind: string;
  /** `version` written into and expected from the file. */
  version: number;
  /** The document of a store that has no file yet. */
  empty: () => T;
  /** Checks the document's fields beyond `version` and `kind`; returns the first problem, if any. */
  validate: (document: Record<string, unknown>) => ShapeProblem | undefined;
  /** Lock tuning. */
  lock?: LockOptions;
}

/** What {@link JsonFileStore.repair} did. */
export interface RepairResult {
  /** True when the file was corrupt and has been moved aside and replaced by an empty store. */
  repaired: boolean;
  /** Where the corrupt file was preserved. */
  preservedAs?: string;
  /** The problem that was found. */
  problem?: SlashiError;
}

/** JSON Pointer escaping of one key. */
export function pointerSegment(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * A JSON document in one file, shared by several processes: reads see a whole file (writes are atomic
 * renames), changes are read-modify-write transactions under a lock file, and a corrupt file is reported with
 * its position and kept as it is (reads and updates fail loudly) until {@link JsonFileStore.repair} is called.
 */
export class JsonFileStore<T extends StoreEnvelope> {
  /** The store file. */
  readonly file: string;
  readonly #options: JsonStoreOptions<T>;

  /** @param options - file, kind, version, empty document and shape check */
  constructor(options: JsonStoreOptions<T>) {
    this.file = options.file;
    this.#options = options;
  }

  /** Parses and checks a file's text; throws `STORE_CORRUPT` with file, line, column and JSON path. */
  parse(text: string): T {
    let value: unknown;
    try {
      // JSON.parse keeps a "__proto__" key as data; the JSONC parser is only used to locate an error.
      value = JSON.parse(text);
    } catch {
      const errors: ParseError[] = [];
      parse(text, errors, { disallowComments: true, allowTrailingComma: false });
      const first = errors[0];
      const at = first ? lineColumn(text, first.offset) : {};
      const what = first ? printParseErrorCode(first.error) : "parse error";
      throw this.#corrupt(`is not valid JSON (${what})`, at);
    }
    if (text.trim() === "" || typeof value !== "object" || value === null || Array.isArray(value)) {
      throw this.#corrupt("is not a JSON object", { jsonPath: "" });
    }
    const document = value as Record<string, unknown>;
    if (document.kind !== this.#options.kind) {
      throw this.#corrupt(`has kind ${JSON.stringify(document.kind)}, expected "${this.#options.kind}"`, {
        jsonPath: "/kind",
      });
    }
    if (document.version !== this.#options.version) {
      throw this.#corrupt(
        `has format version ${JSON.stringify(document.version)}; this Slashi reads version ${this.#options.version}`,
        { jsonPath: "/version" },
      );
    }
    const problem = this.#options.validate(document);
    if (problem) throw this.#corrupt(problem.message, { jsonPath: problem.jsonPath });
    return document as unknown as T;
  }

  #corrupt(what: string, where: { line?: number; column?: number; jsonPath?: string }): SlashiError {
    return new SlashiError(
      SlashiErrorCode.STORE_CORRUPT,
      `store ${this.file} ${what}; it was left as it is (repair moves it aside and starts empty)`,
      { file: this.file, ...where },
    );
  }

  async #readText(): Promise<string | undefined> {
    try {
      return await readBoundedText(this.file);
    } catch (error) {
      if (isSlashiError(error)) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return undefined;
      throw new SlashiError(SlashiErrorCode.IO_FAILED, `cannot read store ${this.file}: ${code ?? "error"}`, {
        file: this.file,
      });
    }
  }

  /** The current document (the empty one when the file does not exist). Throws `STORE_CORRUPT` for a bad file. */
  async read(): Promise<T> {
    const text = await this.#readText();
    return text === undefined ? this.#options.empty() : this.parse(text);
  }

  /**
   * Read-modify-write under the lock: `fn` gets the current document (a private copy) and returns the new one,
   * or mutates it and returns nothing. The result is checked and written atomically; if `fn` throws, nothing
   * is written. `fn` must be quick (never ask a person inside it): other processes wait for the lock.
   */
  async update(fn: (document: T) => T | void | Promise<T | void>): Promise<T> {
    return withFileLock(
      this.file,
      async () => {
        const current = await this.read();
        const next = (await fn(current)) ?? current;
        const text = `${JSON.stringify(next, null, 2)}\n`;
        this.parse(text); // never write a document this store would refuse to read
        await writeFileAtomic(this.file, text);
        return next;
      },
      this.#options.lock,
    );
  }

  /**
   * The explicit repair action: if the file is corrupt, copies it to `<file>.corrupt-<timestamp>` and replaces it
   * with an empty store. A healthy or missing file is left alone.
   */
  async repair(): Promise<RepairResult> {
    return withFileLock(
      this.file,
      async () => {
        const text = await this.#readText();
        if (text === undefined) return { repaired: false };
        try {
          this.parse(text);
          return { repaired: false };
        } catch (error) {
          const preservedAs = `${this.file}.corrupt-${new Date().toISOString().replace(/[:.]/g, "-")}`;
          await copyFile(this.file, preservedAs);
          await writeFileAtomic(this.file, `${JSON.stringify(this.#options.empty(), null, 2)}\n`);
          return { repaired: true, preservedAs, problem: error as SlashiError };
        }
      },
      this.#options.lock,
    );
  }
}
