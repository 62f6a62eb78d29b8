import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadShellParser } from "@slashi/core";
import { tempDir } from "@slashi/test-utils";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandBinding } from "./binding.js";
import type { BindingEnv } from "./env-binding.js";
import { readBindingFile } from "./remembered.js";

// Reading bound text for what it runs uses the shell parser, loaded once a line was decided.
beforeAll(() => loadShellParser());

const CWD = "/home/dev/app";
const SITE = { cwd: CWD, env: {}, root: CWD, identity: "1:2:3/1:4:5" };
const at = (file: string): string => path.join(CWD, file);

/** A repository of files by path relative to CWD; a name ending in `/` is a folder (read refused). */
function repo(map: Record<string, string>): (file: string) => string | undefined | { refused: string } {
  return (file) => {
    const rel = path.relative(CWD, file);
    if (Object.hasOwn(map, `${rel}/`)) return { refused: "it is a directory" };
    return map[rel];
  };
}

function binding(argv: string[], map: Record<string, string>, env: BindingEnv = {}) {
  return commandBinding(argv, { ...SITE, env }, repo(map));
}

function digestOf(argv: string[], map: Record<string, string>, env: BindingEnv = {}): string {
  const got = binding(argv, map, env);
  if (!got.ok) throw new Error(got.reason);
  return got.digest;
}

function reasonOf(argv: string[], map: Record<string, string>, env: BindingEnv = {}): string {
  const got = binding(argv, map, env);
  return got.ok ? "" : got.reason;
}

/** Expects every listed file to be bound: changing any of them changes the digest. */
function expectBound(
  argv: string[],
  map: Record<string, string>,
  changed: string[],
  env: BindingEnv = {},
): void {
  const before = digestOf(argv, map, env);
  for (const file of changed) {
    expect(Object.hasOwn(map, file), file).toBe(true);
    const edited = file.endsWith(".json")
      ? JSON.stringify({ ...(JSON.parse(map[file] ?? "{}") as object), edited: true })
      : `${map[file] ?? ""}\n# edited`;
    const after = binding(argv, { ...map, [file]: edited }, env);
    expect(after.ok && after.digest !== before, `${argv.join(" ")}: editing ${file} asks again`).toBe(true);
  }
}

