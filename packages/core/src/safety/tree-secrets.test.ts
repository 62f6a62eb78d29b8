import { describe, expect, it } from "vitest";
import { cmd, ctx } from "../../test/safety/command.js";
import { invocationOf } from "./argv.js";
import { classifySecrets } from "./secrets.js";
import { MAX_TREE_ENTRIES, treeSecret } from "./tree-secrets.js";
import type { FileSystemPort, FolderEntry, SafetyContext } from "./types.js";

/**
 * An in-memory disk: each key a path, a folder when its value is `{}` or `"dir"`, a link when `->target`, a file
 * otherwise. `plain` leaves out `entries`, so the walk goes through `readdir` and `realpath`.
 */
function world(files: Record<string, string>, plain = false): FileSystemPort {
  const kindOf = (path: string): FolderEntry["kind"] | undefined => {
    const value = files[path];
    if (value === undefined)
      return Object.keys(files).some((p) => p.startsWith(`${path}/`)) ? "folder" : undefined;
    if (value.startsWith("->")) return "link";
    return value === "dir" ? "folder" : "file";
  };
  const realpath = (path: string): string => {
    const parts = path.split("/").filter((s) => s !== "");
    let out = "";
    for (let i = 0; i < parts.length; i++) {
      out += `/${parts[i]}`;
      const value = files[out];
      if (value?.startsWith("->")) return realpath(value.slice(2) + "/" + parts.slice(i + 1).join("/"));
    }
    return out === "" ? "/" : out.replace(/\/$/, "");
  };
  const names = (path: string): string[] | undefined => {
    const real = realpath(path);
    if (kindOf(real) !== "folder") return undefined;
    const prefix = real === "/" ? "/" : `${real}/`;
    const found = new Set<string>();
    for (const p of Object.keys(files))
      if (p.startsWith(prefix)) found.add(p.slice(prefix.length).split("/")[0]!);
    return [...found];
  };
  const port: FileSystemPort = {
    realpath,
    readdir: names,
    entries: (path) => {
      const real = realpath(path);
      return names(path)?.map((name) => ({ name, kind: kindOf(`${real === "/" ? "" : real}/${name}`)! }));
    },
  };
  if (plain) delete port.entries;
  return port;
}

const at = (cwd: string, fs?: FileSystemPort): SafetyContext => ({
  ...ctx,
  cwd,
  workspaceRoot: cwd,
  ...(fs === undefined ? {} : { fs }),
});

function findings(text: string, context: SafetyContext): string[] {
  const command = cmd(text);
  return classifySecrets(invocationOf(command), command, context).map((f) => `${f.code}: ${f.message}`);
}

const PROJECT = {
  "/srv/app/src/index.ts": "x",
  "/srv/app/src/lib/util.ts": "x",
  "/srv/app/README.md": "x",
};

