import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadShellParser } from "@slashi/core";
import { requireTool, scratchDir } from "@slashi/test-utils";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { commandBinding } from "./binding.js";
import { readBindingFile } from "./remembered.js";

beforeAll(() => loadShellParser());

const CWD = "/home/dev/app";
const SITE = { cwd: CWD, env: {}, root: CWD, identity: "1:2:3/1:4:5" };
const read =
  (files: Record<string, string>) =>
  (file: string): string | undefined =>
    files[path.relative(CWD, file)];

function bindingOf(argv: string[], files: Record<string, string>) {
  return commandBinding(argv, SITE, read(files));
}

function reasonOf(argv: string[], files: Record<string, string>): string {
  const got = bindingOf(argv, files);
  return got.ok ? "" : got.reason;
}

/** True when the binding is refused, or editing `file` changes its digest (the approval asks again). */
function editAsksAgain(argv: string[], files: Record<string, string>, file: string): boolean {
  const before = bindingOf(argv, files);
  if (!before.ok) return true;
  const after = bindingOf(argv, { ...files, [file]: `${files[file] ?? ""}\n# edited` });
  return !after.ok || after.digest !== before.digest;
}

describe("a shell's options in bound content, read by that shell's rules", () => {
  it("binds the file a shell's option loads besides its -c text", () => {
    const files = { rc: "echo rc\n", "lib/x.sh": "echo x" };
    for (const line of [
      "bash --rcfile ./rc -i -c 'echo hi'",
      "bash --rcfile rc -ic 'echo hi'",
      "bash --init-file rc -i -c 'echo hi'",
      "rbash --rcfile rc -i -c true",
    ]) {
      expect(editAsksAgain(["./build.sh"], { "build.sh": line, ...files }, "rc"), line).toBe(true);
      expect(reasonOf(["./build.sh"], { "build.sh": line, ...files }), line).toBe("");
    }
    // What the loaded file sources is followed too.
    const sourcing = { "build.sh": "bash --rcfile rc -i -c true", rc: ". ./lib/x.sh", "lib/x.sh": "echo x" };
    expect(editAsksAgain(["./build.sh"], sourcing, "lib/x.sh")).toBe(true);
  });

  it("refuses a shell without an option table given any option but -c TEXT, and binds it without", () => {
    const files = { "x.sh": "echo x", rc: "echo rc" };
    for (const shell of ["yash", "ksh", "mksh", "posh"]) {
      for (const line of [
        `${shell} -x x.sh`,
        `${shell} +x x.sh`,
        `${shell} -- x.sh`,
        `${shell} --rcfile=./rc -i -c 'echo hi'`,
        `${shell} -E -c 'echo hi'`,
        `${shell} -ic 'echo hi'`,
      ]) {
        expect(reasonOf(["./build.sh"], { "build.sh": line, ...files }), line).toMatch(
          new RegExp(`build\\.sh runs ${shell}: .*no option table for ${shell}`),
        );
        // The approved command itself: never offered with the script unbound.
        const argv = line.replace(/'echo hi'/, "echo").split(" ");
        expect(reasonOf(argv, files), argv.join(" ")).not.toBe("");
      }
      expect(reasonOf(["./build.sh"], { "build.sh": `${shell} -c 'echo hi'`, ...files })).toBe("");
      expect(editAsksAgain(["./build.sh"], { "build.sh": `${shell} x.sh`, ...files }, "x.sh")).toBe(true);
      expect(editAsksAgain([shell, "x.sh"], files, "x.sh")).toBe(true);
    }
  });

  it("reads a #! line's options as the interpreter would: loaded files bound, unpinnable options refused", () => {
    const files = { rc: "echo rc", "hook.js": "", "lib.sh": "" };
    const tool = (line: string) => ({ "build.sh": "./tool", tool: `${line}\necho tool\n`, ...files });
    expect(editAsksAgain(["./build.sh"], tool("#!/usr/bin/env -S bash --rcfile ./rc -i"), "rc")).toBe(true);
    expect(reasonOf(["./build.sh"], tool("#!/usr/bin/env -S node -r ./hook.js"))).toMatch(
      /tool runs with node -r \.\/hook\.js \(its #! line\): node -r/,
    );
    expect(reasonOf(["./build.sh"], tool("#!/bin/ksh -x"))).toMatch(/no option table for ksh/);
    for (const line of ["#!/bin/bash -e", "#!/bin/sh -", "#!/usr/bin/env bash", "#!/usr/bin/python3 -u"])
      expect(reasonOf(["./build.sh"], tool(line)), line).toBe("");
  });
});

describe("against the real bash", () => {
  const ready = requireTool("bash", "a shell's options against the real bash") !== undefined;

  it.skipIf(!ready)(
    "a file a shell's options load runs, so an edit of it is never approved, in generated forms",
    () => {
      const dir = scratchDir("slashi-shell-options-");
      const marker = path.join(dir, "rc-ran");
      const forms = [
        "bash --rcfile R -i -c 'true'",
        "bash --rcfile R -ic 'true'",
        "bash --init-file R -i -c true",
        "rbash --rcfile R -i -c true",
        "bash --rcfile R -i -c 'true' arg0",
        "#!/usr/bin/env -S bash --rcfile R -i",
      ];
      const spellings = ["rc", "./rc", `${dir}/rc`];
      fc.assert(
        fc.property(fc.constantFrom(...forms), fc.constantFrom(...spellings), (form, spelling) => {
          rmSync(marker, { force: true });
          writeFileSync(path.join(dir, "rc"), `touch '${marker}'\n`);
          const line = form.replace("R", spelling);
          const shebang = line.startsWith("#!");
          writeFileSync(path.join(dir, "build.sh"), shebang ? `${line}\ntrue\n` : `#!/bin/bash\n${line}\n`);
          chmodSync(path.join(dir, "build.sh"), 0o755);
          const env = { PATH: "/usr/bin:/bin", HOME: dir };
          spawnSync("./build.sh", [], { cwd: dir, env, stdio: "ignore" });
          expect(existsSync(marker), `${line}: the shell runs the file its option names`).toBe(true);
          const site = { cwd: dir, env, root: dir, identity: "x" };
          const before = commandBinding(["./build.sh"], site, readBindingFile);
          if (!before.ok) return;
          writeFileSync(path.join(dir, "rc"), `touch '${marker}'\necho edited\n`);
          const after = commandBinding(["./build.sh"], site, readBindingFile);
          expect(after.ok && after.digest === before.digest, `${line}: edited rc still approved`).toBe(false);
        }),
        { numRuns: 18 },
      );
    },
    300_000,
  );
});
