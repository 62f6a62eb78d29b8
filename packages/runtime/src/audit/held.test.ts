import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "@slashi/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { AuditLog } from "./audit-log.js";
import { holdAuditWrites } from "./held.js";

const rootTemp = tempDir("slashi-held-");
const root = rootTemp.dir;
afterAll(rootTemp.remove);
let n = 0;
const fresh = (): string => path.join(root, `h${n++}`, "audit.jsonl");
const lines = (file: string): Array<{ text: string; time: string }> =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { text: string; time: string });

describe("holdAuditWrites", () => {
  it("writes nothing until commit, then every held record in order", async () => {
    const file = fresh();
    const log = new AuditLog({ file });
    const held = await holdAuditWrites(async () => {
      const a = await log.append({ event: "decision", host: "cli", text: "first" });
      await log.append({ event: "decision", host: "cli", text: "second" });
      return a;
    });
    expect(held.result).toEqual({ written: true, rotated: false });
    expect(held.count).toBe(2);
    expect(existsSync(file)).toBe(false);
    await held.commit();
    expect(lines(file).map((r) => r.text)).toEqual(["first", "second"]);
    expect(held.count).toBe(0);
  });

  it("drops the held records when nobody commits", async () => {
    const file = fresh();
    const log = new AuditLog({ file });
    await holdAuditWrites(() => log.append({ event: "decision", host: "cli", text: "gone" }));
    await log.append({ event: "decision", host: "cli", text: "kept" });
    expect(lines(file).map((r) => r.text)).toEqual(["kept"]);
  });

  it("keeps the time of the append, not of the commit", async () => {
    const file = fresh();
    const log = new AuditLog({ file });
    const held = await holdAuditWrites(() =>
      log.append({ event: "decision", host: "cli", text: "t", time: "2026-01-02T03:04:05.000Z" }),
    );
    const before = await holdAuditWrites(() => log.append({ event: "decision", host: "cli", text: "now" }));
    const taken = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await held.commit();
    await before.commit();
    const [first, second] = lines(file);
    expect(first?.time).toBe("2026-01-02T03:04:05.000Z");
    expect(Date.parse(second!.time)).toBeLessThanOrEqual(taken);
  });

  it("holds only the appends of the work it runs, not those running beside it", async () => {
    const file = fresh();
    const log = new AuditLog({ file });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const heldRun = holdAuditWrites(async () => {
      await gate;
      await log.append({ event: "decision", host: "cli", text: "held" });
    });
    await log.append({ event: "decision", host: "cli", text: "beside" });
    release();
    await heldRun;
    expect(lines(file).map((r) => r.text)).toEqual(["beside"]);
  });
});
