// Runs in its own process (bundled by the test with esbuild): hammers a store or the audit log and reports
// every problem it sees as a JSON line on stdout.
import { readFileSync } from "node:fs";
import { ApprovalFileStore, AuditLog, runCommand } from "../../src/index.js";

const [mode, file, workerId, countText] = process.argv.slice(2);
const count = Number(countText);
const problems: string[] = [];

function checkValidJson(): void {
  try {
    JSON.parse(readFileSync(file as string, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT")
      problems.push(`invalid JSON seen: ${String(error)}`);
  }
}

function record(key: string, fingerprint: string, host: "cli" | "mcp") {
  return {
    key,
    identity: `id:${key}`,
    fingerprint,
    canonical: "{}",
    approvedAt: new Date().toISOString(),
    host,
  };
}

async function storeMode(): Promise<void> {
  const store = new ApprovalFileStore({ file: file as string, lock: { timeoutMs: 60_000 } });
  for (let i = 0; i < count; i++) {
    const key = `w${workerId}-${i}`;
    await store.put(record(key, `sha256:${key}`, "cli"));
    checkValidJson();
    await store.put(record("shared", `sha256:${workerId}`, "mcp"));
    checkValidJson();
    if (i % 2 === 1) {
      const existed = await store.delete(key);
      if (!existed) problems.push(`approval ${key} was lost before its revoke`);
      checkValidJson();
    }
  }
}

async function auditMode(): Promise<void> {
  const log = new AuditLog({
    file: file as string,
    maxBytes: 4096,
    keep: 10_000,
    lock: { timeoutMs: 60_000 },
  });
  for (let i = 0; i < count; i++) {
    const result = await log.append({
      event: "decision",
      host: "cli",
      source: "agent",
      text: `echo worker ${workerId} record ${i} ${"x".repeat(i % 50)}`,
      decision: "allow",
      reasons: [],
    });
    if (!result.written) problems.push(result.warning);
  }
}

if (mode === "run-and-exit") {
  // A host that exits while its command still runs: the command's whole group must not outlive it.
  void runCommand({
    script: "echo $$ > sh.pid; sleep 100 & echo $! > bg.pid; sleep 100",
    shell: "/bin/sh",
    cwd: file as string,
  });
  setTimeout(() => process.exit(0), Number(countText));
} else {
  await (mode === "store" ? storeMode() : auditMode());
  process.stdout.write(JSON.stringify({ workerId, problems }));
}
