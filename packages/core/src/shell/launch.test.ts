import { describe, expect, it } from "vitest";
import { shellInline } from "./launch.js";

describe("shellInline", () => {
  it("finds the -c text and the files the shell's other options load, by the shell's table", () => {
    expect(shellInline("bash", ["-c", "echo hi"])).toEqual({ text: "echo hi", textIndex: 1, loads: [] });
    expect(shellInline("bash", ["--rcfile", "./rc", "-ic", "x", "arg0"])).toEqual({
      text: "x",
      textIndex: 3,
      loads: [{ option: "--rcfile", file: "./rc" }],
    });
    expect(shellInline("dash", ["-e", "-c", "x"])).toEqual({ text: "x", textIndex: 2, loads: [] });
  });

  it("refuses what it cannot pin, and a line without -c", () => {
    expect(shellInline("bash", ["--debugger", "-c", "x"])).toHaveProperty("refused");
    expect(shellInline("bash", ["--nosuch", "-c", "x"])).toHaveProperty("refused");
    expect(shellInline("bash", ["x.sh"])).toHaveProperty("refused");
    expect(shellInline("bash", ["-c"])).toHaveProperty("refused");
  });

  it("reads a shell without an option table only as SHELL -c TEXT", () => {
    for (const shell of ["yash", "ksh", "mksh", "posh"]) {
      expect(shellInline(shell, ["-c", "x"])).toEqual({ text: "x", textIndex: 1, loads: [] });
      for (const args of [["-ic", "x"], ["-E", "-c", "x"], ["--rcfile=./rc", "-i", "-c", "x"], ["-c"]])
        expect(shellInline(shell, args), `${shell} ${args.join(" ")}`).toHaveProperty("refused");
    }
  });
});
