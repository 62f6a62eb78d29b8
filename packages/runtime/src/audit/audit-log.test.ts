import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { tempDir } from "@slashi/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import {
  AUDIT_PARSE_SLICE,
  AUDIT_TEXT_LIMIT,
  AuditLog,
  parseAuditLines,
  readAudit,
  type AuditRecord,
} from "./audit-log.js";
import { SECRET_MARKER, textDigest } from "./redact.js";

const rootTemp = tempDir("slashi-audit-");
const root = rootTemp.dir;
afterAll(rootTemp.remove);
let n = 0;
const fresh = (): string => path.join(root, `a${n++}`, "audit.jsonl");

describe("AuditLog", () => {
  it("appends one JSON line per record with time, pid and cwd filled in", async () => {
    const file = fresh();
    const log = new AuditLog({ file });
    const result = await log.append({
      event: "run",
      host: "cli",
      source: "agent",
      text: "npm test",
      expandedDigest: "sha256:abc",
      decision: "allow",
      reasons: [{ code: "rule.allow", severity: "allow", message: "allowed by rule npm test" }],
      exitCode: 1,
      durationMs: 1234,
    });
    expect(result).toEqual({ written: true, rotated: false });
    const lines = readFileSync(file, "utf8").split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe("");
    const record = JSON.parse(lines[0] as string);
    expect(record).toMatchObject({
      event: "run",
      host: "cli",
      text: "npm test",
      exitCode: 1,
      pid: process.pid,
    });
    expect(record.cwd).toBe(process.cwd());
    expect(Number.isNaN(Date.parse(record.time))).toBe(false);
  });

  it("reads the last n records matching a filter, oldest first", async () => {
    const log = new AuditLog({ file: fresh() });
    for (let i = 0; i < 6; i++) {
      await log.append({ event: "decision", host: i % 2 ? "mcp" : "cli", text: `cmd ${i}`, decision: "ask" });
    }
    const { records } = await log.read({ tail: 2, filter: (record) => record.host === "cli" });
    expect(records.map((record) => record.text)).toEqual(["cmd 2", "cmd 4"]);
  });

  it("rotates by size and keeps the configured number of files", async () => {
    const file = fresh();
    const log = new AuditLog({ file, maxBytes: 400, keep: 2 });
    for (let i = 0; i < 12; i++)
      await log.append({ event: "decision", host: "cli", text: `command ${i}`, time: "t" });
    expect(existsSync(log.rotatedFile(1))).toBe(true);
    expect(existsSync(log.rotatedFile(2))).toBe(true);
    expect(existsSync(log.rotatedFile(3))).toBe(false);
    expect(path.basename(log.rotatedFile(1))).toBe("audit.1.jsonl");
    const { records } = await log.read();
    const texts = records.map((record) => record.text);
    expect(texts.at(-1)).toBe("command 11");
    // Oldest first and in order across files.
    const numbers = texts.map((text) => Number(text?.split(" ")[1]));
    expect([...numbers].sort((a, b) => a - b)).toEqual(numbers);
    expect(numbers.length).toBeLessThan(12);
  });

  it("reports a line that is not a record and keeps reading", async () => {
    const file = fresh();
    const log = new AuditLog({ file });
    await log.append({ event: "decision", host: "cli", text: "one" });
    appendFileSync(file, '{"half":\n{"time":"x"}\n');
    await log.append({ event: "decision", host: "cli", text: "two" });
    const { records, problems } = await readAudit(file);
    expect(records.map((record) => record.text)).toEqual(["one", "two"]);
    expect(problems).toEqual([
      { file, line: 2 },
      { file, line: 3 },
    ]);
  });

  it("hands the event loop back while it parses a long log, and reads every line as before", async () => {
    const record = (n: number) =>
      JSON.stringify({ time: "2026-01-01T00:00:00Z", event: "decision", host: "cli", pid: n, cwd: "/w" });
    const count = AUDIT_PARSE_SLICE * 3 + 5;
    const lines = Array.from({ length: count }, (_, n) => (n === 7 ? "{not json" : record(n)));
    const bytes = Buffer.from(`${lines.join("\n")}\n`);
    // Work scheduled before the parse runs during it, as a progress line's redraw does, not only after it.
    let ran = 0;
    setImmediate(() => ran++);
    const records: AuditRecord[] = [];
    const problems: { file: string; line: number }[] = [];
    let atLastLine = -1;
    const keep = (r: AuditRecord): boolean => {
      if (r.pid === count - 1) atLastLine = ran;
      return r.pid % 2 === 0;
    };
    const parsing = parseAuditLines(bytes, "f", keep, records, problems);
    const before = ran;
    await parsing;
    expect(before).toBe(0);
    expect(atLastLine).toBe(1);
    expect(problems).toEqual([{ file: "f", line: 8 }]);
    expect(records.map((r) => r.pid)).toEqual(
      Array.from({ length: count }, (_, n) => n).filter((n) => n % 2 === 0),
    );
  });

  it("cuts very long text and says so", async () => {
    const file = fresh();
    await new AuditLog({ file }).append({
      event: "decision",
      host: "vscode",
      text: "y".repeat(AUDIT_TEXT_LIMIT + 10),
    });
    const [record] = (await readAudit(file)).records;
    expect(record?.text).toHaveLength(AUDIT_TEXT_LIMIT);
    expect(record?.textTruncated).toBe(true);
    expect(record?.textDigest).toBe(textDigest("y".repeat(AUDIT_TEXT_LIMIT + 10)));
  });

  it("keeps a digest of the whole text that tells apart lines equal up to the cut", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.string({ minLength: 1, maxLength: 40 }),
        (a, b) => {
          fc.pre(a !== b);
          const head = "z".repeat(AUDIT_TEXT_LIMIT);
          const one = AuditLog.toRecord({ event: "run", host: "cli", text: head + a });
          const two = AuditLog.toRecord({ event: "run", host: "cli", text: head + b });
          expect(one.text).toBe(two.text);
          expect(one.textDigest).not.toBe(two.textDigest);
        },
      ),
      { numRuns: 50 },
    );
    expect(AuditLog.toRecord({ event: "run", host: "cli", text: "short" }).textDigest).toBeUndefined();
  });

  it("writes no secret value anywhere in a record, and not the list of secrets", async () => {
    const file = fresh();
    const secret = "tok-3f9a canary";
    await new AuditLog({ file }).append({
      event: "run",
      host: "cli",
      text: `deploy --token \${env:TOKEN}`,
      argv: ["deploy", "--token", secret],
      reasons: [{ code: "policy.rule", message: `rule deploy matched deploy --token ${secret}` }],
      answer: secret,
      secrets: [secret, ""],
    });
    const raw = readFileSync(file, "utf8");
    expect(raw).not.toContain("tok-3f9a");
    expect(raw).not.toContain(`"secrets"`);
    const [record] = (await readAudit(file)).records;
    expect(record?.argv).toEqual(["deploy", "--token", SECRET_MARKER]);
    expect(record?.text).toBe("deploy --token ${env:TOKEN}");
  });

  it("returns a warning instead of throwing when the disk is full", async (context) => {
    if (!existsSync("/dev/full")) context.skip();
    const result = await new AuditLog({ file: "/dev/full" }).append({
      event: "decision",
      host: "cli",
      text: "x",
    });
    expect(result).toMatchObject({ written: false, errorCode: "ENOSPC" });
    expect(result.written === false && result.warning).toMatch(/disk is full.*not recorded/);
  });

  it("returns a warning when the log directory cannot be created", async () => {
    const blocker = fresh();
    await new AuditLog({ file: blocker }).append({ event: "decision", host: "cli" });
    const result = await new AuditLog({ file: path.join(blocker, "audit.jsonl") }).append({
      event: "decision",
      host: "cli",
    });
    expect(result.written).toBe(false);
  });

  // The test timeout is the hang guard: a plain read of a FIFO or of /dev/zero never returns.
  it.runIf(process.platform !== "win32")(
    "reports a FIFO or a link to /dev/zero in place of the log instead of waiting on it",
    { timeout: 20_000 },
    async () => {
      for (const plant of [
        (file: string) => execFileSync("mkfifo", [file]),
        (file: string) => symlinkSync("/dev/zero", file),
      ]) {
        const file = fresh();
        mkdirSync(path.dirname(file), { recursive: true });
        plant(file);
        const result = await new AuditLog({ file }).read();
        expect(result.records).toEqual([]);
        expect(result.problems).toEqual([{ file, line: 0 }]);
      }
    },
  );
});
