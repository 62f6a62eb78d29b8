import { describe, expect, it } from "vitest";
import { commandFromArgv, invocationOf } from "./argv.js";
import { dataPrograms, dataUseOf } from "./data-programs.js";
import { directoryCodeOf } from "./directory.js";
import { readWords } from "./reads.js";

const invocation = (argv: string[]) => {
  const got = invocationOf(commandFromArgv(argv));
  if (got === undefined) throw new Error(argv.join(" "));
  return got;
};

describe("dataUseOf", () => {
  it("pins what each program whose words are only data does with them", () => {
    expect(Object.fromEntries(dataPrograms())).toEqual({
      ":": "nothing",
      true: "nothing",
      false: "nothing",
      echo: "values",
      printf: "values",
      tr: "values",
      sleep: "values",
      cd: "shell state",
      pushd: "shell state",
      popd: "shell state",
      dirs: "shell state",
      export: "shell state",
      local: "shell state",
      declare: "shell state",
      typeset: "shell state",
      readonly: "shell state",
      unset: "shell state",
      shift: "shell state",
      exit: "shell state",
      return: "shell state",
      wait: "shell state",
      "[": "names and metadata",
      test: "names and metadata",
      ls: "names and metadata",
      stat: "names and metadata",
      du: "names and metadata",
      df: "names and metadata",
      basename: "names and metadata",
      dirname: "names and metadata",
      realpath: "names and metadata",
      readlink: "names and metadata",
      cat: "reads files",
      tac: "reads files",
      head: "reads files",
      tail: "reads files",
      wc: "reads files",
      cut: "reads files",
      grep: "reads files",
      egrep: "reads files",
      fgrep: "reads files",
      cmp: "reads files",
      diff: "reads files",
      md5sum: "reads files",
      sha1sum: "reads files",
      sha256sum: "reads files",
      sha512sum: "reads files",
      base64: "reads files",
      tee: "changes files",
      mkdir: "changes files",
      rmdir: "changes files",
      rm: "changes files",
      cp: "changes files",
      mv: "changes files",
      ln: "changes files",
      touch: "changes files",
      chmod: "changes files",
      chown: "changes files",
      chgrp: "changes files",
      mktemp: "changes files",
    });
  });

  it("agrees with the read analysis: programs that open no file read no word, readers read their operands", () => {
    for (const [name, use] of dataPrograms()) {
      // `x` first: grep's first operand is its pattern.
      const reads = readWords(invocation([name, "x", "notes.md"]));
      if (use === "reads files")
        expect(
          reads?.map((r) => r.text),
          name,
        ).toContain("notes.md");
      else if (use !== "changes files") expect(reads ?? [], name).toEqual([]);
    }
  });

  it("knows no program that runs its words or its directory's code", () => {
    for (const name of [
      "awk",
      "gawk",
      "sed",
      "jq",
      "find",
      "xargs",
      "env",
      "make",
      "gcc",
      "git",
      "tar",
      "sort",
    ])
      expect(dataUseOf(name), name).toBeUndefined();
    for (const [name] of dataPrograms()) expect(directoryCodeOf(name, ["x"]), name).toBeUndefined();
  });
});
