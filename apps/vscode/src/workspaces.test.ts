import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { findWorkspace, nodePolicyFiles } from "@slashi/runtime";
import { tempDir } from "@slashi/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { buildCatalog } from "./catalog.js";
import { folderInputs, folderKey } from "./workspaces.js";

const temp = tempDir("slashi-vscode-ws-");
afterAll(() => temp.remove());

const team = (name: string): string =>
  JSON.stringify({ version: 1, commands: [{ name, steps: [{ type: "terminal", command: "true" }] }] });

describe("folderInputs: a window folder belongs to the workspace every host finds for it", () => {
  const repo = path.join(temp.dir, "repo");
  const sub = path.join(repo, "packages", "app");
  const other = path.join(repo, "docs");
  const plain = path.join(temp.dir, "plain");
  mkdirSync(path.join(repo, ".git"), { recursive: true });
  mkdirSync(path.join(repo, ".vscode"), { recursive: true });
  mkdirSync(path.join(sub, ".vscode"), { recursive: true });
  mkdirSync(other, { recursive: true });
  mkdirSync(path.join(plain, ".vscode"), { recursive: true });
  writeFileSync(path.join(repo, ".vscode", "slashi.json"), team("root-cmd"));
  writeFileSync(path.join(sub, ".vscode", "slashi.json"), team("sub-cmd"));
  writeFileSync(path.join(plain, ".vscode", "slashi.json"), team("plain-cmd"));

  it("keys a sub-folder by the repository's root and reads the root's team file, as slashi run there does", async () => {
    const cli = await findWorkspace(sub);
    const [input] = await folderInputs([{ path: sub }], (file) => nodePolicyFiles.read(file));
    expect(input).toMatchObject({ path: sub, root: cli.root, key: cli.key });
    expect(input?.teamFile?.path).toBe(cli.teamFile);
    expect(folderKey(sub)).toBe(cli.key);
    const catalog = buildCatalog({ trusted: true, folders: input ? [input] : [] });
    expect(catalog.entries.map((e) => [e.name, e.folder, e.identity])).toEqual([
      ["root-cmd", repo, { source: "workspace", name: "root-cmd", workspaceKey: cli.key }],
    ]);
  });

  it("reads a repository's team file once for two of its folders; a folder outside any repository is its own", async () => {
    const inputs = await folderInputs([{ path: sub }, { path: other }, { path: plain }], (file) =>
      nodePolicyFiles.read(file),
    );
    expect(inputs.map((i) => [i.key, i.teamFile?.path])).toEqual([
      [repo, path.join(repo, ".vscode", "slashi.json")],
      [repo, undefined],
      [plain, path.join(plain, ".vscode", "slashi.json")],
    ]);
    const names = buildCatalog({ trusted: true, folders: inputs }).entries.map((e) => e.name);
    expect(names).toEqual(["root-cmd", "plain-cmd"]);
  });

  it("reads nothing of a remote folder and keys it by its own path", async () => {
    const read = (file: string): Promise<string | undefined> => Promise.reject(new Error(`read ${file}`));
    const inputs = await folderInputs([{ path: sub, remote: true, settingValue: [] }], read);
    expect(inputs).toEqual([{ path: sub, root: sub, key: sub, settingValue: [] }]);
  });
});
