// The extension's manifest as the Marketplace and VS Code read it: the icon, the walkthrough and the JSON
// validation of Slashi's files. What the packaged .vsix holds is checked by the end-to-end run (e2e/run-e2e.mjs).
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const file = (relative: string): string => `${root}${relative.replace(/^\.\//, "")}`;

interface Manifest {
  icon?: string;
  contributes: {
    commands: { command: string }[];
    jsonValidation: { fileMatch: string | string[]; url: string }[];
    walkthroughs: {
      id: string;
      steps: { id: string; description: string; media: { markdown?: string }; completionEvents?: string[] }[];
    }[];
  };
}
const manifest = JSON.parse(readFileSync(file("package.json"), "utf8")) as Manifest;
const ignore = readFileSync(file(".vscodeignore"), "utf8").split("\n");
/** Editor commands a walkthrough may link to besides the extension's own. */
const BUILT_IN = new Set(["workbench.trust.manage"]);

/** The width and height in a PNG's header, or undefined when the bytes are no PNG. */
function pngSize(bytes: Buffer): { width: number; height: number } | undefined {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (!bytes.subarray(0, 8).equals(signature) || bytes.toString("latin1", 12, 16) !== "IHDR")
    return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe("the extension's manifest", () => {
  it("names a square PNG icon of at least 128 pixels that the .vsix takes in", () => {
    expect(manifest.icon).toBe("media/icon.png");
    const size = pngSize(readFileSync(file(manifest.icon!)));
    expect(size).toBeDefined();
    expect(size!.width).toBe(size!.height);
    expect(size!.width).toBeGreaterThanOrEqual(128);
    expect(ignore).toContain(`!${manifest.icon}`);
    expect(existsSync(file("media/icon.svg"))).toBe(true);
  });

  it("walks through trusting a workspace, running a team command, approving and installing a pack", () => {
    const [walkthrough] = manifest.contributes.walkthroughs;
    expect(walkthrough?.steps.map((s) => s.id)).toEqual(["trust", "run", "approve", "packs"]);
    const own = new Set(manifest.contributes.commands.map((c) => c.command));
    for (const step of walkthrough!.steps) {
      const markdown = step.media.markdown!;
      expect(readFileSync(file(markdown), "utf8")).toMatch(/^# /);
      expect(ignore).toContain("!media/walkthrough/*.md");
      const links = [...step.description.matchAll(/\(command:([\w.]+)\)/g)].map((m) => m[1]!);
      expect(links.length).toBeGreaterThan(0);
      for (const command of links) expect(own.has(command) || BUILT_IN.has(command), command).toBe(true);
      for (const event of step.completionEvents ?? []) {
        const command = /^onCommand:(.+)$/.exec(event)?.[1];
        if (command !== undefined) expect(own.has(command), event).toBe(true);
      }
    }
  });

  it("validates the team file, the user's commands and every policy file with the core's schemas", () => {
    const byUrl = new Map(
      manifest.contributes.jsonValidation.map((v) => [v.url, [v.fileMatch].flat()] as const),
    );
    expect(byUrl.get("./dist/team-file.schema.json")).toEqual([
      ".vscode/slashi.json",
      "slashi/commands.json",
    ]);
    // workspace policy, the user's <config dir>/policy.json and the managed policy (/etc/slashi, …/Slashi)
    expect(byUrl.get("./dist/policy.schema.json")).toEqual([
      ".vscode/slashi-policy.json",
      "slashi/policy.json",
      "Slashi/policy.json",
    ]);
    for (const url of byUrl.keys()) expect(ignore).toContain(`!${url.replace(/^\.\//, "")}`);
  });
});
