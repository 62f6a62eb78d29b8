// Round-trips random values through real shells: each value is quoted, written into a script as
// `printf '%s\0' <quoted>`, the script is run by the shell, and the bytes printed must be the value's UTF-8 bytes.
// The shell parses the quoted text itself, so this checks the quoter against the shell, not against a model.
//
// Linux CI installs dash, bash, zsh and fish; there a missing shell fails the run. Elsewhere it is skipped with a
// note. PowerShell is round-tripped when `pwsh` is on PATH, and cmd.exe (through a batch file and directly) on
// Windows; both are skipped with a note otherwise.
// SLASHI_QUOTE_RUNS raises the number of values per shell (default 2000); SLASHI_QUOTE_SEED replays a run.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir, underCi } from "@slashi/test-utils";
import type { QuoteDialect } from "../src/index.js";
import { quote } from "../src/index.js";
import { buildCmdArguments } from "../src/internal.js";

const RUNS = Math.max(2000, Number(process.env.SLASHI_QUOTE_RUNS ?? 0) || 0);
const SEED = process.env.SLASHI_QUOTE_SEED === undefined ? undefined : Number(process.env.SLASHI_QUOTE_SEED);
const BATCH = 100;
const END = "round-trip-complete";

interface ShellUnderTest {
  /** Label in test names. */
  label: string;
  /** Program name looked up on PATH. */
  program: string;
  /** Arguments before the script text. */
  args: string[];
  dialect: QuoteDialect;
}

const SHELLS: ShellUnderTest[] = [
  { label: "dash", program: "dash", args: ["-c"], dialect: "posix" },
  { label: "bash", program: "bash", args: ["--norc", "--noprofile", "-c"], dialect: "posix" },
  {
    label: "bash --posix",
    program: "bash",
    args: ["--posix", "--norc", "--noprofile", "-c"],
    dialect: "posix",
  },
  { label: "zsh", program: "zsh", args: ["-f", "-c"], dialect: "posix" },
  { label: "zsh -o rcquotes", program: "zsh", args: ["-f", "-o", "rcquotes", "-c"], dialect: "posix" },
  { label: "zsh --emulate sh", program: "zsh", args: ["--emulate", "sh", "-f", "-c"], dialect: "posix" },
  { label: "fish", program: "fish", args: ["--no-config", "-c"], dialect: "fish" },
];

const scratch = tempDir("slashi-quote-");
const home = scratch.dir;
afterAll(() => scratch.remove());

/** A small, predictable environment: UTF-8 locale, a throw-away home, no start-up files. */
const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  LC_ALL: "C.UTF-8",
  HOME: home,
  XDG_CONFIG_HOME: join(home, "config"),
  XDG_DATA_HOME: join(home, "data"),
  XDG_CACHE_HOME: join(home, "cache"),
};

const isWindows = process.platform === "win32";
/** Shells whose absence fails a CI run: the Linux CI installs them. */
const requiredInCi = underCi() && process.platform === "linux";

/** Absolute path of a program on PATH that starts and runs `probeArgs` successfully. */
function findOnPath(program: string, probeArgs: string[] = ["-c", "exit 0"]): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, isWindows ? `${program}.exe` : program);
    const probe = spawnSync(candidate, probeArgs, {
      cwd: home,
      env: isWindows ? process.env : env,
      stdio: "ignore",
      timeout: 30_000,
    });
    if (probe.error === undefined && probe.status === 0) return candidate;
  }
  return undefined;
}

/** Runs a script with the shell; returns stdout, and stderr and status for failure messages. */
function run(
  shell: ShellUnderTest,
  path: string,
  script: string,
): { stdout: Buffer; stderr: string; status: number | null } {
  // The shell runs in the throw-away home: if a quoting bug lets a value escape, a stray `>` lands there.
  const result = spawnSync(path, [...shell.args, script], {
    cwd: home,
    env,
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  return { stdout: result.stdout, stderr: result.stderr.toString("utf8"), status: result.status };
}

/** Characters that matter to some shell, and look-alikes that matter to readers. */
const TRICKY = [
  "'",
  '"',
  "\\",
  "$",
  "`",
  "*",
  "?",
  "[",
  "]",
  "{",
  "}",
  "~",
  "!",
  "#",
  "&",
  ";",
  "|",
  "<",
  ">",
  "(",
  ")",
  "=",
  "%",
  "^",
  ",",
  " ",
  "\t",
  "\n",
  "\r",
  "\v",
  "\f",
  "$(",
  "${",
  "$'",
  "'\\''",
  "\\'",
  "\\\\",
  "''",
  "-",
  "--",
  "-n",
  "%s",
  "\\0",
  "\\n",
  "\\x41",
  "\x01",
  "\x1b",
  "\x7f",
  "\u0083",
  "\u0085",
  "\u00a0",
  "\u00ff",
  "\u2018",
  "\u2019",
  "\u201a",
  "\u201b",
  "\u201c",
  "\u201d",
  "\u2013",
  "\u2028",
  "\u200b",
  "\u202e",
  "\ufeff",
  "\ufdd0",
  "\uf600",
  "\ufffd",
  "é",
  "e\u0301",
  "😀",
  "𝄞",
];
const unit = fc.oneof(
  { arbitrary: fc.constantFrom(...TRICKY), weight: 4 },
  { arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }), weight: 2 },
  { arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }), weight: 2 },
);
const value = fc.string({ unit, maxLength: 32 }).filter((s) => !s.includes("\0"));

