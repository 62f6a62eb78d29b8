import { JsonFileStore, pointerSegment, type ShapeProblem, type StoreEnvelope } from "./json-store.js";
import type { LockOptions } from "./lock.js";

/** A store file holding records by key: `{ "version": 1, "kind": "…", "records": { "<key>": {…} } }`. */
export interface RecordDocument<R> extends StoreEnvelope {
  /** Records by key. */
  records: Record<string, R>;
}

/** Checks one record; returns a problem whose `jsonPath` is relative to the record (`/fingerprint`). */
export type RecordCheck = (record: Record<string, unknown>, key: string) => ShapeProblem | undefined;

/** Options shared by the record stores. */
export interface RecordStoreOptions {
  /** The store file. */
  file: string;
  /** Lock tuning. */
  lock?: LockOptions;
}

/** Field checks used by the record stores. */
export const check = {
  /** A non-empty string field. */
  string(record: Record<string, unknown>, field: string): ShapeProblem | undefined {
    const value = record[field];
    return typeof value === "string" && value !== ""
      ? undefined
      : { jsonPath: `/${field}`, message: `${field} must be a non-empty string` };
  },
  /** An optional string field. */
  optionalString(record: Record<string, unknown>, field: string): ShapeProblem | undefined {
    const value = record[field];
    return value === undefined || typeof value === "string"
      ? undefined
      : { jsonPath: `/${field}`, message: `${field} must be a string` };
  },
  /** An optional array of strings. */
  optionalStrings(record: Record<string, unknown>, field: string): ShapeProblem | undefined {
    const value = record[field];
    return value === undefined || (Array.isArray(value) && value.every((item) => typeof item === "string"))
      ? undefined
      : { jsonPath: `/${field}`, message: `${field} must be an array of strings` };
  },
  /** A boolean field. */
  boolean(record: Record<string, unknown>, field: string): ShapeProblem | undefined {
    return typeof record[field] === "boolean"
      ? undefined
      : { jsonPath: `/${field}`, message: `${field} must be true or false` };
  },
};

/** Sets `records[key]` as a plain own property, whatever the key (`__proto__` included). */
export function setRecord<R>(records: Record<string, R>, key: string, record: R): void {
  Object.defineProperty(records, key, {
    value: record,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/**
 * A {@link JsonFileStore} of keyed records with list, get, put, delete and filtered reset. Each record repeats
 * its key (`record[keyField]`), and the file is refused if the two disagree.
 */
export class RecordStore<R extends object> {
  /** The underlying file store. */
  readonly store: JsonFileStore<RecordDocument<R>>;
  readonly #keyField: keyof R & string;

  /**
   * @param options - file and lock tuning
   * @param kind - the file's `kind`
   * @param version - the file's format version
   * @param keyField - the record field that holds its key
   * @param checkRecord - shape check for one record
   */
  constructor(
    options: RecordStoreOptions,
    kind: string,
    version: number,
    keyField: keyof R & string,
    checkRecord: RecordCheck,
  ) {
    this.#keyField = keyField;
    this.store = new JsonFileStore<RecordDocument<R>>({
      file: options.file,
      kind,
      version,
      lock: options.lock,
      empty: () => ({ version, kind, records: {} }),
      validate: (document) => {
        const records = document.records;
        if (typeof records !== "object" || records === null || Array.isArray(records)) {
          return { jsonPath: "/records", message: "records must be an object" };
        }
        for (const [key, record] of Object.entries(records as Record<string, unknown>)) {
          const base = `/records/${pointerSegment(key)}`;
          if (typeof record !== "object" || record === null || Array.isArray(record)) {
            return { jsonPath: base, message: "a record must be an object" };
          }
          const fields = record as Record<string, unknown>;
          if (fields[keyField] !== key) {
            return { jsonPath: `${base}/${keyField}`, message: `${keyField} must equal the record's key` };
          }
          const problem = checkRecord(fields, key);
          if (problem) return { jsonPath: base + problem.jsonPath, message: problem.message };
        }
        return undefined;
      },
    });
  }

  /** The store file. */
  get file(): string {
    return this.store.file;
  }

  /** Every record, in key order. */
  async list(): Promise<R[]> {
    const document = await this.store.read();
    return Object.keys(document.records)
      .sort()
      .map((key) => document.records[key] as R);
  }

  /** The record for a key, if any. */
  async get(key: string): Promise<R | undefined> {
    const document = await this.store.read();
    return Object.hasOwn(document.records, key) ? document.records[key] : undefined;
  }

  /** Adds or replaces a record (by its key field). */
  async put(record: R): Promise<void> {
    const key = String(record[this.#keyField]);
    await this.store.update((document) => {
      setRecord(document.records, key, record);
    });
  }

  /** Removes a record; true when it existed. */
  async delete(key: string): Promise<boolean> {
    let existed = false;
    await this.store.update((document) => {
      existed = Object.hasOwn(document.records, key);
      delete document.records[key];
    });
    return existed;
  }

  /** Removes every record `filter` accepts (every record without a filter); returns how many. */
  async reset(filter: (record: R) => boolean = () => true): Promise<number> {
    let removed = 0;
    await this.store.update((document) => {
      for (const [key, record] of Object.entries(document.records)) {
        if (filter(record)) {
          delete document.records[key];
          removed++;
        }
      }
    });
    return removed;
  }
}
