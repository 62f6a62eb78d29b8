import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ctx } from "../../test/safety/command.js";
import type { ExtractedCommand, Redirect } from "../shell/types.js";
import { commandFromArgv } from "./argv.js";
import { classifyCommand } from "./classify.js";
import { SAFETY_CODES } from "./codes.js";
import { detectForkBomb } from "./destroy.js";
import { readAwkProgram } from "./awk-program.js";
import { readSedScript } from "./sed-script.js";

const PROGRAMS = [
  "rm",
  "git",
  "find",
  "sed",
  "awk",
  "rg",
  "tar",
  "python",
  "node",
  "pwsh",
  "dd",
  "chmod",
  "kill",
  "curl",
  "npm",
  "pip",
  "cp",
  "mv",
  "tee",
  "sort",
  "ssh",
  "rsync",
  "xargs",
  "env",
  "sudo",
  "busybox",
  "Remove-Item",
  "./x",
];
const WORDS = [
  "-rf",
  "-r",
  "-f",
  "--force",
  "--",
  "/",
  "~",
  "..",
  ".",
  "*",
  "$X",
  "-c",
  "-e",
  "-i",
  "-exec",
  "-delete",
  "push",
  "reset",
  "--hard",
  "of=/dev/sda",
  "~/.bashrc",
  ".vscode/settings.json",
  ".env",
  "-o",
  "s/a/b/e",
  "+main",
  ":x",
  "-Command",
  "-enc",
  "/etc",
  "$(x)",
  "`x`",
  '"$HOME"',
  "'a b'",
  "-",
  "=",
  "--output=x",
  "C:\\",
];

const word = fc.oneof(fc.constantFrom(...WORDS), fc.string({ maxLength: 12 }));
const redirect: fc.Arbitrary<Redirect> = fc.record({
  op: fc.constantFrom(">", ">>", "<", "&>", ">&", "<<<", "<>", ">|"),
  target: fc.option(fc.oneof(fc.constantFrom(...WORDS), fc.string({ maxLength: 12 })), { nil: null }),
  text: fc.string({ maxLength: 10 }),
});
const command: fc.Arbitrary<ExtractedCommand> = fc
  .tuple(
    fc.constantFrom(...PROGRAMS),
    fc.array(word, { maxLength: 8 }),
    fc.array(redirect, { maxLength: 2 }),
    fc.boolean(),
  )
  .map(([program, args, redirects, markDynamic]) => {
    const argv = [program, ...args];
    const dynamic = markDynamic ? argv.flatMap((w, i) => (/[$`*]/.test(w) ? [i] : [])) : [];
    return { ...commandFromArgv(argv), dynamic, redirects };
  });

const severities = new Map(SAFETY_CODES.map((c) => [c.code, c.severity]));

describe("classifiers under random input", () => {
  it("never throw and only raise listed codes with their listed severity", () => {
    fc.assert(
      fc.property(command, fc.boolean(), (c, windows) => {
        const context = windows ? { ...ctx, platform: "windows" as const } : ctx;
        for (const f of classifyCommand(c, context)) {
          expect(severities.get(f.code)).toBe(f.severity);
          expect(f.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("read any sed script or awk program without throwing", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        const sed = readSedScript(text);
        expect(typeof sed.unparsed).toBe("boolean");
        const awk = readAwkProgram(text);
        expect(typeof awk.executes).toBe("boolean");
        expect(() => detectForkBomb(text)).not.toThrow();
      }),
      { numRuns: 3000 },
    );
  });

  it("finds the same rm danger whatever the order of flags and target", () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(["-r", "-f", "-v", "/"], { minLength: 4, maxLength: 4 }), (args) => {
        const codes = classifyCommand(commandFromArgv(["rm", ...args]), ctx).map((f) => f.code);
        expect(codes).toContain("rm.recursive-root");
      }),
    );
  });
});
