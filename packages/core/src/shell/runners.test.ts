import { describe, expect, it } from "vitest";
import type { Word } from "./options.js";
import { scanOptions } from "./options.js";
import { splitEnvString, unwrapRunners } from "./runners.js";

function w(...texts: string[]): Word[] {
  return texts.map((text) => ({ text, dynamic: text.startsWith("$") }));
}

function unwrap(line: string) {
  const r = unwrapRunners(w(...line.split(" ")));
  return {
    wrappers: r.wrappers,
    effective: r.effective.map((x) => x.text),
    problems: r.problems.map((p) => p.code),
  };
}

describe("unwrapRunners", () => {
  it.each([
    ["sudo rm x", ["sudo"], ["rm", "x"]],
    ["sudo -u root -g wheel rm x", ["sudo"], ["rm", "x"]],
    ["sudo -uroot -nE rm x", ["sudo"], ["rm", "x"]],
    ["sudo --user=root --preserve-env=A,B rm x", ["sudo"], ["rm", "x"]],
    ["sudo --user root rm x", ["sudo"], ["rm", "x"]],
    ["sudo -hhost rm x", ["sudo"], ["rm", "x"]],
    ["sudo -- rm x", ["sudo"], ["rm", "x"]],
    ["sudo A=1 B=2 rm x", ["sudo"], ["rm", "x"]],
    ["doas -u root rm x", ["doas"], ["rm", "x"]],
    ["env rm x", ["env"], ["rm", "x"]],
    ["env -i -u HOME -C /tmp A=1 rm x", ["env"], ["rm", "x"]],
    ["env --ignore-environment --unset=HOME --chdir=/ rm x", ["env"], ["rm", "x"]],
    ["env - A=1 rm x", ["env"], ["rm", "x"]],
    ["nohup rm x", ["nohup"], ["rm", "x"]],
    ["nohup -- rm x", ["nohup"], ["rm", "x"]],
    ["setsid -f -w rm x", ["setsid"], ["rm", "x"]],
    ["time -p rm x", ["time"], ["rm", "x"]],
    ["time -f %e -o log rm x", ["time"], ["rm", "x"]],
    ["exec -a name rm x", ["exec"], ["rm", "x"]],
    ["exec -cl rm x", ["exec"], ["rm", "x"]],
    ["command -p rm x", ["command"], ["rm", "x"]],
    ["builtin cd x", ["builtin"], ["cd", "x"]],
    ["timeout 5 rm x", ["timeout"], ["rm", "x"]],
    ["timeout -s KILL -k 3 1m rm x", ["timeout"], ["rm", "x"]],
    ["timeout --foreground --preserve-status 10s rm x", ["timeout"], ["rm", "x"]],
    ["nice rm x", ["nice"], ["rm", "x"]],
    ["nice -n 5 rm x", ["nice"], ["rm", "x"]],
    ["nice -n5 rm x", ["nice"], ["rm", "x"]],
    ["nice -5 rm x", ["nice"], ["rm", "x"]],
    ["nice --adjustment=5 rm x", ["nice"], ["rm", "x"]],
    ["ionice -c 2 -n 0 rm x", ["ionice"], ["rm", "x"]],
    ["ionice -t -c3 rm x", ["ionice"], ["rm", "x"]],
    ["stdbuf -i0 -oL -e 0 rm x", ["stdbuf"], ["rm", "x"]],
    ["stdbuf --output=L rm x", ["stdbuf"], ["rm", "x"]],
    ["chrt -f 99 rm x", ["chrt"], ["rm", "x"]],
    ["chrt -o 0 rm x", ["chrt"], ["rm", "x"]],
    ["chrt -R --rr 5 rm x", ["chrt"], ["rm", "x"]],
    ["taskset 3 rm x", ["taskset"], ["rm", "x"]],
    ["taskset -c 0-3 rm x", ["taskset"], ["rm", "x"]],
    ["taskset -a -c 1 rm x", ["taskset"], ["rm", "x"]],
    ["xargs rm", ["xargs"], ["rm"]],
    ["xargs -0 -n 1 -P4 rm -f", ["xargs"], ["rm", "-f"]],
    ["xargs -I {} -L 1 -d , -E END -s 100 -a list rm {}", ["xargs"], ["rm", "{}"]],
    ["xargs -i{} -l1 -e rm {}", ["xargs"], ["rm", "{}"]],
    ["xargs --max-args=1 --arg-file=l --no-run-if-empty -- rm", ["xargs"], ["rm"]],
    ["xargs", ["xargs"], ["echo"]],
    ["watch -x -n 2 rm x", ["watch"], ["rm", "x"]],
    ["watch -n 2 -d rm x", ["watch"], ["sh", "-c", "rm x"]],
    ["watch --interval=2 --differences=permanent ls -l", ["watch"], ["sh", "-c", "ls -l"]],
    ["flock /tmp/l rm x", ["flock"], ["rm", "x"]],
    ["flock -n -w 5 /tmp/l rm x", ["flock"], ["rm", "x"]],
    ["flock -c ls /tmp/l", ["flock"], ["sh", "-c", "ls"]],
    ["flock /tmp/l -c ls", ["flock"], ["sh", "-c", "ls"]],
    ["flock 9", ["flock"], []],
    ["coproc rm x", ["coproc"], ["rm", "x"]],
    ["coproc { rm x", ["coproc"], ["rm", "x"]],
    ["coproc NAME { rm x", ["coproc"], ["rm", "x"]],
    ["busybox rm x", ["busybox"], ["rm", "x"]],
    ["busybox --list", ["busybox"], []],
    ["su -c ls root", ["su"], ["sh", "-c", "ls"]],
    ["su root -c ls", ["su"], ["sh", "-c", "ls"]],
    ["su - root --command=ls", ["su"], ["sh", "-c", "ls"]],
    ["noglob rm x", ["noglob"], ["rm", "x"]],
    ["/usr/bin/sudo /usr/bin/env rm x", ["sudo", "env"], ["rm", "x"]],
    ["sudo env A=1 timeout 5 nice -n 2 nohup rm x", ["sudo", "env", "timeout", "nice", "nohup"], ["rm", "x"]],
    ["env", ["env"], []],
    ["sudo", ["sudo"], []],
    ["nohup", ["nohup"], []],
    ["timeout 5", ["timeout"], []],
    ["exec", ["exec"], []],
    ["ionice -p 42", ["ionice"], []],
    ["chrt -p 42", ["chrt"], []],
    ["chrt -m", ["chrt"], []],
    ["taskset -p 1 42", ["taskset"], []],
    ["rm x", [], ["rm", "x"]],
  ])("unwraps %s", (line, wrappers, effective) => {
    const r = unwrap(line);
    expect(r.wrappers).toEqual(wrappers);
    expect(r.effective).toEqual(effective);
  });

  it("keeps lookups whole and marks them lookup-only", () => {
    for (const line of ["command -v rm", "command -V rm", "sudo -l rm", "type rm", "which rm"]) {
      const r = unwrapRunners(w(...line.split(" ")));
      expect(r.lookupOnly, line).toBe(true);
      expect(
        r.effective.map((x) => x.text),
        line,
      ).toEqual(line.split(" "));
    }
  });

  it("reads sudo -e as sudoedit", () => {
    expect(unwrap("sudo -e /etc/hosts").effective).toEqual(["sudoedit", "/etc/hosts"]);
  });

  it("reports an interactive shell for sudo -s, sudo -i, doas -s and su without a command", () => {
    for (const line of ["sudo -s", "sudo -i", "doas -s", "su", "su - root"]) {
      expect(unwrap(line).problems, line).toContain("shell.interactive-shell");
    }
  });

  it("reports unknown runner options but still finds the command", () => {
    const r = unwrap("sudo -Z rm x");
    expect(r.problems).toEqual(["shell.unknown-runner-option"]);
    expect(r.effective).toEqual(["rm", "x"]);
    expect(unwrap("timeout --frobnicate 5 rm x").problems).toEqual(["shell.unknown-runner-option"]);
  });

  it("stops at a dynamic word, which becomes the program", () => {
    const r = unwrapRunners(w("sudo", "-u", "root", "$CMD", "x"));
    expect(r.effective.map((x) => x.text)).toEqual(["$CMD", "x"]);
    expect(r.effective[0]?.dynamic).toBe(true);
  });

  it("records assignments passed through env and sudo", () => {
    const r = unwrapRunners(w("sudo", "A=1", "env", "B=2", "rm"));
    expect(r.assignments).toEqual([
      { name: "A", value: "1" },
      { name: "B", value: "2" },
    ]);
  });

  it("marks xargs as appending arguments", () => {
    expect(unwrapRunners(w("xargs", "rm")).appendsArguments).toBe(true);
    expect(unwrapRunners(w("rm", "x")).appendsArguments).toBe(false);
  });

  it("splits env -S and unwraps what it contains", () => {
    const r = unwrapRunners([
      { text: "env", dynamic: false },
      { text: "-S", dynamic: false },
      { text: "A=1 timeout 5 rm -rf /", dynamic: false },
    ]);
    expect(r.wrappers).toEqual(["env", "timeout"]);
    expect(r.effective.map((x) => x.text)).toEqual(["rm", "-rf", "/"]);
    expect(r.assignments).toEqual([{ name: "A", value: "1" }]);
  });

  it("reports a dynamic env -S string", () => {
    const r = unwrapRunners([
      { text: "env", dynamic: false },
      { text: "-S", dynamic: false },
      { text: "$X", dynamic: true },
    ]);
    expect(r.problems.map((p) => p.code)).toContain("shell.unparsed-payload");
  });
});