function scriptFor(values: readonly string[], dialect: QuoteDialect): string {
  const lines = values.map((v) => `printf '%s\\0' ${quote(v, dialect)}`);
  return `${lines.join("\n")}\nprintf '%s' ${END}\n`;
}

function expectedBytes(values: readonly string[]): Buffer {
  return Buffer.concat([...values.map((v) => Buffer.from(`${v}\0`, "utf8")), Buffer.from(END)]);
}

/** Explains the first value whose bytes differ, for the failure message. */
function firstMismatch(values: readonly string[], stdout: Buffer, dialect: QuoteDialect): string {
  const parts = stdout.toString("utf8").split("\0");
  const index = values.findIndex((v, i) => parts[i] !== v);
  if (index < 0) return `output differs after the last value: ${JSON.stringify(parts.slice(values.length))}`;
  return `value #${index} ${JSON.stringify(values[index])} quoted as ${JSON.stringify(
    quote(values[index] as string, dialect),
  )} came back as ${JSON.stringify(parts[index])}`;
}

for (const shell of SHELLS) {
  const path = findOnPath(shell.program);
  if (path === undefined) {
    if (requiredInCi) {
      it(`round-trips quoted values through ${shell.label}`, () => {
        throw new Error(`${shell.program} is not installed; CI must install dash, bash, zsh and fish`);
      });
    } else {
      console.warn(`quoting round-trip: ${shell.program} is not installed, skipping ${shell.label}`);
      it.skip(`round-trips quoted values through ${shell.label} (${shell.program} not installed)`, () => {});
    }
    continue;
  }

  describe(`${shell.label} (${shell.dialect} dialect)`, () => {
    it("prints the fixed tricky values back unchanged", () => {
      const values = ["", ...TRICKY, TRICKY.join(""), "x".repeat(5000)];
      const out = run(shell, path, scriptFor(values, shell.dialect));
      const message = `${firstMismatch(values, out.stdout, shell.dialect)}\n${out.stderr}`;
      expect(out.stdout.equals(expectedBytes(values)), message).toBe(true);
    });

    it(`round-trips ${RUNS} random values`, () => {
      let checked = 0;
      fc.assert(
        fc.property(fc.array(value, { minLength: BATCH, maxLength: BATCH }), (values) => {
          const out = run(shell, path, scriptFor(values, shell.dialect));
          checked += values.length;
          const same = out.stdout.equals(expectedBytes(values));
          if (!same) {
            throw new Error(
              `${shell.label} (exit ${out.status}): ${firstMismatch(values, out.stdout, shell.dialect)}\n${out.stderr}`,
            );
          }
        }),
        { numRuns: Math.ceil(RUNS / BATCH), seed: SEED, endOnFailure: false },
      );
      expect(checked).toBeGreaterThanOrEqual(RUNS);
    }, 300_000);

    it("keeps two quoted values written side by side as two arguments", () => {
      const pairs: [string, string][] = [
        ["", ""],
        ["a'", "'b"],
        ["'", "'"],
        ["x\\", "\\"],
        ["", "'"],
      ];
      const script = pairs
        .map(([a, b]) => `printf '%s\\0' ${quote(a, shell.dialect)} ${quote(b, shell.dialect)}`)
        .join("\n");
      const out = run(shell, path, `${script}\nprintf '%s' ${END}\n`);
      expect(out.stdout.equals(expectedBytes(pairs.flat()))).toBe(true);
    });
  });
}

describe("why wsl.exe fails closed", () => {
  const fish = findOnPath("fish");
  it.skipIf(fish === undefined)("shows that posix quoting is not safe when fish reads it", () => {
    const payload = "\\'; echo INJECTED; echo \\'";
    const out = run(
      SHELLS.find((s) => s.label === "fish") as ShellUnderTest,
      fish as string,
      `printf '%s\\n' ${quote(payload, "posix")}`,
    );
    expect(out.stdout.toString("utf8")).toContain("INJECTED\n");
  });
});

