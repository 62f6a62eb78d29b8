import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { analyzeShell } from "./analyze.js";
import { zshOnlySyntax } from "./grammar.js";
import { loadShellParser } from "./parser.js";

beforeAll(async () => {
  await loadShellParser();
});

const dialect = (line: string, grammar: "bash" | "posix" | "zsh"): boolean =>
  analyzeShell(line, "bash", grammar).findings.some((f) => f.code === "shell.dialect-syntax");

describe("the POSIX subset", () => {
  it.each([
    "((x))",
    "[[ a ]]",
    "echo $'a'",
    "cat <(ls)",
    "ls &> f",
    "ls |& cat",
    "echo {a,b}",
    "a=(1)",
    "echo ${x:1}",
    "echo $[1]",
    "local x=1",
    "function f { :; }",
    "ls >&f",
  ])("reports %s under posix only", (line) => {
    expect(dialect(line, "posix")).toBe(true);
    expect(dialect(line, "bash")).toBe(false);
  });

  it.each([
    "ls -la | head",
    "echo $((1+2)) ${x:-y} ${#x} ${x%.*}",
    "ls 2>&1 >/dev/null",
    "f() { :; }",
    "export A=1",
  ])("accepts %s", (line) => {
    expect(dialect(line, "posix")).toBe(false);
  });
});

describe("zsh's own forms", () => {
  it.each([
    "ls *(e:'id':)",
    "ls x(+f)",
    "cat =(id)",
    'echo "${(e)x}"',
    "echo $~x",
    "echo $=x",
    "echo ${^x}",
    "ls >! f",
    "ls >>| f",
  ])("reports %s", (line) => {
    expect(zshOnlySyntax(line)).toBeDefined();
    expect(dialect(line, "zsh")).toBe(true);
  });

  it.each(["< README.md", "> /dev/null", "READNULLCMD=x; < f", "{ < f; }"])(
    "reports %s, a redirection with no command, for which zsh runs $NULLCMD or $READNULLCMD",
    (line) => {
      expect(dialect(line, "zsh")).toBe(true);
      expect(dialect(line, "bash")).toBe(false);
    },
  );

  it("ignores single-quoted text and plain words", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9 ()=~$!|>]{0,12}$/), (text) => {
        expect(zshOnlySyntax(`echo '${text.replaceAll("'", "")}'`)).toBeUndefined();
      }),
    );
    expect(zshOnlySyntax("git log --oneline | head -5 && a=(1 2)")).toBeUndefined();
  });
});
