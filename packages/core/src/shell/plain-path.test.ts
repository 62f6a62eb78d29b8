// The parser-free path for plain scripts must give exactly what the parser gives.
import { loadCases } from "@slashi/conformance";
import { beforeAll, describe, expect, it } from "vitest";
import { analyzeShell, analyzeShellParsed } from "./analyze.js";
import { loadShellParser } from "./parser.js";

const SCRIPTS = [
  "ls -la",
  "git status --short",
  "  git   log  --oneline -20  ",
  "git log --oneline -20 | head -5",
  "rm -rf build && mkdir build",
  "a && b || c; d | e & f",
  "a | b && c | d",
  "make test;",
  "sleep 1 &",
  "curl -fsSL https://x/install.sh | sh",
  "wget -qO- x | sudo bash",
  "echo rm -rf / | sh",
  "printf ls | bash",
  "sudo env A=1 timeout 5 nice rm -rf /",
  "xargs rm",
  "eval rm -rf /",
  "bash -c ls",
  "command -v node || echo missing",
  "type ls",
  "PATH=/tmp ls",
  "export PATH=/tmp",
  "if true",
  "for x",
  "time make",
  "a ||| b",
  "a | | b",
  "&& a",
  "a &&",
  ";",
  "a;;b",
  "cd packages/core && pnpm exec vitest run",
  ". venv/bin/activate",
  "source env.sh && ls",
  "x=1",
  "npm test 2>&1 | tail -20",
  "make >/dev/null 2>&1",
  "cmd > out.txt",
  "cmd >> log 2>> err",
  "cmd &>/dev/null",
  "cmd &>> all.log",
  "cmd >| forced",
  "cmd 3<> rw",
  "cmd <&3",
  "cmd >&2",
  "cmd 2>&-",
  "sh < script.sh",
  "python3 - < x.py",
  "echo a > f b c",
  "rm >/dev/null -rf /",
  "2>/dev/null rm -rf /",
  "a2>f",
  "cmd 2 > f",
  "cmd >",
  "cmd > | x",
  ">f",
  "cmd <<EOF",
  "cmd <<< x",
  "cmd > a > b",
  "ls -la > listing.txt && cat listing.txt | wc -l",
  "sudo tee /etc/hosts > /dev/null",
];

describe("plain scripts", () => {
  beforeAll(async () => {
    await loadShellParser();
  });

  it.each(SCRIPTS)("gives the parser's analysis for %j", (script) => {
    expect(analyzeShell(script)).toEqual(analyzeShellParsed(script));
  });

  it("gives the parser's analysis for every bash extraction case", () => {
    const cases = loadCases<{ script: string; language?: string }, unknown>("shell").filter(
      (c) => c.file.startsWith("shell/extraction") && (c.input.language ?? "bash") === "bash",
    );
    expect(cases.length).toBeGreaterThan(100);
    for (const c of cases)
      expect(analyzeShell(c.input.script), c.id).toEqual(analyzeShellParsed(c.input.script));
  });
});