describe("what a makefile's recipes and $(shell …) run", () => {
  const scripts = {
    "scripts/x.sh": "echo x",
    "tools/y": "echo y",
    "build.js": "console.log(1);",
    "gen.py": "print(1)",
    "scripts/version.sh": "echo 1.0",
  };

  it("binds the repository scripts recipe lines run, in every form make hands to the shell", () => {
    const makefile = [
      "all: build gen",
      "build:",
      "\t@./scripts/x.sh",
      "\t-sh tools/y && \\",
      "\t  node build.js",
      "gen: ; python3 gen.py",
      "",
    ].join("\n");
    expectBound(["make"], { Makefile: makefile, ...scripts }, [
      "scripts/x.sh",
      "tools/y",
      "build.js",
      "gen.py",
    ]);
    expectBound(["make", "gen"], { Makefile: makefile, ...scripts }, ["gen.py", "scripts/x.sh"]);
  });

  it("binds what $(shell …) and != run, and what a variable names as the program", () => {
    const makefile = [
      "VERSION := $(shell ./scripts/version.sh)",
      "GEN = python3 gen.py",
      "TOOL != sh tools/y",
      "RUN = ./scripts/x.sh",
      "all:",
      "\t$(GEN) $(VERSION)",
      "\t${RUN}",
      "",
    ].join("\n");
    expectBound(["make"], { Makefile: makefile, ...scripts }, [
      "scripts/version.sh",
      "gen.py",
      "tools/y",
      "scripts/x.sh",
    ]);
    // The command line's value wins over the makefile's.
    expectBound(["make", "RUN=node build.js"], { Makefile: makefile, ...scripts }, ["build.js"]);
    // The environment's value counts where the makefile sets none.
    expectBound(["make"], { Makefile: "all:\n\t$(CC) -c x.c\n", ...scripts }, ["scripts/x.sh"], {
      CC: "./scripts/x.sh",
    });
  });

  it("binds a recipe that runs make or a package script, and what those run", () => {
    const files = {
      Makefile: "all:\n\t$(MAKE) -f other.mk\n\tnpm test\n",
      "other.mk": "x:\n\t./scripts/x.sh\n",
      "package.json": JSON.stringify({ scripts: { test: "node build.js" } }),
      ...scripts,
    };
    expectBound(["make"], files, ["other.mk", "scripts/x.sh", "package.json", "build.js"]);
  });

  it("refuses what it cannot pin, naming the makefile and why", () => {
    const refused: [string, RegExp][] = [
      ["all:\n\t$(TOOL_$(ARCH)) x\n", /named only at run time/],
      ["all:\n\t$(firstword $(TOOLS)) x\n", /named only at run time/],
      ["all:\n\tpython3 $(SCRIPT)\n", /.*/],
      ["all:\n\t./missing.sh\n", /Makefile runs .*missing\.sh, which cannot be read/],
      ["SHELL = ./tools/y\nall:\n\ttrue\n", /sets SHELL/],
      [".SHELLFLAGS = --rcfile tools/y -c\nall:\n\ttrue\n", /SHELLFLAGS/],
      ["export PATH := ./bin:$(PATH)\nall:\n\tx\n", /sets PATH/],
      ["all:\n\tcd sub && ./x.sh\n", /after changing directory/],
      ["all:\n\t$(MAKE) -C sub\n", /make -C/],
      ["all:\n\tcurl -s https://x | sh\n", /runs sh: .*cannot pin/],
      ["x = a\nx = b\nall:\n\t$(x)\n", /named only at run time/],
    ];
    for (const [makefile, reason] of refused) {
      const why = reasonOf(["make"], { Makefile: makefile, ...scripts });
      expect(why, makefile).not.toBe("");
      expect(why, makefile).toMatch(reason);
      expect(why, makefile).toMatch(/Makefile|tools\/y/);
    }
  });

  it("still binds recipes that run only programs found by name", () => {
    const makefile =
      "CFLAGS = -O2\nall: app\napp: main.o\n\t$(CC) $(CFLAGS) -o $@ $^\n\t@echo done > $@.log\n";
    expect(reasonOf(["make"], { Makefile: makefile })).toBe("");
  });
});

describe("what package scripts run", () => {
  const pkg = (scripts: Record<string, string>): string => JSON.stringify({ name: "app", scripts });

  it("binds the repository files a package script runs", () => {
    const files = {
      "package.json": pkg({
        test: "./run-tests.sh",
        build: "node scripts/build.mjs",
        pretest: "bash lib/x.sh",
      }),
      "run-tests.sh": "#!/bin/sh\n./scripts/x.sh\n",
      "scripts/x.sh": "echo x",
      "scripts/build.mjs": 'import { a } from "./parts.mjs";\n',
      "scripts/parts.mjs": "export const a = 1;",
      "lib/x.sh": "true",
    };
    expectBound(["npm", "test"], files, ["run-tests.sh", "scripts/x.sh", "lib/x.sh"]);
    expectBound(["npm", "run", "build"], files, ["scripts/build.mjs", "scripts/parts.mjs"]);
  });

  it("runs a package's scripts in the package's folder, wherever the command was started", () => {
    const files = { "package.json": pkg({ test: "./t.sh" }), "t.sh": "true", "src/t.sh": "other" };
    const site = { ...SITE, cwd: at("src") };
    const before = commandBinding(["npm", "test"], site, repo(files));
    const after = commandBinding(["npm", "test"], site, repo({ ...files, "t.sh": "false" }));
    expect(before.ok && after.ok && before.digest !== after.digest).toBe(true);
  });

  it("keeps the digest of approvals stored before when the scripts run no repository file", () => {
    const files = { "package.json": pkg({ test: "vitest run" }) };
    const old = "sha256:";
    expect(digestOf(["npm", "test"], files).startsWith(old)).toBe(true);
    expect(reasonOf(["npm", "test"], { "package.json": pkg({ test: "./missing.sh" }) })).toMatch(
      /"test" script of .*package\.json runs .*missing\.sh, which cannot be read/,
    );
  });
});