describe("splitEnvString", () => {
  it("splits on white space and honours quotes and escapes", () => {
    expect(splitEnvString(`a 'b c' "d e" f\\ g h\\_i`).words.map((x) => x.text)).toEqual([
      "a",
      "b c",
      "d e",
      "f g",
      "h",
      "i",
    ]);
  });

  it("stops at a comment and at \\c", () => {
    expect(splitEnvString("a b #c d").words.map((x) => x.text)).toEqual(["a", "b"]);
    expect(splitEnvString("a b\\c d").words.map((x) => x.text)).toEqual(["a", "b"]);
  });

  it("marks ${VAR} references dynamic", () => {
    const r = splitEnvString("rm ${TARGET}");
    expect(r.dynamic).toBe(true);
    expect(r.words[1]?.dynamic).toBe(true);
  });
});

describe("scanOptions", () => {
  it("reads clusters, attached and separate values, long options and --", () => {
    const r = scanOptions(w("-abcX", "-n", "5", "--long=v", "--flag", "--", "-x"), 0, {
      shortFlags: "ab",
      shortValue: "cn",
      longValue: ["long"],
      longFlags: ["flag"],
      complete: true,
    });
    expect(r.seen.map((o) => [o.name, o.value?.text])).toEqual([
      ["-a", undefined],
      ["-b", undefined],
      ["-c", "X"],
      ["-n", "5"],
      ["--long", "v"],
      ["--flag", undefined],
    ]);
    expect(r.next).toBe(6);
    expect(r.unknown).toEqual([]);
  });

  it("lists unknown options", () => {
    expect(scanOptions(w("-q", "--what", "x"), 0, { complete: true }).unknown).toEqual(["-q", "--what"]);
  });
});
