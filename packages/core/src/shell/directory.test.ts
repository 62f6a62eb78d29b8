import { beforeAll, describe, expect, it } from "vitest";
import { analyzeShell } from "./analyze.js";
import { runnerDirectory, type WorkingDirectory } from "./directory.js";
import { loadShellParser } from "./parser.js";

/** The directory of each command, as `text → "-"` (where the line starts), step lists, or `unknown`. */
function directories(script: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of analyzeShell(script).commands) out[c.text] = render(c.cwd);
  return out;
}

function render(cwd: WorkingDirectory | undefined): string {
  if (cwd === undefined) return "-";
  if (cwd.kind === "unknown") return "unknown";
  return cwd.candidates.map((c) => (c.length === 0 ? "." : c.map((s) => s.word).join(" > "))).join(" | ");
}

beforeAll(async () => {
  await loadShellParser();
});

describe("the directory each command runs in", () => {
  it("follows cd through && to the commands after it", () => {
    expect(directories("cd src && ls && cd ../lib && cat x")).toEqual({
      "cd src": "-",
      ls: "src",
      "cd ../lib": "src",
      "cat x": "src > ../lib",
    });
  });

  it("restarts from an absolute or home target", () => {
    expect(directories("cd src && cd / && ls")["ls"]).toBe("/");
    expect(directories("cd src && cd ~/x && ls")["ls"]).toBe("~/x");
    expect(directories("cd && ls")["ls"]).toBe("~");
    expect(directories("cd -P -- /etc && ls")["ls"]).toBe("/etc");
  });

  it("keeps a quoted ~ as a folder name", () => {
    expect(directories("cd '~' && ls")["ls"]).toBe("./~");
  });

  it("counts the directory before a cd that may have failed", () => {
    expect(directories("cd src; ls")["ls"]).toBe(". | src");
    expect(directories("cd src || ls")["ls"]).toBe(". | src");
    expect(directories("cd a && cd b; ls")["ls"]).toBe(". | a | a > b");
    expect(directories("if cd /x; then ls; fi")["ls"]).toBe(". | /x");
    expect(directories("! cd /x && ls")["ls"]).toBe(". | /x");
  });

  it("keeps subshells, substitutions, pipelines and background jobs to themselves", () => {
    expect(directories("(cd /; ls); cat x")).toEqual({ "cd /": "-", ls: "/", "cat x": "-" });
    expect(directories('echo "$(cd /; pwd)" && cat x')["cat x"]).toBe("-");
    expect(directories("cat <(cd /; ls) && cat x")["cat x"]).toBe("-");
    expect(directories("cd / | ls; cat x")["ls"]).toBe("-");
    expect(directories("cd / & cat x")["cat x"]).toBe("-");
    expect(directories("bash -c 'cd /'; cat x")["cat x"]).toBe("-");
  });

  it("lets a group change the directory of what follows", () => {
    expect(directories("{ cd /; } && ls")["ls"]).toBe("/");
  });

  it("counts zsh's last pipeline element, which runs in the current shell", () => {
    expect(directories("ls | cd /; cat x")["cat x"]).toBe(". | /");
  });

  it("runs a payload where its runner moves it", () => {
    expect(directories("env -C / sh -c 'ls'")["ls"]).toBe("/");
    expect(directories("cd src && bash -c 'cd .. && ls'")["ls"]).toBe("src > ..");
  });

  it("follows cd -P .. from where the line starts, and cd -L (the default) by name", () => {
    expect(directories("cd -P .. && cat y")["cat y"]).toBe("..");
    expect(directories("cd -P ../.. && cat y")["cat y"]).toBe("../..");
    expect(directories("cd -PL src/.. && cat y")["cat y"]).toBe("src/..");
    expect(directories("cd src/.. && cat y")["cat y"]).toBe("src/..");
  });

  it("follows pushd and popd", () => {
    expect(directories("pushd /tmp && ls && popd && cat x")).toMatchObject({ ls: "/tmp", "cat x": "-" });
  });

  it.each([
    ["cd - && cat y", "cat y"],
    ["popd && cat y", "cat y"],
    ["pushd && cat y", "cat y"],
    ["pushd +1 && cat y", "cat y"],
    ["cd a b && cat y", "cat y"],
    ["CDPATH=/etc; cd ssh && cat y", "cat y"],
    ["HOME=/etc; cd && cat y", "cat y"],
    ["export CDPATH=/etc; cd ssh && cat y", "cat y"],
    ["eval x && cat y", "cat y"],
    ["source env.sh && cat y", "cat y"],
    ["$CMD && cat y", "cat y"],
    ["sudo cd / && cat y", "cat y"],
    ["for d in a b; do cd $d; cat y; done", "cat y"],
    ["while cd ..; do cat y; done", "cat y"],
    ["f() { cd /; }; f; cat y", "cat y"],
    ["f() { cat y; }; cd /; f", "cat y"],
    ["pushd a; popd; cat y", "cat y"],
    ["cd -P /proc/self/cwd/.. && cat y", "cat y"],
    ["cd /proc/self/cwd/.. && cat y", "cat y"],
    ["cd //proc/1/root && cat y", "cat y"],
    ["cd /dev/fd/3 && cat y", "cat y"],
    ["cd -P src/.. && cat y", "cat y"],
    ["cd src && cd -P .. && cat y", "cat y"],
    ["cd -LP link/../.. && cat y", "cat y"],
  ])("does not know where the line %j runs %s", (script, text) => {
    expect(directories(script)[text]).toBe("unknown");
  });

  it("keeps a computed target as a dynamic step, resolved (or not) when the policy decides", () => {
    const cat = analyzeShell('cd "$HOME/x" && cd $(pwd) && cat y').commands.at(-1)!;
    expect(cat.cwd).toEqual({
      kind: "changed",
      candidates: [
        [
          { word: '"$HOME/x"', dynamic: true },
          { word: "$(pwd)", dynamic: true },
        ],
      ],
    });
  });

  it("keeps the starting directory for a relative cd when CDPATH is set only for ./ forms", () => {
    expect(directories("CDPATH=/etc; cd ./ssh && cat y")["cat y"]).toBe("./ssh");
  });

  it("keeps the starting directory in a function body when the line never changes it", () => {
    expect(directories("f() { cat y; }; f")["cat y"]).toBe("-");
  });

  it("reads the same directories on the parser-free path and the tree walk", () => {
    // plain lines with a cd go to the tree walk, so both give the same directories
    expect(directories("cd src && ls | wc -l")).toEqual({ "cd src": "-", ls: "src", "wc -l": "src" });
  });
});

