// The server decides with the real file system: a workspace file that is a symbolic link to a secret is a secret
// read for check_command and shell_command, although the words of the line alone are harmless.
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connect, makeSandbox, structured, type Connected, type Sandbox } from "./helpers.js";

const posix = typeof process.getuid === "function";
const LINE = "cat notes.txt";
let sandbox: Sandbox;
let server: Connected | undefined;

beforeEach(() => {
  sandbox = makeSandbox();
  const key = path.join(sandbox.home, ".ssh", "id_ed25519");
  mkdirSync(path.dirname(key), { recursive: true });
  writeFileSync(key, "canary-key\n");
  writeFileSync(path.join(sandbox.workspace, "notes.txt"), "notes\n");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  sandbox.cleanup();
});

/** Turns the workspace's `notes.txt` into a link to the SSH key. */
function linkNotes(): void {
  const notes = path.join(sandbox.workspace, "notes.txt");
  rmSync(notes);
  symlinkSync(path.join(sandbox.home, ".ssh", "id_ed25519"), notes);
}

describe.runIf(posix)("a workspace link to a secret", () => {
  it("is allowed as a plain file and asks as a link in check_command, in one server process", async () => {
    server = await connect(sandbox);
    const check = async () =>
      structured(await server!.client.callTool({ name: "check_command", arguments: { command: LINE } }));
    expect(await check()).toMatchObject({ decision: "allow" });
    linkNotes();
    const linked = await check();
    expect(linked).toMatchObject({ decision: "ask" });
    expect(JSON.stringify(linked.reasons)).toContain("secret.read");
  });

  it("asks before shell_command reads through the link, and does not run it when declined", async () => {
    linkNotes();
    server = await connect(sandbox, { answer: { action: "decline" } });
    const result = await server.client.callTool({ name: "shell_command", arguments: { command: LINE } });
    expect(server.forms).toHaveLength(1);
    expect(structured(result)).toMatchObject({ code: "PERMISSION_DENIED" });
    expect(JSON.stringify(result)).not.toContain("canary-key");
  });
});
