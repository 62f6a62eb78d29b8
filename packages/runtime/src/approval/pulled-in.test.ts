import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadShellParser } from "@slashi/core";
import { requireTool, tempDir } from "@slashi/test-utils";
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
    const makefile = "CFLAGS = -O2\nall: app\napp:\n\t$(CC) $(CFLAGS) --version\n\t@echo done > $@.log\n";
    expect(reasonOf(["make"], { Makefile: makefile })).toBe("");
  });

  it("refuses a recipe that gives such a program a file named by make's automatic variables", () => {
    const makefile = "all: app\napp: main.o\n\t$(CC) -o $@ $^\n";
    expect(reasonOf(["make"], { Makefile: makefile })).toMatch(
      /^a recipe of .*Makefile runs cc with \$\(…\), a word known only at run time/,
    );
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
    const files = { "package.json": pkg({ test: "uvu tests" }) };
    const old = "sha256:";
    expect(digestOf(["npm", "test"], files).startsWith(old)).toBe(true);
    expect(reasonOf(["npm", "test"], { "package.json": pkg({ test: "./missing.sh" }) })).toMatch(
      /"test" script of .*package\.json runs .*missing\.sh, which cannot be read/,
    );
  });
});

describe("programs a package script finds by name in node_modules/.bin", () => {
  const pkg = (scripts: Record<string, string>): string => JSON.stringify({ name: "app", scripts });

  it("binds the file a package manager would run, in the package's folder or one above, also from a script it runs", () => {
    const files = {
      "package.json": pkg({ test: "uvu tests", build: "./build.sh", lint: "lint-wrapper" }),
      "build.sh": "esbuild --bundle",
      "node_modules/.bin/uvu": "#!/bin/sh\nexec node ../uvu/bin.js\n",
      "node_modules/.bin/esbuild": "#!/usr/bin/env node\nrequire('../esbuild/bin/esbuild')\n",
    };
    expectBound(["npm", "test"], files, ["node_modules/.bin/uvu"]);
    expectBound(["npm", "run", "build"], files, ["build.sh", "node_modules/.bin/esbuild"]);
    // Not in the repository's node_modules/.bin: found on the system's PATH, as before.
    expect(reasonOf(["npm", "run", "lint"], files)).toBe("");
    // A workspace package finds the root's bins too.
    const nested = {
      "packages/a/package.json": pkg({ test: "uvu" }),
      "node_modules/.bin/uvu": "#!/bin/sh\n",
    };
    const site = { ...SITE, cwd: at("packages/a") };
    const before = commandBinding(["npm", "test"], site, repo(nested));
    const after = commandBinding(
      ["npm", "test"],
      site,
      repo({ ...nested, "node_modules/.bin/uvu": "#!/bin/sh\nid\n" }),
    );
    expect(before.ok && after.ok && before.digest !== after.digest).toBe(true);
  });

  it("binds nothing from node_modules/.bin for a script run outside a package script", () => {
    const files = { "build.sh": "uvu tests", "node_modules/.bin/uvu": "#!/bin/sh\n" };
    const before = digestOf(["./build.sh"], files);
    expect(digestOf(["./build.sh"], { ...files, "node_modules/.bin/uvu": "#!/bin/sh\nid\n" })).toBe(before);
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
    // The file an option loads is read as shell text too: what it runs is bound.
    expectBound(
      ["./build.sh"],
      { "build.sh": "rbash --rcfile rc x.sh", rc: "./lib/x.sh", "x.sh": "", "lib/x.sh": "echo x" },
      ["rc", "x.sh", "lib/x.sh"],
    );
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

describe("programs Slashi does not follow, given a repository file", () => {
  const files = {
    "prog.awk": "{ print }",
    "edit.sed": "p",
    "q.jq": ".",
    "sub/": "",
    "sub/prog.awk": "{ print }",
  };
  const refusal = (line: string, more: Record<string, string> = {}): string =>
    reasonOf(["./build.sh"], { "build.sh": line, ...files, ...more });

  it("refuses, naming the program and the file it reads, however the file is spelled or the program wrapped", () => {
    const lines: [string, string, string][] = [
      ["awk -f prog.awk x", "awk", "prog.awk"],
      ["gawk -vx=1 -f prog.awk", "gawk", "prog.awk"],
      ["awk -fprog.awk", "awk", "prog.awk"],
      ["awk --file=prog.awk", "awk", "prog.awk"],
      ["awk -f ./prog.awk", "awk", "prog.awk"],
      ["awk -f ../app/prog.awk", "awk", "prog.awk"],
      [`awk -f ${at("prog.awk")}`, "awk", "prog.awk"],
      ["awk -f 'prog.awk'", "awk", "prog.awk"],
      ['awk -f "pr"og.awk', "awk", "prog.awk"],
      ["sed -f edit.sed notes.txt", "sed", "edit.sed"],
      ["sed -nf edit.sed", "sed", "edit.sed"],
      ["jq -f q.jq data.json", "jq", "q.jq"],
      ["env A=1 awk -f prog.awk", "awk", "prog.awk"],
      ["nice -n 5 sed -f edit.sed", "sed", "edit.sed"],
      ["timeout 5 jq -f q.jq", "jq", "q.jq"],
      ["xargs awk -f prog.awk", "awk", "prog.awk"],
      ["command awk -f prog.awk", "awk", "prog.awk"],
      ["exec awk -f prog.awk", "awk", "prog.awk"],
      ["stdbuf -o0 awk -f prog.awk", "awk", "prog.awk"],
      ["sudo awk -f prog.awk", "awk", "prog.awk"],
      ["busybox awk -f prog.awk", "awk", "prog.awk"],
      ["/usr/bin/awk -f prog.awk", "awk", "prog.awk"],
      ["mytool -- prog.awk", "mytool", "prog.awk"],
      ["true && awk -f prog.awk", "awk", "prog.awk"],
    ];
    for (const [line, program, file] of lines) {
      const why = refusal(line);
      expect(why, line).toContain(`build.sh runs ${program}, which reads the repository file ${at(file)}`);
    }
  });

  it("refuses a path known only at run time, or a relative word after a cd", () => {
    expect(refusal('awk -f "$PWD/prog.awk"')).toMatch(
      /runs awk with .*PWD.*prog\.awk"?, a word known only at run time/,
    );
    expect(refusal('awk -f "${PWD}"/prog.awk')).toMatch(/a word known only at run time/);
    expect(refusal("awk -f $(pwd)/prog.awk")).toMatch(/a word known only at run time/);
    expect(refusal("cd sub && awk -f prog.awk")).toMatch(/runs awk with prog\.awk after changing directory/);
    // A word that is only a variable, a substitution or a glob names a file only when the script runs.
    expect(refusal('awk -f "$F"')).toMatch(/runs awk with "?\$F"?, a word known only at run time/);
    expect(refusal("sed -f $X notes.txt")).toMatch(/runs sed with \$X, a word known only at run time/);
    expect(refusal("jq -f ${Q} data.json")).toMatch(/runs jq with \$\{Q\}, a word known only at run time/);
    expect(refusal("awk -f *.awk")).toMatch(/runs awk with \*\.awk, a word known only at run time/);
    expect(refusal("awk -f ~/app/prog.awk")).toMatch(/runs awk with ~\/app\/prog\.awk, a word known only/);
    expect(refusal('sh "$S"')).toMatch(/runs sh "?\$S"?, named only at run time/);
    expect(refusal("ls *.awk | xargs awk -f")).toMatch(/runs awk with arguments xargs adds at run time/);
  });

  it("refuses a program whose #! line names a program it does not follow", () => {
    expect(refusal("./tool", { tool: "#!/usr/bin/awk -f\n{ print }\n" })).toMatch(
      /tool runs with awk \(its #! line\), which Slashi does not follow/,
    );
    expect(reasonOf(["./tool"], { tool: "#!/usr/bin/env -S sed -f\np\n" })).toMatch(/runs with sed/);
  });

  it("binds a path into the repository that is missing now as missing, so adding it asks again", () => {
    const map = { "build.sh": "awk -f ./gen/new.awk", ...files };
    const before = digestOf(["./build.sh"], map);
    const added = binding(["./build.sh"], { ...map, "gen/new.awk": 'BEGIN { system("id") }' });
    expect(added.ok).toBe(false);
    expect(reasonOf(["./build.sh"], map)).toBe("");
    expect(before).not.toBe(digestOf(["./build.sh"], { "build.sh": "awk -f ./gen/other.awk", ...files }));
  });

  it("still binds programs whose words are data, and words that name no repository file", () => {
    for (const line of [
      "cat prog.awk",
      "cp prog.awk /tmp/x",
      "test -f ./prog.awk && echo ./prog.awk",
      "mkdir -p out/x && rm -rf out",
      "grep -n x prog.awk | head -1",
      "cd ./sub",
      "awk '{ print $1 }' /tmp/x",
      "curl -fsS https://example.com/a/b -o /tmp/x",
      "gcc -O2 -o/tmp/app x",
      'printf "%s\\n" "$PWD/x"',
    ])
      expect(refusal(line), line).toBe("");
  });
});

describe("tools that run the code or configuration of the directory they work in", () => {
  const refusal = (line: string): string => reasonOf(["./build.sh"], { "build.sh": line });

  it("refuses them, naming the tool and what it runs, however they are reached", () => {
    const lines: [string, RegExp][] = [
      ["vitest run", /runs vitest, which runs its JavaScript configuration files and plugins/],
      ["jest", /runs jest/],
      ["tsc -p .", /runs tsc, which runs its tsconfig\.json/],
      ["cargo build", /runs cargo, which runs build scripts \(build\.rs\)/],
      ["python3 -m pytest -q", /pytest|python3/],
      ["py.test", /runs py\.test, which runs conftest\.py/],
      ["just build", /runs just, which runs the recipes of its justfile/],
      ["./gradlew build", /gradlew/],
      ["npx prettier --check x", /runs npx/],
      ["go generate ./...", /runs go, which runs the module's toolchain directive/],
      ["env CI=1 nice vitest", /runs vitest/],
      ["true && timeout 60 cargo test", /runs cargo/],
    ];
    for (const [line, reason] of lines) expect(refusal(line), line).toMatch(reason);
  });

  it("refuses a package manager's call that is not a package script: it runs the repository's bins or lifecycle scripts", () => {
    const pkg = JSON.stringify({ scripts: { build: "true", postinstall: "node ./setup.js" } });
    const lines: [string, RegExp][] = [
      ["pnpm exec vitest run", /runs pnpm, which runs the package's scripts/],
      ["npm exec -- eslint .", /runs npm, which runs the package's scripts/],
      ["npm install", /runs npm/],
      ["npm ci", /runs npm/],
      ["pnpm install --frozen-lockfile", /runs pnpm/],
      ["yarn", /runs yarn/],
      ["yarn tsc", /runs yarn/],
      ["bun x vite", /runs bun/],
      ["nice -n 5 pnpm exec tsc", /runs pnpm/],
    ];
    for (const [line, reason] of lines)
      expect(reasonOf(["./build.sh"], { "build.sh": line, "package.json": pkg }), line).toMatch(reason);
    // A package script the file has is followed, not refused.
    expect(reasonOf(["./build.sh"], { "build.sh": "yarn build", "package.json": pkg })).toBe("");
    expect(reasonOf(["./build.sh"], { "build.sh": "npm --version", "package.json": pkg })).toBe("");
  });

  it("binds a call that only prints the tool's version or help, and tools outside the table", () => {
    for (const line of ["vitest --version", "tsc -v", "cargo --version", "go version", "esbuild --bundle"])
      expect(refusal(line), line).toBe("");
  });

  it("refuses the approved command itself, and a package script that runs one", () => {
    expect(reasonOf(["cargo", "test"], {})).toMatch(/^the command runs cargo, which runs build scripts/);
    expect(
      reasonOf(["npm", "test"], { "package.json": JSON.stringify({ scripts: { test: "vitest run" } }) }),
    ).toMatch(/"test" script of .*package\.json runs vitest/);
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
  const have = (program: "make" | "npm" | "bash"): boolean =>
    requireTool(program, "the binding checked against the real program") !== undefined;
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

  it.skipIf(!have("make"))(
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

  it.skipIf(!have("npm"))(
    "npm: a package script runs a program of the repository's node_modules/.bin by name, which is bound",
    () => {
      const dir = path.join(tmp.dir, "npm");
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true });
      writeFileSync(
        path.join(dir, "package.json"),
        JSON.stringify({ name: "x", scripts: { t: "mytool --x" } }),
      );
      const tool = path.join(dir, "node_modules", ".bin", "mytool");
      writeFileSync(tool, `#!/bin/sh\ntouch '${marker}'\n`);
      chmodSync(tool, 0o755);
      rmSync(marker, { force: true });
      const env = { PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`, HOME: dir };
      const ran = spawnSync("npm", ["run", "--silent", "t"], { cwd: dir, env });
      expect(existsSync(marker), `npm runs node_modules/.bin/mytool: ${String(ran.stderr)}`).toBe(true);
      const site = { cwd: dir, env, root: dir, identity: "x" };
      const before = commandBinding(["npm", "run", "t"], site, readBindingFile);
      writeFileSync(tool, `#!/bin/sh\ntouch '${marker}'\necho edited\n`);
      const after = commandBinding(["npm", "run", "t"], site, readBindingFile);
      expect(before.ok && after.ok && before.digest !== after.digest, "an edited bin asks again").toBe(true);
    },
    120_000,
  );

  it.skipIf(!have("bash"))(
    "bash: a script that gives a repository program file to awk or sed, wrapped and spelled in generated ways, is never approved past an edit",
    () => {
      const readers = [
        {
          file: "prog.awk",
          code: `BEGIN { printf "" > "${marker}" }`,
          line: ["awk -f F", "awk -fF", "awk -v x=1 -f F"],
        },
        { file: "edit.sed", code: `1w ${marker}`, line: ["sed -n -f F", "sed -nf F", "sed -n -e p -f F"] },
      ];
      const wrappers = [
        "",
        "env ",
        "env A=1 ",
        "nice ",
        "nice -n 1 ",
        "timeout 60 ",
        "command ",
        "stdbuf -o0 ",
        "xargs ",
      ];
      /** How the script names the file (`{D}` is the repository folder's name). */
      const spellings = [
        "{P}",
        "./{P}",
        "'{P}'",
        '"./{P}"',
        '"$PWD/{P}"',
        "${PWD}/{P}",
        "../{D}/{P}",
        "$(pwd)/{P}",
      ];
      fc.assert(
        fc.property(
          fc.constantFrom(...readers),
          fc.nat(2),
          fc.constantFrom(...wrappers),
          fc.constantFrom(...spellings),
          (reader, form, wrapper, spelling) => {
            const dir = path.join(tmp.dir, "reader");
            rmSync(dir, { recursive: true, force: true });
            mkdirSync(path.join(dir, "scripts"), { recursive: true });
            const file = path.join(dir, "scripts", reader.file);
            writeFileSync(file, `${reader.code}\n`);
            const named = spelling
              .replace("{P}", `scripts/${reader.file}`)
              .replace("{D}", path.basename(dir));
            const command = (reader.line[form] as string).replace("F", named);
            const script = path.join(dir, "build.sh");
            writeFileSync(script, `#!/bin/bash\necho x | ${wrapper}${command}\n`);
            chmodSync(script, 0o755);
            rmSync(marker, { force: true });
            const env = { PATH: "/usr/bin:/bin" };
            spawnSync("./build.sh", [], { cwd: dir, env });
            // The real shell and program read the file as code (the form is real), …
            expect(existsSync(marker), `${wrapper}${command} runs ${reader.file}`).toBe(true);
            // … so the approval is refused, or an edit of the file asks again.
            const site = { cwd: dir, env, root: dir, identity: "x" };
            const before = commandBinding(["./build.sh"], site, readBindingFile);
            if (!before.ok) return;
            writeFileSync(file, `${reader.code}\n# edited\n`);
            const after = commandBinding(["./build.sh"], site, readBindingFile);
            expect(
              after.ok && after.digest === before.digest,
              `${wrapper}${command}: edited ${reader.file} still approved`,
            ).toBe(false);
          },
        ),
        { numRuns: 40 },
      );
    },
    300_000,
  );

  it.skipIf(!have("bash"))(
    "bash: a word known only at run time given to awk, sed or as an interpreter's script is refused, naming the program and the word",
    () => {
      const programs = [
        {
          name: "awk",
          file: "prog.awk",
          code: `BEGIN { printf "" > "${marker}" }`,
          lines: ["awk -f W", "awk -fW"],
        },
        {
          name: "sed",
          file: "edit.sed",
          code: `1w ${marker}`,
          lines: ["sed -n -f W", "sed -n --file=W", "sed -nfW"],
        },
        { name: "sh", file: "run.sh", code: `touch '${marker}'`, lines: ["sh W", "bash W", "dash W"] },
        {
          name: "python3",
          file: "run.py",
          code: `open("${marker}", "w")`,
          lines: ["python3 W", "python3 -B W"],
        },
      ];
      /** Words that name `scripts/<file>` only when the script runs (`{P}` is that path, `{D}` the folder's name). */
      const words = [
        '"$F"',
        "$F",
        "${F}",
        '"${UNSET:-{P}}"',
        "${UNSET-{P}}",
        '"$@"',
        "$1",
        '"$(printf %s {P})"',
        "`printf %s {P}`",
        "~/{D}/{P}",
        '"$HOME/{D}/{P}"',
        "s*/{FILE}",
      ];
      fc.assert(
        fc.property(
          fc.constantFrom(...programs),
          fc.nat(2),
          fc.constantFrom(...words),
          fc.constantFrom("", "env ", "nice ", "command "),
          (program, form, spelling, wrapper) => {
            const dir = path.join(tmp.dir, "run-time-word");
            rmSync(dir, { recursive: true, force: true });
            mkdirSync(path.join(dir, "scripts"), { recursive: true });
            const file = `scripts/${program.file}`;
            writeFileSync(path.join(dir, file), `${program.code}\n`);
            const word = spelling
              .replace("{P}", file)
              .replace("{D}", path.basename(dir))
              .replace("{FILE}", program.file);
            const template = program.lines[form % program.lines.length] as string;
            // A glob glued to an option is not expanded (no file starts with `-f`), nor is `~` there (bash, dash).
            fc.pre(!spelling.includes("*") || template.includes(" W"));
            fc.pre(!spelling.startsWith("~") || template.includes(" W"));
            const line = template.replace("W", word);
            const run = line.split(" ")[0] as string;
            writeFileSync(
              path.join(dir, "build.sh"),
              `#!/bin/bash\nF=${file}\n${/\$[@1]/.test(word) ? `set -- ${file}\n` : ""}echo x | ${wrapper}${line}\n`,
            );
            chmodSync(path.join(dir, "build.sh"), 0o755);
            rmSync(marker, { force: true });
            const env = { PATH: "/usr/bin:/bin", HOME: path.dirname(dir) };
            spawnSync("./build.sh", [], { cwd: dir, env });
            // The real bash hands the program the repository file through that word, …
            expect(existsSync(marker), `${wrapper}${line} runs ${file}`).toBe(true);
            // … so the approval is not offered, and the reason names the program and the word.
            const site = { cwd: dir, env, root: dir, identity: "x" };
            const got = commandBinding(["./build.sh"], site, readBindingFile);
            expect(got.ok, `${wrapper}${line} is offered`).toBe(false);
            const reason = got.ok ? "" : got.reason;
            expect(reason, line).toContain(`runs ${run} `);
            expect(reason, line).toContain(word.replace(/^"|"$/g, ""));
            expect(reason, line).toMatch(/known only at run time|named only at run time/);
          },
        ),
        { numRuns: 60 },
      );
    },
    300_000,
  );

  it.skipIf(!have("bash"))(
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
