// The script an interpreter runs, read by its option table (`interpreterLaunch`), checked against the real
// interpreters: every file of a temp folder appends its own name to a marker file when it runs, the option
// values are those same names (`python3 -W ignore b`, `bash -O extglob a`), and whatever ran must be the script
// (or a file an option loads) that the launch named. A refused launch runs nothing that is then remembered.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCiTool, requireTool, scratchDir } from "@slashi/test-utils";
import { interpreterLaunch } from "../src/shell/launch.js";

/** Names of the files in the folder; option values and the script are drawn from them. */
const NAMES = ["a", "b", "errexit", "extglob", "nounset", "dev", "ignore", "default", "sh"] as const;
const name = fc.constantFrom(...NAMES);

/** Where the program is found (python's own executable, past a version manager's shim). */
function which(program: string): string | undefined {
  const script =
    program === "python3" ? `python3 -c 'import sys; print(sys.executable)'` : `command -v ${program}`;
  const found = spawnSync("sh", ["-c", script], { encoding: "utf8" });
  const out = found.stdout.trim();
  return found.status === 0 && out !== "" ? out : undefined;
}

interface Subject {
  program: string;
  /** The body of a file that records `self` in `ran`. */
  body: (self: string) => string;
  /** Option words, some with values drawn from {@link NAMES}. */
  options: fc.Arbitrary<readonly string[]>;
}

const shell = (self: string): string => `printf '%s\\n' ${self} >> ran\n`;

const SUBJECTS: Subject[] = [
  {
    program: "bash",
    body: shell,
    options: fc.oneof(
      fc.constantFrom(["-e"], ["-u"], ["+e"], ["-eu"], ["--norc"], ["--noprofile"], ["--posix"], ["--"]),
      name.map((v) => ["-O", v]),
      name.map((v) => ["+O", v]),
      name.map((v) => ["-o", v]),
      name.map((v) => ["-eO", v]),
      name.map((v) => [`-O${v}`]),
      fc.constantFrom("-Oe", "-oe", "+Ou", "-Ox").chain((w) => name.map((v) => [w, v])),
      fc.tuple(name, name).map(([v, w]) => ["-oO", v, w]),
      name.map((v) => ["--rcfile", v]),
      name.map((v) => [`--rcfile=${v}`]),
    ),
  },
  {
    program: "dash",
    body: shell,
    options: fc.oneof(
      fc.constantFrom(["-e"], ["-u"], ["+e"], ["--"]),
      name.map((v) => ["-o", v]),
      name.map((v) => ["-eo", v]),
      name.map((v) => [`-o${v}`]),
      fc.constantFrom("-oe", "+ou").chain((w) => name.map((v) => [w, v])),
    ),
  },
  {
    program: "zsh",
    body: shell,
    options: fc.oneof(
      fc.constantFrom(["-e"], ["-f"], ["--no-rcs"], ["--"], ["--emulate", "sh"]),
      name.map((v) => ["-o", v]),
      name.map((v) => [`-o${v}`]),
      name.map((v) => ["+o", v]),
      name.map((v) => ["--emulate", v]),
    ),
  },
  {
    program: "python3",
    body: (self) => `open('ran', 'a').write('${self}\\n')\n`,
    options: fc.oneof(
      fc.constantFrom(["-B"], ["-u"], ["-E"], ["-I"], ["-s"], ["-bB"], ["-O"], ["--"]),
      name.map((v) => ["-W", v]),
      name.map((v) => [`-W${v}`]),
      name.map((v) => ["-X", v]),
      name.map((v) => [`-BX${v}`]),
      name.map((v) => ["--check-hash-based-pycs", v]),
    ),
  },
  {
    program: "node",
    body: (self) => `require('fs').appendFileSync('ran', '${self}\\n');\n`,
    options: fc.oneof(
      fc.constantFrom(["--no-warnings"], ["--no_warnings"], ["--enable-source-maps"], ["--"], ["-c"]),
      name.map((v) => ["-C", v]),
      name.map((v) => [`-C${v}`]),
      name.map((v) => ["--conditions", v]),
      name.map((v) => [`--conditions=${v}`]),
      name.map((v) => ["--title", v]),
      name.map((v) => ["--inspect", v]),
    ),
  },
  {
    program: "perl",
    body: (self) => `open(my $f, '>>', 'ran'); print $f "${self}\\n";\n`,
    options: fc.oneof(
      fc.constantFrom(["-w"], ["-W"], ["-X"], ["-l"], ["-0"], ["-s"], ["--"]),
      name.map((v) => ["-e", v]),
      name.map((v) => [`-l${v}`]),
      name.map((v) => [`-i${v}`]),
    ),
  },
];