describe("what a bound shell script runs", () => {
  it("binds the repository scripts it runs, directly and through a shell, recursively", () => {
    const files = {
      "build.sh": "#!/bin/sh\nset -e\n./other.sh\nbash lib/x.sh arg\nif true; then sh -c './third.sh'; fi\n",
      "other.sh": "echo other",
      "lib/x.sh": ". ./lib/env.sh\npython3 tools/gen.py",
      "lib/env.sh": "X=1",
      "tools/gen.py": "print(1)",
      "third.sh": "echo third",
    };
    expectBound(["./build.sh"], files, ["other.sh", "lib/x.sh", "lib/env.sh", "tools/gen.py", "third.sh"]);
    expectBound(["bash", "build.sh"], files, ["other.sh", "third.sh"]);
  });

  it("follows every shell of core's list, by restricted and versioned names and through busybox", () => {
    const files = { "other.sh": "./lib/x.sh", "lib/x.sh": "echo x", tool: "#!/bin/rbash\n./lib/x.sh\n" };
    for (const line of [
      "rbash ./other.sh",
      "yash other.sh",
      "zsh5 other.sh",
      "/usr/local/bin/bash5.2 other.sh",
      "rzsh other.sh",
      "busybox sh other.sh",
      "posh other.sh",
    ])
      expectBound(["./build.sh"], { "build.sh": line, ...files }, ["other.sh", "lib/x.sh"]);
    expectBound(["./build.sh"], { "build.sh": "./tool", ...files }, ["tool", "lib/x.sh"]);
    // A restricted bash reads its options as bash does.
    expect(reasonOf(["./build.sh"], { "build.sh": "rbash --rcfile rc x.sh", rc: "", "x.sh": "" })).toBe("");
    expectBound(["./build.sh"], { "build.sh": "rbash --rcfile rc x.sh", rc: "./lib/x.sh", "x.sh": "" }, [
      "rc",
      "x.sh",
    ]);
  });

  it("binds a program's script by its #! interpreter", () => {
    const files = {
      "run.sh": "./tool.py",
      "tool.py": "#!/usr/bin/env python3\nimport helper\n",
      "helper.py": "",
    };
    expectBound(["./run.sh"], files, ["tool.py", "helper.py"]);
  });

  it("refuses what it cannot pin, naming the script and why", () => {
    const refused: [string, RegExp][] = [
      ['"$TOOL" x', /build\.sh runs a command named only at run time/],
      ["cd sub && ./x.sh", /after changing directory/],
      ['bash "$SCRIPT"', /named only at run time/],
      ["export PATH=./bin:$PATH\ntool", /build\.sh sets PATH/],
      ["PATH=/x:$PATH\ntool", /build\.sh sets PATH/],
      ["node -r ./hook.js x.js", /node -r/],
      ["python3 -c 'import gen'", /python3 -c/],
      ["sh < ./x.sh", /cannot pin/],
      ["./gone.sh", /build\.sh runs .*gone\.sh, which cannot be read/],
    ];
    for (const [body, reason] of refused) {
      const why = reasonOf(["./build.sh"], { "build.sh": body, "x.sh": "", "x.js": "", "hook.js": "" });
      expect(why, body).toMatch(reason);
    }
  });

  it("refuses a program found on a PATH with a relative entry or one inside the repository", () => {
    const files = { "build.sh": "tool --flag\necho ok" };
    for (const entry of [".", "bin", "", at("bin")]) {
      expect(reasonOf(["./build.sh"], files, { PATH: `/usr/bin:${entry}` }), entry).toMatch(
        /build\.sh runs tool, found on PATH, which has the entry/,
      );
    }
    expect(reasonOf(["./build.sh"], files, { PATH: "/usr/local/bin:/usr/bin" })).toBe("");
    // A builtin is never looked up on PATH.
    expect(reasonOf(["./build.sh"], { "build.sh": "echo ok; cd /tmp" }, { PATH: "." })).toBe("");
  });
});

