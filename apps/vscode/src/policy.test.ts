import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { makeVisible } from "@slashi/core";
import {
  CommandApprovalFileStore,
  nodePolicyFiles,
  textDigest,
  workspacePolicyApprovalKey,
} from "@slashi/runtime";
import { tempHome } from "@slashi/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decideTerminalStep, ExtensionPolicy, pendingTrustLines } from "./policy.js";

const box = tempHome("slashi-vscode-policy-");
const root = box.dir;
afterAll(box.remove);

/** The policy of a folder as the extension loads it on the temporary home, VS Code trusting it or not. */
async function loadPolicy(folder: string, trusted: boolean) {
  const policy = new ExtensionPolicy({
    env: { HOME: box.home, SLASHI_CONFIG_DIR: box.configDir, SLASHI_STATE_DIR: box.stateDir },
    home: box.home,
    managedPolicyPath: path.join(root, "no-managed.json"),
    files: nodePolicyFiles,
    trusted: () => trusted,
    policyFile: () => "",
  });
  const loaded = await policy.load(folder);
  if (!loaded.ok) throw loaded.error;
  return loaded;
}

describe.runIf(typeof process.getuid === "function")("a terminal step's decision", () => {
  it("asks for a read through a workspace link to a secret, which the words alone allow", async () => {
    const key = path.join(box.home, ".ssh", "id_ed25519");
    mkdirSync(path.dirname(key), { recursive: true });
    writeFileSync(key, "canary\n");
    const notes = path.join(box.workspace, "notes.txt");
    writeFileSync(notes, "notes\n");
    const loaded = await loadPolicy(box.workspace, true);
    const step = { command: "cat notes.txt", shell: "/bin/bash", cwd: box.workspace, env: {} };
    expect((await decideTerminalStep(loaded, step)).verdict).toBe("allow");
    rmSync(notes);
    symlinkSync(key, notes);
    const linked = await decideTerminalStep(loaded, step);
    expect(linked.verdict).toBe("ask");
    expect(linked.reasons.map((r) => r.code)).toContain("secret.read");
  });
});

describe("pendingTrustLines: what trusting would still add, from the core's trustGains", () => {
  const work = path.join(root, "gains");
  const policyFile = path.join(work, ".vscode", "slashi-policy.json");
  const text = JSON.stringify({
    version: 1,
    rules: [
      { match: ["just", "test"], decision: "allow", reason: "the test recipe" },
      { match: ["curl"], decision: "deny" },
    ],
  });
  beforeAll(() => {
    mkdirSync(path.dirname(policyFile), { recursive: true });
    mkdirSync(path.join(work, ".git"), { recursive: true });
    writeFileSync(policyFile, text);
    writeFileSync(
      path.join(box.configDir, "policy.json"),
      JSON.stringify({
        version: 1,
        extends: ["recommended"],
        rules: [{ match: ["make", "deploy"], decision: "allow", trustedWorkspaceOnly: true }],
      }),
    );
  });
  const load = (trusted: boolean) => loadPolicy(work, trusted);

  it("lists the file's allow rules and the trusted-only rules in an untrusted workspace, never a deny", async () => {
    const lines = pendingTrustLines((await load(false)).snapshot);
    expect(lines[0]).toContain("trusting this workspace in VS Code and approving");
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(
        /^ {2}allow just test {2}\(the test recipe\) {2}\[.*slashi-policy\.json \/rules\/0\]$/,
      ),
      expect.stringMatching(
        /^ {2}1 allow rule\(s\) of user .*policy\.json marked trustedWorkspaceOnly: make deploy$/,
      ),
      expect.stringMatching(
        /^ {2}\d+ allow rule\(s\) of builtin preset:recommended marked trustedWorkspaceOnly: git /,
      ),
    ]);
    expect(lines.join("\n")).not.toContain("curl");
  });

  it("lists only the file's rules once VS Code trusts the workspace, and nothing once the file is approved", async () => {
    const trusted = await load(true);
    const lines = pendingTrustLines(trusted.snapshot);
    expect(lines[0]).toMatch(/^approving .* \(slashi trust\) would make these count here:$/);
    expect(lines.slice(1)).toEqual([expect.stringMatching(/^ {2}allow just test /)]);
    await new CommandApprovalFileStore({ file: path.join(box.stateDir, "command-approvals.json") }).put({
      key: workspacePolicyApprovalKey(trusted.workspaceKey!),
      digest: textDigest(text),
      approvedAt: new Date().toISOString(),
    });
    expect(pendingTrustLines((await load(true)).snapshot)).toEqual([]);
  });

  it("shows the repository's hidden characters in a rule's pattern and reason", async () => {
    const hidden = path.join(root, "hidden");
    mkdirSync(path.join(hidden, ".vscode"), { recursive: true });
    mkdirSync(path.join(hidden, ".git"), { recursive: true });
    // A zero-width space inside the pattern, a right-to-left override inside the reason.
    const rules = [{ match: ["just", "te\u200bst"], decision: "allow", reason: "safe \u202e;tsetkcurt" }];
    writeFileSync(path.join(hidden, ".vscode", "slashi-policy.json"), JSON.stringify({ version: 1, rules }));
    const lines = pendingTrustLines((await loadPolicy(hidden, true)).snapshot).join("\n");
    expect(lines).not.toMatch(/[\u200b\u202e]/);
    expect(lines).toContain(makeVisible("te\u200bst"));
    expect(lines).toContain(makeVisible("safe \u202e;tsetkcurt"));
  });
});
