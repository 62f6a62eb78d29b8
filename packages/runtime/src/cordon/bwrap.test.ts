import { describe, expect, it } from "vitest";
import { bwrapArgs } from "./bwrap.js";
import type { ResolvedCordon } from "./policy.js";

const cordon: ResolvedCordon = {
  workspace: "/home/ada/app",
  cwd: "/home/ada/app/src",
  network: false,
  writable: ["/home/ada/.cache/app"],
  hidden: [
    { path: "/home/ada/.ssh", kind: "dir" },
    { path: "/home/ada/.netrc", kind: "file" },
  ],
  readOnly: ["/home/ada/app/.vscode", "/home/ada/app/.git/hooks"],
  pinned: ["/home/ada/app/.git"],
  unprotected: ["/home/ada/app/.claude"],
  privateDirs: ["/tmp", "/run"],
  keepVisible: [],
};

function indexOfPair(args: string[], flag: string, value: string): number {
  return args.findIndex((arg, i) => arg === flag && args[i + 1] === value);
}

describe("bwrapArgs", () => {
  it("mounts the root read-only, the workspace writable, hides secrets, then re-binds protected entries read-only", () => {
    const args = bwrapArgs(cordon, { file: "npm", args: ["test"] });
    const root = indexOfPair(args, "--ro-bind", "/");
    const workspace = indexOfPair(args, "--bind", "/home/ada/app");
    const ssh = indexOfPair(args, "--tmpfs", "/home/ada/.ssh");
    const vscode = indexOfPair(args, "--ro-bind", "/home/ada/app/.vscode");
    expect(root).toBeGreaterThanOrEqual(0);
    expect(root).toBeLessThan(workspace);
    expect(workspace).toBeLessThan(ssh);
    expect(ssh).toBeLessThan(vscode);
    expect(indexOfPair(args, "--remount-ro", "/home/ada/.ssh")).toBe(ssh + 2);
    expect(indexOfPair(args, "/dev/null", "/home/ada/.netrc")).toBeGreaterThan(0);
    expect(indexOfPair(args, "--bind", "/home/ada/.cache/app")).toBeGreaterThan(0);
    expect(indexOfPair(args, "--tmpfs", "/tmp")).toBeLessThan(workspace);
    expect(indexOfPair(args, "--tmpfs", "/run")).toBeLessThan(workspace);
    expect(indexOfPair(args, "--ro-bind-try", "/proc/sys")).toBeGreaterThan(
      indexOfPair(args, "--proc", "/proc"),
    );
    expect(indexOfPair(args, "--ro-bind-try", "/proc/sysrq-trigger")).toBeGreaterThan(0);
    expect(args).toEqual(
      expect.arrayContaining(["--unshare-net", "--unshare-pid", "--die-with-parent", "--new-session"]),
    );
    expect(args.slice(-7)).toEqual(["--seccomp", "3", "--chdir", "/home/ada/app/src", "--", "npm", "test"]);
    // .git is bound onto itself (a mount point cannot be renamed) before its hooks are bound read-only.
    const pinned = indexOfPair(args, "--bind", "/home/ada/app/.git");
    expect(pinned).toBeGreaterThan(workspace);
    expect(pinned).toBeLessThan(indexOfPair(args, "--ro-bind", "/home/ada/app/.git/hooks"));
    expect(args[pinned + 2]).toBe("/home/ada/app/.git");
  });

  it("re-binds the resolver config after the private /run when network is on", () => {
    const args = bwrapArgs(
      { ...cordon, network: true, keepVisible: ["/run/systemd/resolve/stub-resolv.conf"] },
      { file: "curl", args: [] },
    );
    expect(indexOfPair(args, "--ro-bind", "/run/systemd/resolve/stub-resolv.conf")).toBeGreaterThan(
      indexOfPair(args, "--tmpfs", "/run"),
    );
  });

  it("binds a read-only workspace read-only, and pins nothing writable in it", () => {
    const args = bwrapArgs({ ...cordon, workspaceReadOnly: true }, { file: "ls", args: [] });
    expect(indexOfPair(args, "--ro-bind", "/home/ada/app")).toBeGreaterThan(
      indexOfPair(args, "--ro-bind", "/"),
    );
    expect(indexOfPair(args, "--bind", "/home/ada/app")).toBe(-1);
    expect(indexOfPair(args, "--bind", "/home/ada/app/.git")).toBe(-1);
    expect(indexOfPair(args, "--bind", "/home/ada/.cache/app")).toBeGreaterThan(0);
  });

  it("keeps the network only when the policy allows it", () => {
    expect(bwrapArgs({ ...cordon, network: true }, { file: "curl", args: [] })).not.toContain(
      "--unshare-net",
    );
  });

  it("puts the command after --, so its arguments are never read as bwrap options", () => {
    const args = bwrapArgs(cordon, { file: "--bind", args: ["/", "/"] });
    expect(args.slice(args.indexOf("--"))).toEqual(["--", "--bind", "/", "/"]);
  });
});