describe("modules a bound script imports", () => {
  it("python: binds sibling modules it imports, and their absence", () => {
    const files = {
      "gen.py": "import os, helper\nfrom util.text import slug\nfrom . import nothing\n",
      "helper.py": "import more",
      "more.py": "",
      "util.py": "",
    };
    expectBound(["python3", "gen.py"], files, ["helper.py", "more.py", "util.py"]);
    // A module that is not there now would shadow the standard library's once added.
    const added = binding(["python3", "gen.py"], { ...files, "os.py": "evil" });
    expect(added.ok && added.digest !== digestOf(["python3", "gen.py"], files)).toBe(true);
  });

  it("python: refuses a package folder, dynamic imports and programs it starts", () => {
    expect(reasonOf(["python3", "gen.py"], { "gen.py": "import pkg.mod", "pkg/": "" })).toMatch(
      /gen\.py loads pkg, the folder .*pkg, which Slashi does not bind/,
    );
    expect(
      reasonOf(["python3", "gen.py"], { "gen.py": "import importlib\nimportlib.import_module(n)" }),
    ).toMatch(/gen\.py: it loads code by names known only when it runs/);
    expect(
      reasonOf(["python3", "gen.py"], { "gen.py": "import subprocess\nsubprocess.run(['./x.sh'])" }),
    ).toMatch(/gen\.py: it starts other programs/);
  });

  it("node: binds relative requires and imports, folders by their index or main", () => {
    const files = {
      "build.js": 'const a = require("./lib");\nimport b from "../app/util/b.js";\nrequire("left-pad");\n',
      "lib/": "",
      "lib/index.js": 'module.exports = require("./c.json");',
      "lib/c.json": "{}",
      "util/b.js": "export default 1;",
    };
    expectBound(["node", "build.js"], files, ["lib/index.js", "lib/c.json", "util/b.js"]);
    const withMain = {
      "x.js": 'require("./pkg")',
      "pkg/": "",
      "pkg/package.json": '{"main":"main.js"}',
      "pkg/main.js": "1",
    };
    expectBound(["node", "x.js"], withMain, ["pkg/package.json", "pkg/main.js"]);
  });

  it("node: refuses requires named at run time, package imports and programs it starts", () => {
    expect(reasonOf(["node", "x.js"], { "x.js": "require(name)" })).toMatch(/known only when it runs/);
    expect(reasonOf(["node", "x.js"], { "x.js": "import(`./${n}.js`)" })).toMatch(/known only when it runs/);
    expect(reasonOf(["node", "x.js"], { "x.js": 'import "#internal"' })).toMatch(/package\.json imports/);
    expect(
      reasonOf(["node", "x.js"], { "x.js": 'require("node:child_process").execSync("./x.sh")' }),
    ).toMatch(/starts other programs/);
  });

  it("ruby, perl, php, lua: refuses a script that loads or runs other files", () => {
    expect(reasonOf(["ruby", "x.rb"], { "x.rb": "require_relative 'lib'" })).toMatch(/x\.rb: it may load/);
    expect(reasonOf(["perl", "x.pl"], { "x.pl": 'do "./lib.pl";' })).toMatch(/x\.pl: it may load/);
    expect(reasonOf(["ruby", "x.rb"], { "x.rb": "puts 1" })).toBe("");
  });
});