describe("trees read whole, wherever they are", () => {
  for (const [secret, root] of [
    [".env", "/srv/app"],
    ["config/.env.production", "/workspaces/proj"],
    ["deploy/credentials.json", "/tmp/p"],
    ["keys/id_ed25519", "/srv/app"],
    ["certs/server.key", "/srv/app"],
    [".npmrc", "/tmp/p"],
    ["a/b/c/prod.env", "/workspaces/proj"],
    [".ssh/authorized_keys2.bak", "/srv/app"],
    [".aws/credentials", "/tmp/p"],
    ["vendor/.git/config", "/srv/app"],
  ] as const)
    it(`asks for a recursive read of ${root} holding ${secret}`, () => {
      const fs = world({ [`${root}/${secret}`]: "TOKEN", [`${root}/src/a.ts`]: "x" });
      for (const line of [
        "grep -r TOKEN .",
        "rg TOKEN",
        `grep -rn TOKEN ${root}`,
        "tar cf - .",
        "cp -r . /x",
      ])
        expect(findings(line, at(root, fs)).join("\n"), line).toContain(
          `secret.recursive-read: ${line.split(" ")[0]} reads everything under`,
        );
      for (const plain of [false, true])
        expect(treeSecret(root, at(root, world({ [`${root}/${secret}`]: "TOKEN" }, plain)))).toMatchObject({
          kind: "holds",
        });
    });

  it("names the secret place it found", () => {
    const fs = world({ ...PROJECT, "/srv/app/src/lib/.env.local": "TOKEN" });
    expect(findings("grep -r x src", at("/srv/app", fs))).toEqual([
      "secret.recursive-read: grep reads everything under src, which holds /srv/app/src/lib/.env.local, a place that holds secrets",
    ]);
  });

  it("allows a tree whose every name was seen and none is a secret place", () => {
    const fs = world({ ...PROJECT, "/srv/app/.env.example": "x", "/srv/app/.git": "gitdir: /elsewhere" });
    for (const line of ["grep -r TOKEN .", "rg TOKEN", "grep -rn TOKEN src", "rg -uu TOKEN", "tar cf - src"])
      expect(findings(line, at("/srv/app", fs)), line).toEqual([]);
    // a tree that does not exist holds nothing
    expect(findings("grep -r x missing", at("/srv/app", fs))).toEqual([]);
  });

  it("reads no tree for names only (rg --files) and not the archive zip writes", () => {
    const fs = world({ ...PROJECT, "/srv/app/.env": "TOKEN" });
    expect(findings("rg --files", at("/srv/app", fs))).toEqual([]);
    expect(findings("rg --type-list", at("/srv/app", fs))).toEqual([]);
    // rg takes no abbreviation: `--file` names a pattern file, and the search still reads the tree
    expect(findings("rg --file pats.txt", at("/srv/app", fs))).toHaveLength(1);
    expect(findings("zip -r out.zip src", at("/srv/app"))).toEqual([
      "secret.unknown-path: zip reads everything under src, a tree that cannot be looked at here, so it cannot be shown to hold no place that holds secrets (such as .env)",
    ]);
  });

  it("asks for a git directory of any name in the tree (it holds the repository's config)", () => {
    const fs = world({
      ...PROJECT,
      "/srv/app/store/HEAD": "x",
      "/srv/app/store/objects": "dir",
      "/srv/app/store/refs": "dir",
    });
    expect(findings("grep -r x .", at("/srv/app", fs))).toEqual([
      "secret.recursive-read: grep reads everything under ., which holds /srv/app/store/config, a place that holds secrets",
    ]);
    expect(findings("grep -r x store", at("/srv/app", fs))).toHaveLength(1);
  });

  it("asks for a link in the tree to a secret place or to a folder that holds one, and walks linked folders", () => {
    const cases: Record<string, string>[] = [
      { "/srv/app/notes.txt": "->/home/dev/.ssh/id_rsa" },
      { "/srv/app/cfg": "->/home/dev/.aws" },
      { "/srv/app/up": "->/home/dev" },
      { "/srv/app/shared": "->/opt/shared", "/opt/shared/deep/.env": "TOKEN" },
    ];
    for (const files of cases)
      expect(
        findings("grep -R x .", at("/srv/app", world({ ...PROJECT, ...files }))),
        JSON.stringify(files),
      ).toHaveLength(1);
    // a link back into the tree is walked once
    const loop = world({ ...PROJECT, "/srv/app/src/again": "->/srv/app" });
    expect(findings("grep -R x .", at("/srv/app", loop))).toEqual([]);
  });

  it("asks for a tree past the limit of names, and for a glob's trees together", () => {
    const files: Record<string, string> = {};
    for (let i = 0; i <= MAX_TREE_ENTRIES; i++) files[`/srv/app/gen/f${i}.txt`] = "x";
    expect(findings("grep -r x gen", at("/srv/app", world(files)))).toEqual([
      `secret.unknown-path: grep reads everything under gen, a tree of more than ${MAX_TREE_ENTRIES} names, too many to show that none is a place that holds secrets (such as .env)`,
    ]);
    const globbed = world({ ...PROJECT, "/srv/app/pkg/b/.env": "TOKEN", "/srv/app/pkg/a/x.ts": "x" });
    expect(findings("grep -r x pkg/*", at("/srv/app", globbed))).toHaveLength(1);
  });

  it("asks for every tree when nothing can look at the disk", () => {
    expect(findings("grep -rn x src", at("/srv/app"))).toEqual([
      "secret.unknown-path: grep reads everything under src, a tree that cannot be looked at here, so it cannot be shown to hold no place that holds secrets (such as .env)",
    ]);
    // a single file read is not a tree
    expect(findings("grep -n x src/index.ts", at("/srv/app"))).toEqual([]);
  });
});
