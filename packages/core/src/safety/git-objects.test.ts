import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cmd } from "../../test/safety/command.js";
import { invocationOf } from "./argv.js";
import { gitObjectPrint } from "./git-objects.js";

/** The word `gitObjectPrint` names for a command line (`%` marks a literal word with `{`, see `cmd`). */
function printed(text: string): string | undefined {
  const invocation = invocationOf(cmd(text));
  return invocation === undefined ? undefined : gitObjectPrint(invocation)?.word;
}

describe("gitObjectPrint", () => {
  it.each([
    ["git cat-file -p 1a2b3c4", "1a2b3c4"],
    ["git cat-file blob 1a2b3c4d5e6f", "1a2b3c4d5e6f"],
    ["git cat-file --textconv 1A2B3C4", "1A2B3C4"],
    ["git cat-file --filters --path=x 1a2b", "1a2b"],
    ["git cat-file -p %1a2b3c4^{}", "1a2b3c4^{}"],
    ["git cat-file $T 1a2b3c4", "1a2b3c4"],
    ["git cat-file -p $OBJ", "$OBJ"],
    ["git cat-file --batch", "--batch"],
    ["git cat-file --batch=%(objectname)", "--batch=%(objectname)"],
    ["git cat-file --batch-command", "--batch-command"],
    ["git cat-file --batch-all-objects --batch", "--batch"],
    ["git show 1a2b3c4", "1a2b3c4"],
    ["git show --stat 1a2b3c4", "1a2b3c4"],
    ["git -C . --no-pager show deadbeef", "deadbeef"],
    ["git show HEAD 1a2b3c4", "1a2b3c4"],
    ["git show -n 1 1a2b3c4 -- src", "1a2b3c4"],
    ["git grep TOKEN 1a2b3c4", "1a2b3c4"],
    ["git grep -e TOKEN -- 1a2b3c4", undefined],
    ["git grep -e TOKEN 1a2b3c4", "1a2b3c4"],
    ["git diff 1a2b3c4 5e6f7a8", "1a2b3c4 5e6f7a8"],
    ["git diff 1a2b3c4..5e6f7a8", "1a2b3c4 5e6f7a8"],
    ["git diff 1a2b3c4...5e6f7a8", "1a2b3c4 5e6f7a8"],
  ])("%s prints an object that may be a blob (%s)", (text, word) => {
    expect(printed(text)).toBe(word);
  });

  it.each([
    "git cat-file -t 1a2b3c4",
    "git cat-file -s 1a2b3c4",
    "git cat-file -e 1a2b3c4",
    "git cat-file commit 1a2b3c4",
    "git cat-file tree 1a2b3c4",
    "git cat-file -p HEAD",
    "git cat-file -p main",
    "git cat-file -p %HEAD^{tree}",
    "git cat-file -p %1a2b3c4^{commit}",
    "git cat-file -p HEAD:README.md",
    "git cat-file --batch-check",
    "git cat-file --batch-all-objects --batch-check",
    "git show",
    "git show HEAD",
    "git show v1.2.3",
    "git show 1a2b3c4~0",
    "git show 1a2b3c4^",
    "git show 1a2b3c4^2",
    "git show %1a2b3c4^{commit}",
    "git show %1a2b3c4^{tree}",
    "git show %HEAD@{1}",
    "git show HEAD~3..HEAD",
    "git show 1a2b3c4:README.md",
    "git show -n 12345 HEAD",
    "git log -p 1a2b3c4",
    "git diff 1a2b3c4",
    "git diff HEAD 1a2b3c4",
    "git diff 1a2b3c4 -- src",
    "git diff --no-index 1a2b a3b4",
    "git grep TOKEN",
    "git grep TOKEN HEAD",
    "git grep 1a2b3c4",
    "git ls-tree 1a2b3c4",
    "git rev-list --objects --all",
    "ls 1a2b3c4",
  ])("%s prints no object that may be a blob", (text) => {
    expect(printed(text)).toBeUndefined();
  });

  it("names every object id spelling given to an object-printing call", () => {
    const id = fc.stringMatching(/^[0-9a-fA-F]{4,40}$/);
    const call = fc.constantFrom(
      "git cat-file -p",
      "git cat-file blob",
      "git show",
      "git --no-pager show --stat",
      "git -C . show",
      "git grep -h .",
      "git cat-file --textconv",
    );
    const suffix = fc.constantFrom("", "^{}", "^{blob}", "^{tag}");
    fc.assert(
      fc.property(call, id, suffix, (c, i, s) => {
        const word = `${i}${s}`;
        expect(printed(`${c} %${word}`)).toBe(word);
      }),
      { numRuns: 200 },
    );
  });
});
