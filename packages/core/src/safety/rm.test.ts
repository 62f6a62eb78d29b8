import { describe, expect, it } from "vitest";
import { cmd, ctx, wrapped } from "../../test/safety/command.js";
import { invocationOf } from "./argv.js";
import { classifyRemoval } from "./rm.js";
import type { SafetyContext } from "./types.js";

function codes(text: string, context: SafetyContext = ctx): string[] {
  const invocation = invocationOf(cmd(text));
  return invocation === undefined ? [] : classifyRemoval(invocation, context).map((f) => f.code);
}

describe("rm classifier", () => {
  it.each([
    ["rm -rf /", "rm.recursive-root"],
    ["rm -Rf /", "rm.recursive-root"],
    ["rm -fr /", "rm.recursive-root"],
    ["rm -r -f /", "rm.recursive-root"],
    ["rm -rfv /", "rm.recursive-root"],
    ["rm -v -rf /", "rm.recursive-root"],
    ["rm --recursive --force /", "rm.recursive-root"],
    ["rm --recur /", "rm.recursive-root"],
    ["rm / -rf", "rm.recursive-root"],
    ["rm -r /", "rm.recursive-root"],
    ["rm -rf //", "rm.recursive-root"],
    ["rm -rf /.", "rm.recursive-root"],
    ["rm -rf /usr/..", "rm.recursive-root"],
    ["rm -rf /*", "rm.recursive-root"],
    ["rm /*", "rm.recursive-root"],
    ["/usr/bin/rm -rf /", "rm.recursive-root"],
    ["/bin/rm -rf /", "rm.recursive-root"],
    ["RM -rf /", "rm.recursive-root"],
    ["rm.exe -rf /", "rm.recursive-root"],
    ["busybox rm -rf /", "rm.recursive-root"],
    ["toybox rm -rf /", "rm.recursive-root"],
    ["srm -rf /", "rm.recursive-root"],
    ["rm -rf ../../..", "rm.recursive-root"],
    ["rm -rf ~", "rm.recursive-home"],
    ["rm -rf ~/", "rm.recursive-home"],
    ["rm -rf $HOME", "rm.recursive-home"],
    ["rm -rf ${HOME}", "rm.recursive-home"],
    ['rm -rf "$HOME"', "rm.recursive-home"],
    ['rm -rf "$HOME/"', "rm.recursive-home"],
    ["rm -rf /home/dev", "rm.recursive-home"],
    ["rm -rf /home/dev/", "rm.recursive-home"],
    ["rm -rf ~/*", "rm.recursive-home"],
    ["rm ~/*", "rm.recursive-home"],
    ["rm -rf $HOME/*", "rm.recursive-home"],
    ["rm -rf /home", "rm.recursive-home"],
    ["rm -rf /etc", "rm.recursive-system"],
    ["rm -rf /etc/", "rm.recursive-system"],
    ["rm -rf /usr", "rm.recursive-system"],
    ["rm -rf /usr/lib", "rm.recursive-system"],
    ["rm -rf /usr/*", "rm.recursive-system"],
    ["rm -rf /var/lib", "rm.recursive-system"],
    ["rm -rf /boot", "rm.recursive-system"],
    ["rm -rf /opt", "rm.recursive-system"],
    ["rm -rf /System", "rm.recursive-system"],
    ["rm -rf /Library", "rm.recursive-system"],
    ["rm -rf /Applications", "rm.recursive-system"],
    ["rm -rf /proc", "rm.recursive-system"],
    ["rm -rf /dev", "rm.recursive-system"],
    ["rm -rf /lib64", "rm.recursive-system"],
    ["rm -rf /home/other", "rm.recursive-system"],
    ["rm -rf /tmp", "rm.recursive-system"],
    ["rm -rf /etc/*", "rm.recursive-system"],
    ["rm -rf /code", "rm.recursive-workspace-root"],
    ["rm -rf .", "rm.recursive-workspace-root"],
    ["rm -rf ./", "rm.recursive-workspace-root"],
    ["rm -rf ..", "rm.recursive-workspace-root"],
    ["rm -rf /code/proj", "rm.recursive-workspace-root"],
    ["rm -rf ../*", "rm.recursive-workspace-root"],
    ["rm -rf $DIR", "rm.recursive-dynamic"],
    ['rm -rf "$DIR"', "rm.recursive-dynamic"],
    ["rm -rf $(pwd)", "rm.recursive-dynamic"],
    ["rm -rf `pwd`", "rm.recursive-dynamic"],
    ['rm -rf "$DIR"/', "rm.recursive-dynamic"],
    ["rm -rf /$DIR", "rm.recursive-root"],
    ['rm -rf "/$DIR"', "rm.recursive-root"],
    ["rm -rf ~/$DIR", "rm.recursive-home"],
    ["rm -r --no-preserve-root /", "rm.no-preserve-root"],
    ["rm --no-preserve-root -rf /", "rm.no-preserve-root"],
    ["rm --no-pres -rf /tmp/x", "rm.no-preserve-root"],
  ])("denies %s as %s", (text, code) => {
    expect(codes(text)).toContain(code);
  });

  it.each([
    ["rm -rf ./build", "rm.recursive"],
    ["rm -rf build", "rm.recursive"],
    ["rm -r node_modules", "rm.recursive"],
    ["rm -rf build/*", "rm.recursive"],
    ["rm -rf *", "rm.recursive"],
    ["rm -rf build/$NAME", "rm.recursive"],
    ["rm -rf dist -v", "rm.recursive"],
    ["rm -rf /code/proj/out", "rm.recursive"],
    ["rm -rf /tmp/cache", "rm.outside-workspace"],
    ["rm -rf ~/.cache/thing", "rm.outside-workspace"],
    ["rm -rf ../other-project", "rm.outside-workspace"],
    ["rm -rf /var/tmp", "rm.outside-workspace"],
    ["rm /tmp/file", "rm.outside-workspace"],
    ["rm /etc/passwd", "rm.outside-workspace"],
    ["rm file.txt", "rm.delete"],
    ["rm -f file.txt", "rm.delete"],
    ["rm -- -rf", "rm.delete"],
    ["rm -i a b", "rm.delete"],
    ["unlink file", "rm.delete"],
    ["rmdir empty", "rm.delete"],
    ["rmdir /", "rm.outside-workspace"],
    ["shred -u secret.txt", "rm.delete"],
    ["rm", "rm.delete"],
  ])("asks for %s as %s", (text, code) => {
    const found = codes(text);
    expect(found).toContain(code);
    expect(found.every((c) => c === code)).toBe(true);
  });

  it.each(["rm -rf /", "rm -rf ~", "rm -rf /etc", "rm -rf .", "rm -rf $X"])(
    "treats -- as the end of options: rm -- %s is not recursive",
    (target) => {
      const found = codes(`rm -- ${target.replace(/^rm -rf /, "")}`);
      expect(found.some((c) => c.startsWith("rm.recursive"))).toBe(false);
    },
  );

  it("does not treat `-rf` after -- as a flag", () => {
    expect(codes("rm -- -rf /")).not.toContain("rm.recursive-root");
  });

  it("ignores programs that are not removers", () => {
    for (const text of ["echo rm -rf /", "ls -rf /", "git rm -rf /", "printf %s rm"])
      expect(codes(text)).toEqual([]);
  });

  it("asks when targets come from standard input through xargs", () => {
    const found = classifyRemoval(invocationOf(wrapped("xargs rm -rf", ["xargs"], 1))!, ctx).map(
      (f) => f.code,
    );
    expect(found).toEqual(["rm.targets-from-input"]);
  });

  it("denies the home directory when cwd is home and there is no workspace", () => {
    const home: SafetyContext = { cwd: "/home/dev", home: "/home/dev" };
    expect(codes("rm -rf .", home)).toContain("rm.recursive-home");
    expect(codes("rm -rf *", home)).toContain("rm.recursive-home");
    expect(codes("rm -rf projects/old", home)).toEqual(["rm.outside-workspace"]);
  });

  it("reasons from cwd inside a subfolder of the workspace", () => {
    const sub: SafetyContext = { ...ctx, cwd: "/code/proj/packages/a" };
    expect(codes("rm -rf ../b", sub)).toEqual(["rm.recursive"]);
    expect(codes("rm -rf ../..", sub)).toEqual(["rm.recursive-workspace-root"]);
    expect(codes("rm -rf ../../..", sub)).toEqual(["rm.recursive-workspace-root"]);
  });

  it("reads Windows removers", () => {
    const win: SafetyContext = {
      cwd: "C:\\work\\proj",
      workspaceRoot: "C:\\work\\proj",
      home: "C:\\Users\\dev",
      platform: "windows",
    };
    expect(codes("rd /s /q C:\\", win)).toContain("rm.recursive-root");
    expect(codes("rmdir /S C:\\Users\\dev", win)).toContain("rm.recursive-home");
    expect(codes("Remove-Item -Recurse -Force C:\\Windows", win)).toContain("rm.recursive-system");
    expect(codes("Remove-Item -Path build -Recurse", win)).toEqual(["rm.recursive"]);
    expect(codes("del notes.txt", win)).toEqual(["rm.delete"]);
  });

  it("names the target in the message and subject", () => {
    const [f] = classifyRemoval(invocationOf(cmd("rm -rf /"))!, ctx);
    expect(f).toMatchObject({
      code: "rm.recursive-root",
      severity: "deny",
      subject: "/",
      command: "rm -rf /",
    });
    expect(f!.message).toContain("/");
  });

  describe("mount points (the host's mount table through the file-system port)", () => {
    const port = (
      mounts: readonly string[] | undefined,
      links: Record<string, string> = {},
    ): SafetyContext => ({
      ...ctx,
      fs: {
        realpath: (p) => links[p] ?? p,
        readdir: () => undefined,
        mountPoints: () => mounts,
      },
    });
    const mounted = port(["/", "/proc", "/code/proj/cache", "/code/proj/vendor/data"], {
      "/code/proj/link": "/code/proj/cache",
    });

    it.each([
      ["rm -rf cache", "the target is a mount point"],
      ["rm -rf ./cache/", "spelled with ./ and a slash"],
      ["rm -rf vendor", "the target holds a mount point"],
      ["rm -rf vendor/*", "a glob in a folder holding one"],
      ["rm -rf cache/*", "a glob in the mount point itself"],
      ["rm -r link/", "a link to a mount point"],
      ["rm -rf build cache", "one target of several"],
    ])("asks for %s (%s)", (line) => {
      expect(codes(line, mounted)).toContain("rm.mount-point");
    });

    it("leaves other recursive removals and every plain removal alone", () => {
      expect(codes("rm -rf build", mounted)).toEqual(["rm.recursive"]);
      expect(codes("rm -rf vendor/lib", mounted)).toEqual(["rm.recursive"]);
      expect(codes("rm cache", mounted)).toEqual(["rm.delete"]);
      expect(codes("rm -rf cache-old", mounted)).toEqual(["rm.recursive"]);
    });

    it("asks for every recursive removal when the host has no mount table, and not without a port", () => {
      for (const none of [
        port(undefined),
        { ...ctx, fs: { realpath: (p: string) => p, readdir: () => undefined } },
      ]) {
        expect(codes("rm -rf build", none)).toEqual(["rm.recursive", "rm.mount-unknown"]);
        expect(codes("rm -rf /tmp/x", none)).toEqual(["rm.outside-workspace", "rm.mount-unknown"]);
        expect(codes("rm notes.txt", none)).toEqual(["rm.delete"]);
      }
      const throwing = port([]);
      throwing.fs!.mountPoints = () => {
        throw new Error("no /proc");
      };
      expect(codes("rm -rf build", throwing)).toContain("rm.mount-unknown");
      expect(codes("rm -rf build", ctx)).toEqual(["rm.recursive"]);
    });

    it("keeps the hard denials as they are", () => {
      expect(codes("rm -rf /", mounted)).toEqual(["rm.recursive-root"]);
      expect(codes("rm -rf /proc", port(undefined))).toEqual(["rm.recursive-system"]);
    });
  });
});
