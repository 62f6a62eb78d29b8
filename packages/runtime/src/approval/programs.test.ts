import { readdirSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { programName, SHELLS } from "./programs.js";

describe("the programs the binding knows by name", () => {
  it("takes its shells from core's one list, restricted and versioned names included", () => {
    for (const [word, name] of [
      ["rbash", "rbash"],
      ["/usr/bin/yash", "yash"],
      ["/bin/zsh5", "zsh"],
      ["bash5.2", "bash"],
      ["rzsh", "rzsh"],
      ["/usr/bin/python3.12", "python3"],
      ["node20", "node"],
    ] as const) {
      expect(programName(word), word).toBe(name);
    }
    for (const name of ["sh", "bash", "rbash", "dash", "zsh", "rzsh", "yash", "ksh", "mksh", "fish"])
      expect(SHELLS.has(name), name).toBe(true);
  });

  it("knows every name the shells installed on this machine answer to", () => {
    // Each file in the system's program folders that is one of the real shells (a link or copy: rbash, rzsh, zsh5,
    // sh) must be known as a shell, or a script it runs would not be read for what it pulls in.
    const real = new Map<string, string>();
    const folders = ["/bin", "/usr/bin"].filter(
      (dir) => statSync(dir, { throwIfNoEntry: false }) !== undefined,
    );
    for (const shell of ["bash", "dash", "zsh", "yash", "ksh", "mksh", "fish"])
      for (const dir of folders) {
        const file = path.join(dir, shell);
        if (statSync(file, { throwIfNoEntry: false })?.isFile() === true) real.set(realpathSync(file), shell);
      }
    expect(real.size).toBeGreaterThan(0);
    const aliases: string[] = [];
    for (const dir of folders)
      for (const entry of readdirSync(dir)) {
        let target: string;
        try {
          target = realpathSync(path.join(dir, entry));
        } catch {
          continue;
        }
        if (!real.has(target)) continue;
        aliases.push(entry);
        expect(SHELLS.has(programName(entry)), `${dir}/${entry} runs ${real.get(target)}`).toBe(true);
      }
    expect(aliases).toContain("bash");
  });
});
