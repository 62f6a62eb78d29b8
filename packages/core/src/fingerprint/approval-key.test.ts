import { describe, expect, it } from "vitest";
import { approvalKey, commandIdentityKey, isCurrentApprovalKey, parseApprovalKey } from "./approval-key.js";
import type { ApprovalKeyInput } from "./approval-key.js";
import { fingerprintCommand } from "./fingerprint.js";

const fingerprint = fingerprintCommand({
  name: "deploy",
  steps: [{ type: "terminal", command: "make deploy" }],
});
const ws: ApprovalKeyInput = { source: "workspace", name: "deploy", workspaceKey: "c:/repo", fingerprint };
const pack: ApprovalKeyInput = {
  source: "pack",
  name: "deploy",
  packId: "@acme/slashi-pack",
  packVersion: "1.2.3",
  packIntegrity: "sha512-abc",
  fingerprint,
};

describe("approvalKey", () => {
  it("writes a versioned canonical array", () => {
    expect(approvalKey(ws)).toBe(`slashi-ak-1:["workspace","c:/repo","deploy","${fingerprint}"]`);
  });

  it("differs for the same steps in another workspace, pack, version, integrity or name", () => {
    const keys = [
      approvalKey(ws),
      approvalKey({ ...ws, workspaceKey: "c:/other" }),
      approvalKey({ ...ws, name: "/deploy2" }),
      approvalKey(pack),
      approvalKey({ ...pack, packVersion: "1.2.4" }),
      approvalKey({ ...pack, packId: "@evil/slashi-pack" }),
      approvalKey({ ...pack, packIntegrity: "sha512-xyz" }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("ignores a leading slash in the name", () => {
    expect(approvalKey({ ...ws, name: "/deploy" })).toBe(approvalKey(ws));
  });

  it("cannot be confused by separators inside fields", () => {
    const a = approvalKey({ ...ws, workspaceKey: 'c:/a","b', name: "c" });
    const b = approvalKey({ ...ws, workspaceKey: "c:/a", name: 'b","c' });
    expect(a).not.toBe(b);
  });

  it("refuses user and agent sources, missing fields and non-current fingerprints", () => {
    expect(() => approvalKey({ ...ws, source: "user" } as never)).toThrow(/only workspace and pack/);
    expect(() => approvalKey({ ...ws, workspaceKey: "" })).toThrow(/workspaceKey/);
    expect(() => approvalKey({ ...ws, name: "/" })).toThrow(/name/);
    expect(() => approvalKey({ ...ws, fingerprint: "sha256:00" })).toThrow(/fingerprint/);
  });
});

describe("parseApprovalKey", () => {
  it("reads back what approvalKey wrote", () => {
    expect(parseApprovalKey(approvalKey(ws))).toEqual(ws);
    expect(parseApprovalKey(approvalKey(pack))).toEqual(pack);
    const noIntegrity = { ...pack };
    delete noIntegrity.packIntegrity;
    expect(parseApprovalKey(approvalKey(noIntegrity))).toEqual(noIntegrity);
  });

  it("never reads a key of an unknown format", () => {
    const key = approvalKey(ws).replace("slashi-ak-1", "slashi-ak-2");
    expect(() => parseApprovalKey(key)).toThrow(/unknown approval key format slashi-ak-2/);
    expect(isCurrentApprovalKey(key)).toBe(false);
    expect(isCurrentApprovalKey(approvalKey(ws))).toBe(true);
  });

  it("never reads a key whose fingerprint is of an unknown format", () => {
    const key = approvalKey(ws).replace("slashi-fp-1", "slashi-fp-2");
    expect(isCurrentApprovalKey(key)).toBe(false);
  });

  it("rejects malformed and non-canonical keys", () => {
    for (const bad of [
      "",
      "slashi-ak-1:",
      "slashi-ak-1:[1]",
      'slashi-ak-1:["workspace"]',
      approvalKey(ws).replace(",", ", "),
    ]) {
      expect(isCurrentApprovalKey(bad), bad).toBe(false);
    }
  });
});

describe("commandIdentityKey", () => {
  it("is shared by every fingerprint of one command and differs between commands", () => {
    expect(commandIdentityKey(ws)).toBe(
      commandIdentityKey({ ...ws, fingerprint: "other" } as ApprovalKeyInput),
    );
    expect(commandIdentityKey(ws)).not.toBe(commandIdentityKey({ ...ws, workspaceKey: "c:/other" }));
    expect(commandIdentityKey(ws)).not.toBe(approvalKey(ws));
  });
});
