import { describe, expect, it } from "vitest";
import { isDeniedEditorCommand } from "./denied-commands.js";

describe("isDeniedEditorCommand", () => {
  it("denies installing extensions, terminal sequences, settings files and trust management", () => {
    for (const id of [
      "workbench.extensions.installExtension",
      "workbench.extensions.action.installVSIX",
      "workbench.extensions.command.installFromVSIX",
      "workbench.action.terminal.sendSequence",
      "workbench.action.openSettingsJson",
      "workbench.action.openWorkspaceSettingsFile",
      "workbench.action.openFolderSettingsFile",
      "workbench.trust.manage",
      "runCommands",
      "vscode.open",
      "workbench.action.tasks.runTask",
      "workbench.action.debug.start",
      "workbench.action.chat.open",
      "_workbench.downloadResource",
    ]) {
      expect(isDeniedEditorCommand(id), id).toBe(true);
    }
  });

  it("matches case-insensitively and by contained words", () => {
    expect(isDeniedEditorCommand("WORKBENCH.ACTION.TERMINAL.SENDSEQUENCE")).toBe(true);
    expect(isDeniedEditorCommand("someext.installExtensionNow")).toBe(true);
    expect(isDeniedEditorCommand("myext.executeCommandLater")).toBe(true);
  });

  it("denies ids that are empty or hold spaces, controls or non-ASCII letters", () => {
    expect(isDeniedEditorCommand("")).toBe(true);
    expect(isDeniedEditorCommand(" workbench.action.files.save")).toBe(true);
    expect(isDeniedEditorCommand("workbench.action.files.save\u200b")).toBe(true);
    expect(isDeniedEditorCommand("vscode.оpen")).toBe(true);
  });

  it("allows ordinary editor commands", () => {
    for (const id of [
      "workbench.action.files.save",
      "editor.action.formatDocument",
      "workbench.action.terminal.focus",
    ]) {
      expect(isDeniedEditorCommand(id), id).toBe(false);
    }
  });
});
