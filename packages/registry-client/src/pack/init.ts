/**
 * `slashi pack init`: scaffolds a pack folder with a package.json (keyword `slashi-pack`, `files`), a
 * `slashi-pack.json` with one example command, and a README.
 */
import { open } from "node:fs/promises";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PACK_KEYWORD, PACK_MANIFEST_FILE, SlashiError, SlashiErrorCode } from "@slashi/core";
import { assertPackName } from "../registry/client.js";

/** Options of {@link scaffoldPack}. */
export interface ScaffoldOptions {
  /** Package name, such as `@acme/slashi-pack`. */
  name: string;
  /** One-line description. */
  description?: string;
  /** Start version (default `0.1.0`). */
  version?: string;
}

/** The files {@link scaffoldPack} writes, by name, for a given name and description. */
export function scaffoldFiles(options: ScaffoldOptions): Record<string, string> {
  const description = options.description ?? "Slashi commands and policy shared by our team";
  const packageJson = {
    name: options.name,
    version: options.version ?? "0.1.0",
    description,
    keywords: [PACK_KEYWORD],
    files: [PACK_MANIFEST_FILE, "README.md"],
    license: "UNLICENSED",
  };
  const manifest = `{
  "$schema": "https://slashi.dev/schemas/pack-manifest.json",
  "version": 1,
  "commands": [
    {
      "name": "hello",
      "description": "Say hello from the pack",
      "steps": [{ "type": "notify", "message": "Hello from ${options.name}" }]
    },
    {
      "name": "status",
      "description": "Show the repository status",
      "steps": [{ "type": "terminal", "command": "git status --short" }]
    }
  ],
  "policy": {
    "version": 1,
    "rules": [{ "match": ["git", "push", "--force"], "decision": "deny", "reason": "Force pushes go through review" }]
  }
}
`;
  const readme = `# ${options.name}

${description}.

A [Slashi](https://slashi.dev) action pack. Install it with \`slashi pack install ${options.name}\`; its commands
that act on the machine ask each person once, bound to this pack's exact version.

To use its policy, add the pack to your policy's \`extends\`:

\`\`\`json
{ "version": 1, "extends": ["recommended", "${options.name}"] }
\`\`\`

Publish a new version with \`slashi pack publish\` after raising \`version\` in package.json.
`;
  return {
    "package.json": `${JSON.stringify(packageJson, null, 2)}\n`,
    [PACK_MANIFEST_FILE]: manifest,
    "README.md": readme,
  };
}

/**
 * Writes a new pack into `dir` (created when missing). Refuses to overwrite any existing file.
 * @returns the absolute paths written
 * @throws SlashiError `PACK_INVALID` for a bad name, `IO_FAILED` when a file exists or cannot be written
 */
export async function scaffoldPack(dir: string, options: ScaffoldOptions): Promise<string[]> {
  assertPackName(options.name);
  const root = path.resolve(dir);
  await mkdir(root, { recursive: true });
  const written: string[] = [];
  for (const [name, text] of Object.entries(scaffoldFiles(options))) {
    const file = path.join(root, name);
    let handle;
    try {
      handle = await open(file, "wx", 0o644);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "error";
      throw new SlashiError(
        SlashiErrorCode.IO_FAILED,
        code === "EEXIST"
          ? `${file} already exists; nothing was overwritten`
          : `cannot write ${file}: ${code}`,
        { file },
      );
    }
    try {
      await handle.writeFile(text, "utf8");
    } finally {
      await handle.close();
    }
    written.push(file);
  }
  return written;
}
