// One line, one dialect: tree-sitter reads every POSIX-family line with bash's grammar, so a line for dash or zsh
// is decided as the program that shell runs. Each construct is run under the real shells in a temporary
// directory: under dash the bash-only forms print or do something else than under bash, under zsh the zsh forms
// run code or overwrite files. The decision for that shell must not be `allow`; plain POSIX lines stay `allow`.
import { spawnSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskPort, requireTool, tempDir } from "@slashi/test-utils";
import { decide, loadShellParser, resolvePolicy } from "../src/index.js";

const BASH = requireTool("bash", "the dialect grammar tests");
const DASH = requireTool("dash", "the dialect grammar tests");
const ZSH = requireTool("zsh", "the dialect grammar tests");
const scratch = tempDir("slashi-dialect-");
const dir = scratch.dir;
const policy = resolvePolicy([]);

/** The disk the lines run on: a tree a line reads whole is walked there. */
const disk = diskPort();

function verdict(line: string, shell: string): string {
  return decide(line, policy, { cwd: dir, workspaceRoot: dir, home: join(dir, "home"), shell, fs: disk })
    .decision;
}

/** Runs a line under a shell in the temporary directory: exit status and standard output. */
function run(shell: string, line: string): string {
  const result = spawnSync(shell, ["-c", line], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C" },
    encoding: "utf8",
    timeout: 30_000,
    killSignal: "SIGKILL",
    stdio: ["ignore", "pipe", "ignore"],
  });
  return `${String(result.status)}:${result.stdout}`;
}

beforeAll(async () => {
  await loadShellParser();
  writeFileSync(join(dir, "seed"), "");
});

afterAll(() => {
  scratch.remove();
});

/** bash-only forms; X and Y are replaced with generated words. */
const BASH_ONLY: readonly string[] = [
  "((echo X))",
  "echo {X,Y}",
  "echo X{1..2}",
  "echo $'X\\x41'",
  "cat <<< X",
  "v=XY; echo ${v/X/Y}",
  "v=XY; echo ${v:1}",
  "v=X; echo ${v^^}",
  "a=(X Y); echo $a",
  "echo X &>/dev/null; wait; echo Y",
  "echo X |& cat",
  "function f { echo X; }; f",
  "cat <(echo X)",
  "[[ X == X ]] && echo Y",
  "echo $[1+2] X",
  "for ((i=0;i<1;i++)); do echo X; done",
  "declare v=X; echo $v",
  "echo X >&/dev/null; echo Y",
];

const fill = (template: string, x: string, y: string): string =>
  template.replaceAll("X", () => x).replaceAll("Y", () => y);

describe.skipIf(!BASH || !DASH)("bash-only syntax under dash and sh", () => {
  it.each(BASH_ONLY)("%s: dash runs another program, and dash and sh ask", (template) => {
    const line = fill(template, "alpha", "beta");
    expect(run(DASH as string, line), line).not.toBe(run(BASH as string, line));
    expect(verdict(line, "dash"), line).not.toBe("allow");
    expect(verdict(line, "/bin/sh"), line).not.toBe("allow");
  });

  // dozens of real shell processes: the timeout is a hang guard with room for a loaded machine
  it("asks for generated variants", { timeout: 300_000 }, () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...BASH_ONLY),
        fc.stringMatching(/^[a-z]{1,6}$/),
        fc.stringMatching(/^[a-z]{1,6}$/),
        fc.constantFrom("", "ls; ", "true && "),
        (template, x, y, before) => {
          const line = before + fill(template, x, y);
          if (run(DASH as string, line) === run(BASH as string, line)) return;
          expect(verdict(line, "dash"), line).not.toBe("allow");
        },
      ),
      { numRuns: 40 },
    );
  });

  it("reads a sh -c payload in sh's grammar and a bash -c payload in bash's", () => {
    expect(verdict("sh -c 'echo {a,b}'", "bash")).not.toBe("allow");
    const analysis = decide("bash -c 'echo {a,b}'", policy, { cwd: dir, shell: "dash" });
    expect(analysis.reasons.map((r) => r.code)).not.toContain("shell.dialect-syntax");
  });

  it.each([
    "ls -la | head -3",
    "git status && ls",
    "echo $((1+2)) ${HOME:-x} ${#HOME} ${HOME%/*}",
    'for f in *.ts; do echo "$f"; done',
    "cat README.md | head",
    "grep -rn TODO src",
    "ls 2>&1 | head",
  ])("keeps %s allowed under dash", (line) => {
    expect(verdict(line, "dash")).toBe("allow");
  });
});

/** zsh forms that run code; MARK is the marker file. */
const ZSH_CODE: readonly string[] = [
  "echo *(e:'touch MARK':)",
  'echo *(e:"touch MARK":)',
  "x='$(touch MARK)'; echo ${(e)x}",
  "echo =(touch MARK)",
  "f() { touch MARK; }; echo *(+f)",
  "echo seed(e:'touch MARK':)",
];

describe.skipIf(!ZSH)("zsh's own forms under zsh", () => {
  const creates = (line: string, marker: string): boolean => {
    rmSync(join(dir, marker), { force: true });
    run(ZSH as string, line);
    const created = existsSync(join(dir, marker));
    rmSync(join(dir, marker), { force: true });
    return created;
  };

  it.each(ZSH_CODE)("%s: zsh runs the payload and the decision asks", (template) => {
    const line = template.replaceAll("MARK", "marker");
    expect(creates(line, "marker"), line).toBe(true);
    expect(verdict(line, "zsh"), line).not.toBe("allow");
    expect(verdict(line, "/usr/bin/zsh"), line).not.toBe("allow");
  });

  // dozens of real shell processes: the timeout is a hang guard with room for a loaded machine
  it("asks for generated variants", { timeout: 300_000 }, () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZSH_CODE),
        fc.stringMatching(/^[a-z]{1,8}$/),
        fc.constantFrom("", "ls; ", "true && "),
        (template, marker, before) => {
          const line = before + template.replaceAll("MARK", marker);
          if (!creates(line, marker)) return;
          expect(verdict(line, "zsh"), line).not.toBe("allow");
        },
      ),
      { numRuns: 30 },
    );
  });

  it.each([
    "x='se*'; echo $~x",
    "x='se*'; echo ${~x}",
    "x='a b'; printf '%s.' $=x",
    "x='a b'; printf '%s.' ${=x}",
  ])("%s: zsh expands it differently from bash, and the decision asks", (line) => {
    expect(run(ZSH as string, line)).not.toBe(run(BASH as string, line));
    expect(verdict(line, "zsh")).not.toBe("allow");
  });

  it.each(["echo new >! seed", "echo new >| seed", "echo new >>! seed"])(
    "%s: zsh overwrites a file under noclobber, and the decision asks",
    (line) => {
      writeFileSync(join(dir, "seed"), "old\n");
      run(ZSH as string, `setopt noclobber; ${line}; cat seed`);
      expect(verdict(line, "zsh")).not.toBe("allow");
      writeFileSync(join(dir, "seed"), "");
    },
  );

  it.each(["ls -la", "git log --oneline | head -5", "echo $((1+2)) ${HOME:-x}", "echo \"a(b)\" 'x(y)'"])(
    "keeps %s allowed under zsh",
    (line) => {
      expect(verdict(line, "zsh")).toBe("allow");
    },
  );
});