describe("PowerShell (powershell dialect)", () => {
  const pwsh = findOnPath("pwsh", ["-NoProfile", "-NonInteractive", "-Command", "exit 0"]);
  if (pwsh === undefined) console.warn("quoting round-trip: pwsh is not on PATH, skipping PowerShell");

  /** A .ps1 that writes each quoted literal's UTF-8 bytes and a NUL straight to stdout. */
  function runPowerShell(values: readonly string[]): Buffer {
    const lines = [
      "$ErrorActionPreference = 'Stop'",
      "$out = [Console]::OpenStandardOutput()",
      ...values.map(
        (v) =>
          `$b = [Text.Encoding]::UTF8.GetBytes(${quote(v, "powershell")} + [char]0); $out.Write($b, 0, $b.Length)`,
      ),
      `$b = [Text.Encoding]::UTF8.GetBytes('${END}'); $out.Write($b, 0, $b.Length)`,
      "$out.Flush()",
    ];
    const file = join(home, "round-trip.ps1");
    // UTF-8 with a byte order mark, which Windows PowerShell needs to read the file as UTF-8.
    writeFileSync(file, `\ufeff${lines.join("\n")}\n`, "utf8");
    const result = spawnSync(pwsh as string, ["-NoProfile", "-NonInteractive", "-File", file], {
      cwd: home,
      env: process.env,
      timeout: 120_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    if (result.error) throw result.error;
    return result.stdout;
  }

  it.skipIf(pwsh === undefined)("prints the smart-quote incident values back unchanged", () => {
    const values = [
      "O\u2019Brien",
      "a\u201bb",
      "'\u2018\u2019\u201a\u201b",
      "x\u2019; calc; \u2019",
      "",
      ...TRICKY,
    ];
    const stdout = runPowerShell(values);
    expect(stdout.equals(expectedBytes(values)), firstMismatch(values, stdout, "powershell")).toBe(true);
  });

  it.skipIf(pwsh === undefined)(
    "round-trips random values",
    () => {
      fc.assert(
        fc.property(fc.array(value, { minLength: BATCH, maxLength: BATCH }), (values) => {
          const stdout = runPowerShell(values);
          if (!stdout.equals(expectedBytes(values)))
            throw new Error(firstMismatch(values, stdout, "powershell"));
        }),
        { numRuns: 5, seed: SEED, endOnFailure: false },
      );
    },
    600_000,
  );
});

describe.skipIf(!isWindows)("cmd.exe (cmd dialect, Windows only)", () => {
  const printArgs = join(home, "print-args.js");
  const shim = join(home, "print-args.cmd");
  const comspec = process.env.ComSpec ?? "C:\\Windows\\System32\\cmd.exe";
  // Characters cmd cannot carry are refused by the quoter, so they are left out of the values.
  const cmdValue = fc
    .string({ unit, maxLength: 12 })
    .filter((s) => !["\0", "\r", "\n", "\u001a"].some((c) => s.includes(c)));

  function runCmd(argv: readonly string[]): string[] {
    writeFileSync(printArgs, "process.stdout.write(JSON.stringify(process.argv.slice(2)));\n");
    // An npm-style shim: the batch file hands its arguments (%*) to cmd's parser once more.
    writeFileSync(shim, `@"${process.execPath}" "${printArgs}" %*\r\n`);
    const result = spawnSync(comspec, buildCmdArguments(argv), {
      cwd: home,
      env: process.env,
      windowsVerbatimArguments: true,
      timeout: 60_000,
    });
    if (result.error) throw result.error;
    return JSON.parse(result.stdout.toString("utf8")) as string[];
  }

  const incidents = [
    '"&calc',
    "%PATH%",
    "^",
    '"\\"',
    "trailing\\",
    "!x!",
    "%cd%",
    "a b",
    "",
    '()%!^"<>&|;, ',
  ];

  it("passes the BatBadBut inputs through a batch file unchanged", () => {
    expect(runCmd([shim, ...incidents])).toEqual(incidents);
  });

  it("passes the BatBadBut inputs to a program unchanged", () => {
    expect(runCmd([process.execPath, printArgs, ...incidents])).toEqual(incidents);
  });

  it("round-trips random values through a batch file", () => {
    fc.assert(
      fc.property(fc.array(cmdValue, { minLength: 1, maxLength: 20 }), (values) => {
        expect(runCmd([shim, ...values])).toEqual(values);
      }),
      { numRuns: 50, seed: SEED, endOnFailure: false },
    );
  }, 600_000);
});
