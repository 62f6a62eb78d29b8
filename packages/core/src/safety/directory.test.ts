import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cmd, ctx, emptyDiskCtx } from "../../test/safety/command.js";
import type { WorkingDirectory } from "../shell/directory.js";
import { invocationOf } from "./argv.js";
import { classifyCommand } from "./classify.js";
import {
  classifyDirectoryCode,
  classifyUnknownDirectory,
  commandContexts,
  directoriesOf,
  directoryCodeOf,
} from "./directory.js";
import type { SafetyContext } from "./types.js";

const changed = (...candidates: string[][]): WorkingDirectory => ({
  kind: "changed",
  candidates: candidates.map((c) => c.map((word) => ({ word, dynamic: /[$*?[{]/.test(word) }))),
});

function dirCodes(text: string, context: SafetyContext = ctx): string[] {
  return classifyDirectoryCode(invocationOf(cmd(text))!, context).map((f) => f.code);
}

describe("directoriesOf", () => {
  it.each([
    [[["src"]], ["/code/proj/src"]],
    [[["src", "../lib"]], ["/code/proj/lib"]],
    [[["/"]], ["/"]],
    [[["~"]], ["/home/dev"]],
    [[["~/.ssh"]], ["/home/dev/.ssh"]],
    [[[".."]], ["/code"]],
    [[["$HOME/x"]], ["/home/dev/x"]],
    [
      [[], ["/tmp"]],
      ["/code/proj", "/tmp"],
    ],
  ])("resolves the steps %j from the workspace root", (candidates, expected) => {
    expect(directoriesOf(changed(...candidates), ctx)).toEqual(expected);
  });

  it.each([[["$(pwd)"]], [["/tm*"]], [["~alice"]], [["src", "$D"]]])("has no directory for %j", (steps) => {
    expect(directoriesOf(changed(steps), ctx)).toBeUndefined();
  });

  it("has no directory when the line says it is unknown", () => {
    expect(directoriesOf({ kind: "unknown", reason: "cd -" }, ctx)).toBeUndefined();
    expect(directoriesOf(undefined, { ...ctx, cwdUnknown: true })).toBeUndefined();
  });
});

describe("commandContexts", () => {
  it("keeps the context of a command that runs where the line starts", () => {
    const command = cmd("ls");
    expect(commandContexts(command, ctx)).toEqual([ctx]);
  });

  it.each([
    ["env -C / rm -rf x", "/"],
    ["env --chdir=/etc cat passwd", "/etc"],
    ["env --chdir /etc cat passwd", "/etc"],
    ["env -C/tmp ls", "/tmp"],
    ["env -iC ~ ls", "/home/dev"],
    ["sudo -D / ls", "/"],
    ["sudo --chdir=/srv ls", "/srv"],
  ])("moves %s to %s", (text, cwd) => {
    expect(commandContexts(cmd(text), ctx).map((c) => c.cwd)).toEqual([cwd]);
  });

  it("applies a runner's directory after the line's cd", () => {
    const command = cmd("env -C lib ls", { cwd: changed(["src"]) });
    expect(commandContexts(command, ctx).map((c) => c.cwd)).toEqual(["/code/proj/src/lib"]);
  });

  it("follows a runner's physical `..` only from where the line starts", () => {
    // chdir(2) resolves links before `..`: after `cd src` (src may be a link) or after a folder, `..` is unknown
    expect(commandContexts(cmd("env -C .. ls"), ctx).map((c) => c.cwd)).toEqual(["/code"]);
    expect(commandContexts(cmd("env -C ../.. ls"), ctx).map((c) => c.cwd)).toEqual(["/"]);
    expect(commandContexts(cmd("env -C .. ls", { cwd: changed(["src"]) }), ctx)[0]!.cwdUnknown).toBe(true);
    for (const text of ["env -C src/.. ls", "env -C /code/proj/src/.. ls", "env -C ~/x/.. ls"])
      expect(commandContexts(cmd(text), ctx)[0]!.cwdUnknown, text).toBe(true);
  });

  it("never follows a directory change through the kernel's links, however spelled (generated)", () => {
    const lead = fc.constantFrom("/", "//", "/./", "/home/../", "/code/proj/../../", "../../", "./../../");
    const link = fc.constantFrom("proc/self/cwd", "proc/1/root", "proc/thread-self/cwd", "dev/fd/3");
    const tail = fc.constantFrom("", "/..", "/../.config", "/../..", "/.");
    fc.assert(
      fc.property(lead, link, tail, (l, k, t) => {
        const word = `${l}${k}${t}`;
        expect(directoriesOf(changed([word]), ctx), word).toBeUndefined();
        for (const runner of ["env -C", "env --chdir=", "env --ch=", "sudo -D"]) {
          const text = `${runner}${runner.endsWith("=") ? "" : " "}${word} grep -r x .`;
          expect(commandContexts(cmd(text), ctx)[0]!.cwdUnknown, text).toBe(true);
        }
        for (const tool of [`git -C ${word} status`, `make -C ${word}`, `npm --prefix ${word} test`])
          expect(dirCodes(tool), tool).toContain("tool.directory-code");
      }),
      { numRuns: 60 },
    );
  });

  it("marks the directory unknown for a dynamic runner directory or line directory", () => {
    expect(commandContexts(cmd("env -C $D ls"), ctx)[0]!.cwdUnknown).toBe(true);
    const command = cmd("ls", { cwd: { kind: "unknown", reason: "cd -" } });
    expect(commandContexts(command, ctx)).toEqual([{ ...ctx, cwdUnknown: true }]);
  });

  it("gives one context per directory the command may run in", () => {
    const command = cmd("ls", { cwd: changed([], ["/tmp"]) });
    expect(commandContexts(command, ctx).map((c) => c.cwd)).toEqual(["/code/proj", "/tmp"]);
  });
});

describe("classifyCommand in the directory the command runs in", () => {
  const codes = (text: string, cwd: WorkingDirectory): string[] =>
    classifyCommand(cmd(text, { cwd }), ctx).map((f) => f.code);

  it("judges relative paths against the line's directory", () => {
    expect(codes("rm -rf *", changed(["/"]))).toContain("rm.recursive-root");
    expect(codes("cat id_rsa", changed(["~/.ssh"]))).toContain("secret.read");
    expect(codes("echo >.bashrc", changed(["~"]))).toContain("write.sensitive-path");
    expect(codes("echo >settings.json", changed([".vscode"]))).toContain("self.protected-write");
    expect(
      classifyCommand(cmd("grep -rn TODO .", { cwd: changed(["src"]) }), emptyDiskCtx).map((f) => f.code),
    ).toEqual([]);
  });

  it("counts every directory an earlier cd may have left it in", () => {
    expect(codes("rm -rf *", changed(["src"], ["/"]))).toContain("rm.recursive-root");
  });

  it("asks for a reading command in an unknown directory, not for a directory-blind one", () => {
    const unknown: WorkingDirectory = { kind: "unknown", reason: "cd -" };
    expect(codes("cat config", unknown)).toContain("tool.unknown-directory");
    expect(codes("grep -r token .", unknown)).toContain("tool.unknown-directory");
    expect(codes("ls -la", unknown)).toEqual([]);
    expect(codes("echo hi", unknown)).toEqual([]);
    expect(codes("pwd", unknown)).toEqual([]);
    expect(codes("echo x >out", unknown)).toContain("write.dynamic-target");
  });
});

describe("classifyUnknownDirectory", () => {
  it("says nothing when the directory is known", () => {
    expect(classifyUnknownDirectory(invocationOf(cmd("cat x")), ctx)).toEqual([]);
  });
});

describe("classifyDirectoryCode", () => {
  const untrusted: SafetyContext = { ...ctx, workspaceTrusted: false };

  it.each([
    "git status",
    "git log -p -- file",
    "npm test",
    "npm run lint",
    "pnpm test",
    "yarn build",
    "make",
    "make test",
    "cargo test",
    "go test ./...",
    "go vet ./...",
    "pytest -x tests/",
    "gradle test",
    "mvn test",
    "tsc --noEmit",
    "tsc --noEmit -p tsconfig.json",
    "eslint src",
    "vitest run",
  ])("says nothing for %s in a trusted workspace", (text) => {
    expect(dirCodes(text)).toEqual([]);
  });

  it.each([
    "git status",
    "npm test",
    "make",
    "cargo test",
    "pytest",
    "go build",
    "yarn --version",
    "eslint .",
  ])("asks for %s in a workspace that is not trusted", (text) => {
    expect(dirCodes(text, untrusted)).toEqual(["tool.directory-code"]);
  });

  it.each(["git status", "npm test", "make", "cargo test", "pytest"])(
    "asks for %s outside the workspace",
    (text) => {
      expect(dirCodes(text, { ...ctx, cwd: "/tmp/x" })).toEqual(["tool.directory-code"]);
      expect(dirCodes(text, { ...ctx, cwdUnknown: true })).toEqual(["tool.directory-code"]);
    },
  );

  it.each([
    "git -C /other/repo status",
    "git -C .. status",
    "git --git-dir=/tmp/x/.git log",
    "git --work-tree /tmp/x status",
    "npm --prefix /tmp/x test",
    "npm -C /tmp/x run build",
    "npm run build --userconfig /tmp/evil.npmrc",
    "pnpm -C /tmp/x test",
    "pnpm --dir=/tmp/x test",
    "yarn --cwd /tmp/x test",
    "make -C /tmp/x",
    "make --directory=/tmp/x",
    "make -f /tmp/x.mk",
    "make -C src -f ../../x.mk",
    "cargo --manifest-path /tmp/x/Cargo.toml build",
    "cargo -C /tmp/x test",
    "go -C /tmp/x test ./...",
    "go build -modfile=/tmp/go.mod",
    "pytest /tmp/evil",
    "pytest --rootdir=/tmp/evil",
    "pytest -c /tmp/pytest.ini",
    "gradle -p /tmp/x test",
    "mvn -f /tmp/x/pom.xml test",
    "tsc --noEmit -p /tmp/evil",
    "eslint -c /tmp/evil.config.js .",
    "prettier --plugin=/tmp/p.js --check .",
    "direnv exec /tmp/x ls",
    "just -f /tmp/justfile",
  ])("asks when %s works in or loads from another directory", (text) => {
    expect(dirCodes(text)).toContain("tool.directory-code");
  });

  it.each([
    "make CC=/tmp/evil",
    "make --eval=x:;id",
    "npm test --node-options=--require=/tmp/x.js",
    "cargo --config build.rustc-wrapper=/tmp/x build",
    "go test -exec /tmp/x ./...",
    "go build -toolexec=/tmp/x",
    "go vet -vettool=/tmp/x ./...",
    "go vet --vettool /tmp/x",
    "go build -ldflags=-extld=/tmp/x .",
    "go build -ldflags=-linkmode=external·-extld=x .",
    "go build -ldflags -extld=x .",
    "pytest -p evil",
    "gradle -I /tmp/init.gradle test",
    "mocha -r /tmp/x.js",
  ])("asks when %s hands the tool code", (text) => {
    expect(dirCodes(text)).toContain("tool.exec-option");
  });

  it.each(["git --version", "npm --version", "npm ls", "npm view react", "make --version", "cargo -V"])(
    "says nothing for %s, which loads nothing from the directory",
    (text) => {
      expect(dirCodes(text, untrusted)).toEqual([]);
    },
  );

  it("accepts directories inside the workspace", () => {
    expect(dirCodes("make -C src")).toEqual([]);
    expect(dirCodes("npm --prefix packages/a test")).toEqual([]);
    expect(dirCodes("git -C sub status")).toEqual([]);
  });

  it("counts the directory the line starts in as the workspace when the host names none", () => {
    const none: SafetyContext = { cwd: "/code/proj", home: "/home/dev", trustedRoot: "/code/proj" };
    expect(dirCodes("make", none)).toEqual([]);
    expect(dirCodes("make", { ...none, cwd: "/tmp" })).toEqual(["tool.directory-code"]);
  });

  it("never lets a config-loading tool pointed outside the workspace pass (generated)", () => {
    const tools = fc.constantFrom(
      "git -C {}",
      "npm --prefix {} test",
      "npm --prefix={} test",
      "pnpm -C {} test",
      "pnpm --dir {} test",
      "yarn --cwd {} build",
      "make -C {}",
      "make --directory {}",
      "make -f {}/Makefile",
      "cargo --manifest-path {}/Cargo.toml test",
      "go -C {} test",
      "pytest {}",
      "pytest --rootdir {}",
      "gradle -p {} test",
      "mvn -f {} test",
      "tsc --noEmit -p {}",
      "vitest --root {} run",
    );
    const outside = fc.constantFrom(
      "/",
      "/tmp",
      "/tmp/evil",
      "~",
      "~/other",
      "..",
      "../..",
      "../proj2",
      "/code/proj/../x",
      "/code",
      "$D",
      "$(pwd)",
    );
    fc.assert(
      fc.property(tools, outside, fc.boolean(), (tool, dir, untrustedToo) => {
        const text = tool.replace("{}", dir).replace(/^git -C (\S+)$/, "git -C $1 status");
        const context = untrustedToo ? { ...ctx, workspaceTrusted: false } : ctx;
        expect(dirCodes(text, context)).toContain("tool.directory-code");
      }),
      { numRuns: 300 },
    );
  });
});

describe("directoryCodeOf", () => {
  it("names what a tool runs of its directory, by name and alias, and nothing for a version or help call", () => {
    expect(directoryCodeOf("vitest", ["run"])).toMatch(/JavaScript configuration/);
    expect(directoryCodeOf("cargo", ["test"])).toMatch(/build\.rs/);
    expect(directoryCodeOf("py.test", [])).toMatch(/conftest\.py/);
    expect(directoryCodeOf("gradlew", ["build"])).toMatch(/build\.gradle/);
    expect(directoryCodeOf("go", ["generate", "./..."])).toMatch(/generators/);
    for (const [name, args] of [
      ["vitest", ["--version"]],
      ["go", ["version"]],
      ["go", []],
      ["git", ["status"]],
      ["cat", ["x"]],
      ["esbuild", ["--bundle"]],
    ] as const)
      expect(directoryCodeOf(name, args), `${name} ${args.join(" ")}`).toBeUndefined();
  });
});
