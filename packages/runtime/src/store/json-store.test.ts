import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { catchErrorAsync as caught, tempDir } from "@slashi/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { isSlashiError, SlashiErrorCode } from "@slashi/core";
import { ApprovalFileStore } from "./approvals.js";

const rootTemp = tempDir("slashi-store-");
const root = rootTemp.dir;
afterAll(rootTemp.remove);
let n = 0;
const fresh = (): string => {
  const dir = path.join(root, `s${n++}`);
  mkdirSync(dir);
  return path.join(dir, "approvals.json");
};

const record = (key: string, fingerprint = `sha256:${key}`) => ({
  key,
  identity: `id:${key}`,
  fingerprint,
  canonical: "{}",
  approvedAt: "2026-11-29T10:00:00.000Z",
  host: "cli" as const,
});

describe("JsonFileStore through ApprovalFileStore", () => {
  it("reads a missing file as an empty store", async () => {
    expect(await new ApprovalFileStore({ file: fresh() }).list()).toEqual([]);
  });

  it("writes a versioned document and reads it back", async () => {
    const file = fresh();
    const store = new ApprovalFileStore({ file });
    await store.put(record("b"));
    await store.put(record("a"));
    const onDisk = JSON.parse(readFileSync(file, "utf8"));
    expect(onDisk).toMatchObject({ version: 1, kind: "slashi.approvals" });
    expect((await store.list()).map((r) => r.key)).toEqual(["a", "b"]);
    expect((await store.get("a"))?.fingerprint).toBe("sha256:a");
    expect(await store.get("missing")).toBeUndefined();
  });

  it("leaves no temp or lock file behind", async () => {
    const file = fresh();
    const store = new ApprovalFileStore({ file });
    await store.put(record("x"));
    await store.delete("x");
    expect(readdirSync(path.dirname(file))).toEqual(["approvals.json"]);
  });

  it("reports invalid JSON with file, line and column, and keeps the file as it was", async () => {
    const file = fresh();
    const store = new ApprovalFileStore({ file });
    await store.put(record("x"));
    const broken = '{\n  "version": 1,\n  "kind": "slashi.approvals",\n  "records": {,}\n}\n';
    writeFileSync(file, broken);
    const error = await caught(store.list());
    expect(isSlashiError(error) && error.code).toBe(SlashiErrorCode.STORE_CORRUPT);
    expect(isSlashiError(error) && error.data).toMatchObject({ file, line: 4, column: 15 });
    const updateError = await caught(store.put(record("y")));
    expect(isSlashiError(updateError) && updateError.code).toBe(SlashiErrorCode.STORE_CORRUPT);
    expect(readFileSync(file, "utf8")).toBe(broken);
  });

  it("reports a wrong shape with its JSON path", async () => {
    const file = fresh();
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        kind: "slashi.approvals",
        records: { "a/b": { key: "a/b", identity: "i", fingerprint: 7 } },
      }),
    );
    const error = await caught(new ApprovalFileStore({ file }).list());
    expect(isSlashiError(error) && error.data.jsonPath).toBe("/records/a~1b/fingerprint");
  });

  it("refuses a record whose key field disagrees with its key", async () => {
    const file = fresh();
    writeFileSync(
      file,
      JSON.stringify({ version: 1, kind: "slashi.approvals", records: { a: record("b") } }),
    );
    const error = await caught(new ApprovalFileStore({ file }).get("a"));
    expect(isSlashiError(error) && error.data.jsonPath).toBe("/records/a/key");
  });

  it("refuses an unknown format version and another store's kind", async () => {
    const file = fresh();
    writeFileSync(file, JSON.stringify({ version: 2, kind: "slashi.approvals", records: {} }));
    const versionError = await caught(new ApprovalFileStore({ file }).list());
    expect(isSlashiError(versionError) && versionError.data.jsonPath).toBe("/version");
    writeFileSync(file, JSON.stringify({ version: 1, kind: "slashi.trust", records: {} }));
    const kindError = await caught(new ApprovalFileStore({ file }).list());
    expect(isSlashiError(kindError) && kindError.data.jsonPath).toBe("/kind");
  });

  it("repairs only on request: the corrupt file is preserved aside and the store starts empty", async () => {
    const file = fresh();
    writeFileSync(file, "not json");
    const store = new ApprovalFileStore({ file });
    const result = await store.store.repair();
    expect(result.repaired).toBe(true);
    expect(readFileSync(result.preservedAs as string, "utf8")).toBe("not json");
    expect(path.basename(result.preservedAs as string)).toMatch(/^approvals\.json\.corrupt-\d{4}-/);
    expect(await store.list()).toEqual([]);
    expect(await store.store.repair()).toEqual({ repaired: false });
  });

  it("writes nothing when the update function throws", async () => {
    const file = fresh();
    const store = new ApprovalFileStore({ file });
    await store.put(record("keep"));
    const before = readFileSync(file, "utf8");
    await expect(
      store.store.update(() => {
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("never writes a document it would refuse to read", async () => {
    const file = fresh();
    const store = new ApprovalFileStore({ file });
    await store.put(record("ok"));
    const error = await caught(
      store.store.update((document) => {
        (document.records as Record<string, unknown>).bad = { key: "bad" };
      }),
    );
    expect(isSlashiError(error) && error.code).toBe(SlashiErrorCode.STORE_CORRUPT);
    expect((await store.list()).map((r) => r.key)).toEqual(["ok"]);
  });

  it("stores a record keyed __proto__ as data, not as a prototype", async () => {
    const store = new ApprovalFileStore({ file: fresh() });
    await store.put(record("__proto__"));
    expect((await store.get("__proto__"))?.fingerprint).toBe("sha256:__proto__");
  });
});