const root = scratchDir("slashi-launch-");

describe("interpreterLaunch against the real interpreters", () => {
  for (const subject of SUBJECTS) {
    if (isCiTool(subject.program))
      requireTool(subject.program, "interpreterLaunch against the real interpreters");
    const program = which(subject.program);
    it.skipIf(program === undefined)(
      `${subject.program}: what runs is the script the launch names`,
      () => {
        const dir = scratchDir(`${subject.program}-`, root);
        for (const file of NAMES) writeFileSync(path.join(dir, file), subject.body(file));
        const marker = path.join(dir, "ran");
        let bound = 0;
        fc.assert(
          fc.property(
            fc.array(subject.options, { maxLength: 3 }),
            name,
            fc.array(name, { maxLength: 2 }),
            (options, script, rest) => {
              const args = [...options.flat(), script, ...rest];
              const launch = interpreterLaunch(subject.program, args);
              writeFileSync(marker, "");
              spawnSync(program as string, args, {
                cwd: dir,
                env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, LC_ALL: "C.UTF-8" },
                stdio: ["ignore", "ignore", "ignore"],
                timeout: 10_000,
              });
              const ran = readFileSync(marker, "utf8")
                .split("\n")
                .filter((line) => line !== "");
              if ("refused" in launch) return;
              const named = [launch.script, ...launch.loads.map((load) => load.file)];
              for (const file of ran) expect(named, `${subject.program} ${args.join(" ")}`).toContain(file);
              if (ran.includes(launch.script)) bound++;
            },
          ),
          { numRuns: 40 },
        );
        // The property only means something if the interpreters really ran bound scripts.
        expect(bound).toBeGreaterThan(5);
      },
      180_000,
    );
  }
});

describe("interpreterLaunch", () => {
  it.each([
    ["bash", ["--rcfile", "rc", "build.sh"], "build.sh", ["rc"]],
    ["bash", ["-O", "extglob", "build.sh"], "build.sh", []],
    ["bash", ["-eO", "extglob", "build.sh"], "build.sh", []],
    ["bash", ["+O", "extglob", "build.sh"], "build.sh", []],
    ["python3", ["-X", "dev", "y.py"], "y.py", []],
    ["python3", ["-W", "ignore", "y.py"], "y.py", []],
    ["node", ["-C", "dev", "x.js"], "x.js", []],
    ["node", ["--no_warnings", "x.js"], "x.js", []],
    ["ksh", ["x.sh", "-c"], "x.sh", []],
  ])("%s %j runs %s", (program, args, script, loads) => {
    const launch = interpreterLaunch(program, args);
    expect(launch).toEqual({ script, loads: loads.map((file) => ({ option: "--rcfile", file })) });
  });

  it.each([
    ["bash", ["-c", "x"]],
    ["bash", ["+c", "x"]],
    ["bash", ["-xs", "x.sh"]],
    ["bash", ["--debugger", "x.sh"]],
    ["bash", ["-"]],
    ["python3", ["-m", "http.server"]],
    ["python3", ["-X", "presite=evil", "y.py"]],
    ["python3", ["-i", "y.py"]],
    ["python3", ["--bogus", "y.py"]],
    ["node", ["-r", "./hook.js", "x.js"]],
    ["node", ["--import=./hook.mjs", "x.js"]],
    ["node", ["--env-file", ".env", "x.js"]],
    ["node", ["--watch", "x.js"]],
    ["ruby", ["-I", "lib", "x.rb"]],
    ["ruby", ["-rjson", "x.rb"]],
    ["perl", ["-Ilib", "x.pl"]],
    ["perl", ["-MPOSIX", "x.pl"]],
    ["ksh", ["-x", "x.sh"]],
    ["lua", []],
  ])("%s %j is refused", (program, args) => {
    expect(interpreterLaunch(program, args)).toHaveProperty("refused");
  });
});
