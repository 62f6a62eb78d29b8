import { describe, expect, it } from "vitest";
import { analyzeDialect } from "./dialects.js";

describe("analyzeDialect", () => {
  it("tokenizes plain words in each dialect", () => {
    expect(analyzeDialect("Get-ChildItem -Path C:\\src", "powershell").commands[0]?.argv).toEqual([
      "Get-ChildItem",
      "-Path",
      "C:\\src",
    ]);
    expect(analyzeDialect("dir /s  C:\\x", "cmd").commands[0]?.argv).toEqual(["dir", "/s", "C:\\x"]);
    expect(analyzeDialect("git log -n 5", "fish").commands[0]?.argv).toEqual(["git", "log", "-n", "5"]);
  });

  it("unwraps runners in fish", () => {
    const c = analyzeDialect("sudo env A=1 rm x", "fish").commands[0];
    expect(c?.wrappers).toEqual(["sudo", "env"]);
    expect(c?.effective).toEqual(["rm", "x"]);
  });

  it.each([
    ["powershell", "echo $x"],
    ["powershell", "a; b"],
    ["powershell", "a | b"],
    ["powershell", "echo (1)"],
    ["powershell", "echo {1}"],
    ["powershell", "echo 'x'"],
    ["powershell", 'echo "x"'],
    ["powershell", "echo a`b"],
    ["powershell", "echo @x"],
    ["powershell", "echo a,b"],
    ["powershell", "echo a # c"],
    ["powershell", "echo [int]1"],
    ["powershell", "echo \u201cx\u201d"],
    ["powershell", "Remove-Item \u2014Recurse"],
    ["powershell", "a\nb"],
    ["cmd", "echo %PATH%"],
    ["cmd", "echo !x!"],
    ["cmd", "a ^& b"],
    ["cmd", "a & b"],
    ["cmd", "a | b"],
    ["cmd", "a > f"],
    ["cmd", "a < f"],
    ["cmd", "(a)"],
    ["cmd", 'echo "x"'],
    ["cmd", "a;b"],
    ["cmd", "a\r\nb"],
    ["fish", "echo $x"],
    ["fish", "echo (pwd)"],
    ["fish", "a; b"],
    ["fish", "a | b"],
    ["fish", "a & b"],
    ["fish", "a > f"],
    ["fish", "rm *.log"],
    ["fish", "ls ?"],
    ["fish", "echo {a,b}"],
    ["fish", "echo 'x'"],
    ["fish", "echo \\n"],
    ["fish", "echo # c"],
    ["fish", "ls ~"],
    ["fish", "echo \u00a0x"],
  ] as const)("refuses %s syntax in %j", (language, script) => {
    const a = analyzeDialect(script, language);
    expect(a.incomplete).toBe(true);
    expect(a.commands).toEqual([]);
    expect(a.findings.map((f) => [f.code, f.severity])).toEqual([["shell.unsupported-syntax", "ask"]]);
  });

  it("analyses an empty line as nothing", () => {
    expect(analyzeDialect("   ", "cmd")).toEqual({
      language: "cmd",
      commands: [],
      findings: [],
      incomplete: false,
    });
  });
});
