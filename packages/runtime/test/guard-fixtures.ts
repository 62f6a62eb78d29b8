// What the guard's unit tests share: a workspace at CWD, a user policy over `recommended` that denies `shred`,
// and command-approval stores in a temporary folder removed after the file's tests.
import path from "node:path";
import { loadShellParser, resolvePolicy, type DecideContext, type PolicyRule } from "@slashi/core";
import { scratchDir } from "@slashi/test-utils";
import { beforeAll } from "vitest";
import { CommandApprovalFileStore } from "../src/store/command-approvals.js";

/** The workspace root and working directory of every line. */
export const CWD = "/home/dev/app";

/** The decide context at a directory of the workspace (trusted, bash). */
export function contextAt(at: { cwd?: string; shell?: string } = {}): DecideContext {
  return {
    shell: at.shell ?? "bash",
    cwd: at.cwd ?? CWD,
    workspaceRoot: CWD,
    home: "/home/dev",
    workspaceTrusted: true,
  };
}

/** A snapshot of `recommended` with `shred` denied, plus `rules`; `skip` sets `skipConfirmInCordon`. */
export function guardSnapshot(options: { skip?: boolean; rules?: PolicyRule[] } = {}) {
  return {
    policy: resolvePolicy([
      {
        kind: "user",
        source: "policy.json",
        document: {
          version: 1,
          extends: ["recommended"],
          ...(options.skip === true ? { skipConfirmInCordon: true } : {}),
          rules: [{ match: ["shred"], decision: "deny", reason: "never" }, ...(options.rules ?? [])],
        },
      },
    ]),
    context: contextAt,
  };
}

/** Loads the parser and gives fresh, empty command-approval stores in a folder removed after the tests. */
export function approvalStores(prefix: string): () => CommandApprovalFileStore {
  const dir = scratchDir(prefix);
  beforeAll(async () => {
    await loadShellParser();
  });
  return () => new CommandApprovalFileStore({ file: path.join(dir, `${Math.random()}.json`) });
}
