import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { nodePolicyFiles } from "@slashi/runtime";
import { afterAll, describe, expect, it } from "vitest";
import { decideTerminalStep, ExtensionPolicy } from "./policy.js";

const root = realpathSync(mkdtempSync(path.join(tmpdir(), "slashi-vscode-policy-")));
const box = {
  home: path.join(root, "home"),
  configDir: path.join(root, "config"),
  stateDir: path.join(root, "state"),
  workspace: path.join(root, "work"),
};
mkdirSync(path.join(box.workspace, ".git"), { recursive: true });
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.runIf(typeof process.getuid === "function")("a terminal step's decision", () => {
  it("asks for a read through a workspace link to a secret, which the words alone allow", async () => {
    const key = path.join(box.home, ".ssh", "id_ed25519");
    mkdirSync(path.dirname(key), { recursive: true });
    writeFileSync(key, "canary\n");
    const notes = path.join(box.workspace, "notes.txt");
    writeFileSync(notes, "notes\n");
    const policy = new ExtensionPolicy({
      env: { HOME: box.home, SLASHI_CONFIG_DIR: box.configDir, SLASHI_STATE_DIR: box.stateDir },
      home: box.home,
      managedPolicyPath: path.join(root, "no-managed.json"),
      files: nodePolicyFiles,
      trusted: () => true,
      policyFile: () => "",
    });
    const loaded = await policy.load(box.workspace);
    if (!loaded.ok) throw loaded.error;
    const step = { command: "cat notes.txt", shell: "/bin/bash", cwd: box.workspace, env: {} };
    expect((await decideTerminalStep(loaded, step)).verdict).toBe("allow");
    rmSync(notes);
    symlinkSync(key, notes);
    const linked = await decideTerminalStep(loaded, step);
    expect(linked.verdict).toBe("ask");
    expect(linked.reasons.map((r) => r.code)).toContain("secret.read");
  });
});