describe("runnerDirectory", () => {
  const of = (script: string) => runnerDirectory(analyzeShell(script).commands[0]!);

  it.each([
    ["env -C /x ls", "/x"],
    ["env --chdir=/x ls", "/x"],
    ["env --chdir /x ls", "/x"],
    ["env -iC /x ls", "/x"],
    ["env -C/x ls", "/x"],
    ["sudo -D /x ls", "/x"],
    ["sudo --chdir=/x ls", "/x"],
    ["sudo -u root -D /x ls", "/x"],
    ["env --ch=/x ls", "/x"],
    ["env --chd /x ls", "/x"],
    ["env -u HOME --chdi=/x ls", "/x"],
    ["sudo --chd /x ls", "/x"],
    ["timeout 5 env -C /x ls", "/x"],
    ["nice -n 1 env --chdir=/x ls", "/x"],
    ["env -S '-C /x ls'", "/x"],
    ["env -C /x env -C y ls", "/x/y"],
    ["env -C a env -C /x ls", "/x"],
  ])("reads the directory of %s", (script, word) => {
    expect(of(script)?.word).toBe(word);
  });

  it("has none for a runner that does not move", () => {
    expect(of("env X=1 ls")).toBeUndefined();
    expect(of("ls")).toBeUndefined();
    expect(of("timeout 5 ls")).toBeUndefined();
  });
});