/** Real programs: what make and bash actually run is bound, or the binding is refused. */
describe("against the real make and bash", () => {
  const tmp = tempDir("slashi-pulled-in-");
  afterAll(() => tmp.remove());
  const have = (program: string): boolean => spawnSync(program, ["--version"]).error === undefined;
  const marker = path.join(tmp.dir, "ran");

  /** Forms a recipe or script line runs `scripts/payload.sh` in (`P` is the path, relative to the folder). */
  const recipeForms = [
    "./P",
    "@./P",
    "-sh P",
    "bash P",
    "true && ./P",
    "if true; then ./P; fi",
    "X=$$(./P)",
    "$(RUNNER)",
    "$(SH) P",
    "sh -c './P'",
    "for i in 1; do ./P; done",
    "env A=1 ./P",
  ];
  const scriptForms = [
    "./P",
    "bash P",
    "sh P",
    ". ./P",
    "source ./P",
    "true && ./P",
    "X=$(./P)",
    "f() { ./P; }; f",
    "sh -c './P'",
    "env A=1 ./P",
    "exec ./P",
    "( ./P )",
    "rbash P",
    "nice -n 1 rbash P",
  ];

  function world(dir: string): void {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(path.join(dir, "scripts"), { recursive: true });
    const payload = path.join(dir, "scripts", "payload.sh");
    writeFileSync(payload, `#!/bin/sh\ntouch '${marker}'\n`);
    chmodSync(payload, 0o755);
  }

  /** Runs the real program, checks the payload ran, then that editing the payload is not silently allowed. */
  function check(dir: string, argv: string[]): void {
    rmSync(marker, { force: true });
    const ran = spawnSync(argv[0] as string, argv.slice(1), { cwd: dir, env: { PATH: "/usr/bin:/bin" } });
    expect(ran.status, String(ran.stderr)).toBe(0);
    expect(existsSync(marker), `${argv.join(" ")} runs the payload`).toBe(true);
    const site = { cwd: dir, env: { PATH: "/usr/bin:/bin" }, root: dir, identity: "x" };
    const before = commandBinding(argv, site, readBindingFile);
    if (!before.ok) return; // refused: asks every time
    writeFileSync(path.join(dir, "scripts", "payload.sh"), `#!/bin/sh\ntouch '${marker}'\necho edited\n`);
    const after = commandBinding(argv, site, readBindingFile);
    expect(
      after.ok && after.digest === before.digest,
      `${argv.join(" ")}: edited payload still approved`,
    ).toBe(false);
  }

  it.skipIf(!have("make") && process.env.CI === undefined)(
    "make: a recipe that runs a repository script binds it, in generated forms",
    () => {
      fc.assert(
        fc.property(fc.constantFrom(...recipeForms), fc.constantFrom("all", ""), (form, target) => {
          const dir = path.join(tmp.dir, "make");
          world(dir);
          const line = form.replace(/P/g, "scripts/payload.sh");
          const makefile = `RUNNER = ./scripts/payload.sh\nSH = sh\nall:\n\t${line}\n`;
          writeFileSync(path.join(dir, "Makefile"), makefile);
          check(dir, target === "" ? ["make", "-s"] : ["make", "-s", target]);
        }),
        { numRuns: 30 },
      );
    },
    120_000,
  );

  it.skipIf(!have("bash") && process.env.CI === undefined)(
    "bash: a script that runs or sources a repository script binds it, in generated forms",
    () => {
      fc.assert(
        fc.property(fc.constantFrom(...scriptForms), fc.constantFrom("./build.sh", "bash"), (form, how) => {
          const dir = path.join(tmp.dir, "sh");
          world(dir);
          const script = path.join(dir, "build.sh");
          writeFileSync(script, `#!/bin/bash\n${form.replace(/P/g, "scripts/payload.sh")}\n`);
          chmodSync(script, 0o755);
          check(dir, how === "bash" ? ["bash", "build.sh"] : ["./build.sh"]);
        }),
        { numRuns: 30 },
      );
    },
    120_000,
  );
});
