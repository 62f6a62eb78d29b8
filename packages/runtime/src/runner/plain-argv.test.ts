import { decide, loadShellParser, resolvePolicy } from "@slashi/core";
import { beforeAll, describe, expect, it } from "vitest";
import { plainArgv } from "./plain-argv.js";

const policy = resolvePolicy([]);
const argvOf = (line: string): string[] | undefined =>
  plainArgv(decide(line, policy, { cwd: "/w", workspaceRoot: "/w" }));

beforeAll(async () => {
  await loadShellParser();
});

describe("plainArgv", () => {
  it("runs one plain command as an argv, quotes removed", () => {
    expect(argvOf("git commit -m 'two words'")).toEqual(["git", "commit", "-m", "two words"]);
    expect(argvOf("bash -c 'echo hi'")).toEqual(["bash", "-c", "echo hi"]);
  });

  it.each([
    "ls | wc -l",
    "a && b",
    "echo $HOME",
    "cat ~/x",
    "X=1 env",
    "echo hi > out.txt",
    "(cd x)",
    "echo $(date)",
  ])("needs the shell for %s", (line) => {
    expect(argvOf(line)).toBeUndefined();
  });
});

describe("plainArgv: runners", () => {
  it("runs a wrapped command as one argv, the runner included", () => {
    expect(argvOf("sudo ls -l")).toEqual(["sudo", "ls", "-l"]);
    expect(argvOf("bash -c 'ls'")).toEqual(["bash", "-c", "ls"]);
  });
});
