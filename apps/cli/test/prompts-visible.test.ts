// Every CLI prompt and message shows text from a command line, a file or a repository with its control
// characters, escape sequences and bidi marks made visible: generated hostile text in a command, a directory
// name, a team command's fields and steps never reaches the terminal raw. Runs `runMain` in-process.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { hostileText, rawControls } from "@slashi/test-utils";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { runMain } from "../src/main.js";
import { isolatedEnv, scriptedIo, tempDir } from "./helpers.js";

const tmp = tempDir("slashi-prompts-visible-");
afterAll(() => tmp.remove());
const env = isolatedEnv(tmp.dir);
mkdirSync(path.join(tmp.dir, "config"), { recursive: true });

let count = 0;
/** A new workspace whose directory name holds `text` (a file name cannot hold `/` or NUL). */
function workspace(text: string): string {
  const dir = path.join(tmp.dir, `w${count++}-${text.replace(/[/\0]/g, "_")}`);
  mkdirSync(path.join(dir, ".git"), { recursive: true });
  mkdirSync(path.join(dir, ".vscode"), { recursive: true });
  writeFileSync(path.join(dir, "build.sh"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  return dir;
}

/** Everything one CLI call printed, after the person answered `answers` (no terminal when undefined). */
async function printed(argv: string[], cwd: string, answers?: string): Promise<string> {
  const io = scriptedIo(env, cwd, answers);
  await runMain(argv, io);
  return io.out() + io.err();
}

/** Shell text for `text` as one single-quoted word (NUL cannot be in a command line). */
const word = (text: string): string => `'${text.replace(/\0/g, "").replace(/'/g, "'\\''")}'`;

describe("CLI prompts show control characters", () => {
  it("slashi approvals add: the command, argv, directory and reasons", async () => {
    await fc.assert(
      fc.asyncProperty(hostileText(), hostileText(), async (arg, dirName) => {
        const ws = workspace(dirName);
        const lines = [
          "./build.sh ok",
          `./build.sh ${word(arg)}`,
          `curl ${word(arg)} | sh`,
          `rm -rf / ${word(arg)}`,
        ];
        for (const line of lines) {
          for (const answers of ["c\n", undefined]) {
            const out = await printed(["approvals", "add", "--", line], ws, answers);
            expect(rawControls(out), out).toEqual([]);
            if (line === "./build.sh ok" && answers !== undefined) expect(out).toContain("approve for later");
          }
        }
      }),
      { numRuns: 12 },
    );
  });

  it("slashi run, run --dry-run and list: a team command's source, names, fields and steps", async () => {
    await fc.assert(
      fc.asyncProperty(hostileText(), hostileText(), async (text, dirName) => {
        const ws = workspace(dirName);
        writeFileSync(
          path.join(ws, ".vscode", "slashi.json"),
          JSON.stringify({
            version: 1,
            commands: [
              {
                name: "ship",
                description: text,
                steps: [
                  { type: "notify", message: text },
                  { type: "terminal", command: `echo ${word(text)}` },
                  { type: "slash", command: "/helper" },
                ],
              },
              {
                name: "helper",
                description: text,
                steps: [{ type: "terminal", command: `printf ${word(text)}` }],
              },
            ],
          }),
        );
        await printed(["trust"], ws);
        for (const [argv, answers] of [
          [["run", "/ship"], "c\n"],
          [["run", "/ship"], undefined],
          [["run", "--dry-run", "/ship"], undefined],
          [["list"], undefined],
        ] as const) {
          const out = await printed([...argv], ws, answers);
          expect(rawControls(out), out).toEqual([]);
          if (answers !== undefined) expect(out).toContain("approval needed");
        }
        // A name the schema refuses: the error names the file and the field.
        writeFileSync(
          path.join(ws, ".vscode", "slashi.json"),
          JSON.stringify({
            version: 1,
            commands: [{ name: text, steps: [{ type: "notify", message: "x" }] }],
          }),
        );
        const out = await printed(["run", `/${text}`], ws);
        expect(rawControls(out), out).toEqual([]);
      }),
      { numRuns: 8 },
    );
  });
});
