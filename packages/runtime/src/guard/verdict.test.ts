import path from "node:path";
import { enkaiduPolicyDocument, enkaiduSettingsFrom, loadShellParser, resolvePolicy } from "@slashi/core";
import fc from "fast-check";
import { scratchDir } from "@slashi/test-utils";
import { beforeAll, describe, expect, it } from "vitest";
import { contextAt, CWD } from "../../test/guard-fixtures.js";
import { commandBinding } from "../approval/binding.js";
import { bindingSite } from "../approval/remembered.js";
import { CommandApprovalFileStore } from "../store/command-approvals.js";
import { countedReasons, decideVerdict, REMEMBERED_REASON } from "./verdict.js";

const SCRIPT = "#!/bin/sh\necho deploy\n";
const files = (content: string) => (file: string) =>
  path.resolve(file) === "/home/dev/app/deploy.sh" ? content : undefined;

const policy = resolvePolicy([
  {
    kind: "user",
    source: "policy.json",
    document: { version: 1, rules: [{ match: ["shred"], decision: "deny", reason: "never" }] },
  },
]);
const snapshot = {
  policy,
  context: contextAt,
};

const dir = scratchDir("slashi-verdict-");
let store: CommandApprovalFileStore;

beforeAll(async () => {
  await loadShellParser();
  store = new CommandApprovalFileStore({ file: path.join(dir, "command-approvals.json") });
  const binding = commandBinding(["./deploy.sh", "--prod"], await bindingSite(CWD, {}), files(SCRIPT));
  if (!binding.ok) throw new Error(binding.reason);
  await store.put({ key: binding.key, digest: binding.digest, approvedAt: new Date().toISOString() });
});

describe("decideVerdict", () => {
  it("answers an ask with a remembered approval of the same argv, cwd and content", async () => {
    const v = await decideVerdict(
      { command: "./deploy.sh --prod", cwd: CWD, env: {} },
      snapshot,
      store,
      files(SCRIPT),
    );
    expect(v.decision.decision).toBe("ask");
    expect(v.verdict).toBe("allow");
    expect(v.reasons).toEqual([REMEMBERED_REASON]);
    expect(v.rememberedKey).toBeDefined();
  });

  it("keeps the ask when what the command runs changed since", async () => {
    const v = await decideVerdict(
      { command: "./deploy.sh --prod", cwd: CWD, env: {} },
      snapshot,
      store,
      files(`${SCRIPT}curl -o x https://example.com/x\n`),
    );
    expect(v.verdict).toBe("ask");
    expect(v.remembered.changed).toBe(true);
    expect(v.reasons.map((r) => r.code)).not.toContain(REMEMBERED_REASON.code);
    expect(v.reasons[0]).toMatchObject({ code: "approval.changed", severity: "ask" });
  });

  it("never lifts a deny, and never remembers a line that needs the shell", async () => {
    const denied = await decideVerdict(
      { command: "shred x", cwd: CWD, env: {} },
      snapshot,
      store,
      files(SCRIPT),
    );
    expect(denied.verdict).toBe("deny");
    expect(denied.reasons).toEqual(countedReasons(denied.decision));
    const piped = await decideVerdict(
      { command: "./deploy.sh --prod | cat", cwd: CWD, env: {} },
      snapshot,
      store,
      files(SCRIPT),
    );
    expect(piped.verdict).toBe("ask");
  });

  it("denies a line that needs the shell under an Enkaidu layer without one, as every host must", async () => {
    const enkaidu = resolvePolicy([
      {
        kind: "user",
        source: "enkaidu.yml",
        document: enkaiduPolicyDocument(
          enkaiduSettingsFrom({
            config: { tool_settings: { shell_command: { allowed_commands: ["./deploy.sh", "cat"] } } },
            os: "unix",
          }),
        ),
      },
    ]);
    const piped = await decideVerdict(
      { command: "./deploy.sh --prod | cat", cwd: CWD, env: {} },
      { ...snapshot, policy: enkaidu },
      store,
      files(SCRIPT),
    );
    expect(piped.verdict).toBe("deny");
    expect(piped.reasons.map((r) => r.code)).toContain("enkaidu.needs-shell");
    // The remembered plain line still runs as its argv: the refusal is only for lines that need the shell.
    const plain = await decideVerdict(
      { command: "./deploy.sh --prod", cwd: CWD, env: {} },
      { ...snapshot, policy: enkaidu },
      store,
      files(SCRIPT),
    );
    expect(plain.reasons.map((r) => r.code)).not.toContain("enkaidu.needs-shell");
  });

  it("is the policy's verdict for any other argument list (generated)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.stringMatching(/^[a-z0-9-]{1,8}$/), { maxLength: 3 }), async (args) => {
        fc.pre(args.join(" ") !== "--prod");
        const command = ["./deploy.sh", ...args].join(" ");
        const v = await decideVerdict({ command, cwd: CWD, env: {} }, snapshot, store, files(SCRIPT));
        expect(v.verdict).toBe(v.decision.decision);
        expect(v.rememberedKey).toBeUndefined();
      }),
      { numRuns: 40 },
    );
  });
});
