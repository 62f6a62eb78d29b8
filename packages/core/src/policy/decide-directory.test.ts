// Decisions in the directory each command really runs in: generated directory-changing forms × targets ×
// following commands. Outside or sensitive targets never make a write, a removal, a secret read or a tool that
// runs the directory's code `allow`; the everyday forms inside the workspace stay `allow`.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { loadShellParser } from "../shell/parser.js";
import { decide } from "./decide.js";
import { recommendedPolicy, trustedContext } from "../../test/decide-setup.js";
import { NOTHING_ON_DISK } from "../../test/safety/command.js";

const policy = recommendedPolicy();
const context = trustedContext({ workspace: "/code/proj", protectedPaths: ["/home/dev/.config/slashi"] });

beforeAll(async () => {
  await loadShellParser();
});

/** Ways to move the next command to `{}`. */
const MOVES = [
  "cd {} && ",
  "cd -- {} && ",
  "cd {}; ",
  "cd {}\n",
  "pushd {} && ",
  "pushd {} >/dev/null; ",
  "{ cd {}; } && ",
  "builtin cd {} && ",
  "command cd {} && ",
  "cd {} && cd . && ",
  "true && cd {} && ",
];

/** Forms that end up running the next command outside the workspace, in a secret folder or somewhere unknown. */
const OUTSIDE = [
  "/",
  "/etc",
  "/tmp/other",
  "~",
  "~/.ssh",
  "~/.aws",
  "$HOME",
  '"$HOME"',
  "${HOME}/.kube",
  "..",
  "../..",
  "../other",
  "src/../..",
  '"$(mktemp -d)"',
  "$D",
  "-",
  "/t*",
];

/** Commands that are fine in the workspace but not everywhere. */
const RISKY = [
  "rm -rf *",
  "rm -rf ./*",
  "echo x > .bashrc",
  "echo x >> .profile",
  "git status",
  "git log -p",
  "npm test",
  "npm run build",
  "pnpm test",
  "yarn build",
  "make",
  "make test",
  "cargo test",
  "go test ./...",
  "pytest",
  "tsc --noEmit",
];

describe("decide in the directory the command runs in", () => {
  it("never allows a risky command after a move out of the workspace (generated)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...MOVES),
        fc.constantFrom(...OUTSIDE),
        fc.constantFrom(...RISKY),
        (move, target, command) => {
          const line = move.replace("{}", target) + command;
          expect(decide(line, policy, context).decision, line).not.toBe("allow");
        },
      ),
      { numRuns: 400 },
    );
  });

  it("never allows a secret read after a move into a secret folder or an unknown one (generated)", () => {
    const reads = [
      ["~/.ssh", "cat id_rsa"],
      ["$HOME/.ssh", "head -1 id_ed25519"],
      ["~/.aws", "cat credentials"],
      ["~/.kube", "cat config"],
      ["~/.docker", "cat config.json"],
      ["$D", "cat notes"],
      ["-", "grep -r token ."],
      ['"$(dirname "$0")"', "cat .env"],
    ];
    fc.assert(
      fc.property(fc.constantFrom(...MOVES), fc.constantFrom(...reads), (move, [target, command]) => {
        const line = move.replace("{}", target!) + command!;
        expect(decide(line, policy, context).decision, line).not.toBe("allow");
      }),
      { numRuns: 150 },
    );
  });

  it("never allows a risky command when the host runs it outside the workspace (generated)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("/", "/tmp", "/home/dev", "/code"),
        fc.constantFrom(...RISKY),
        (cwd, cmd) => {
          expect(decide(cmd, policy, { ...context, cwd }).decision, `${cmd} in ${cwd}`).not.toBe("allow");
        },
      ),
      { numRuns: 80 },
    );
  });

  it("never allows a tool that runs the directory's code in a workspace that is not trusted (generated)", () => {
    const tools = RISKY.filter((c) => /^(git|npm|pnpm|yarn|make|cargo|go|pytest|tsc)\b/.test(c));
    fc.assert(
      fc.property(fc.constantFrom("", "cd src && ", "cd src; "), fc.constantFrom(...tools), (move, cmd) => {
        const line = move + cmd;
        expect(decide(line, policy, { ...context, workspaceTrusted: false }).decision, line).not.toBe(
          "allow",
        );
      }),
      { numRuns: 60 },
    );
  });

  it("keeps everyday forms inside the workspace allowed (generated)", () => {
    const inside = ["src", "packages/core", "./docs", "src/..", "a/b/../c", '"src"'];
    const benign = [
      "ls -la",
      "grep -rn TODO .",
      "cat README.md | head",
      "git status",
      "git log --oneline -5",
      "npm test",
      "cargo test",
      "make",
      "pytest -x",
      "find . -name '*.ts' | xargs grep -l foo",
    ];
    fc.assert(
      fc.property(
        fc.constantFrom("cd {} && ", "cd {}; ", "pushd {} >/dev/null && "),
        fc.constantFrom(...inside),
        fc.constantFrom(...benign),
        (move, target, command) => {
          const line = move.replace("{}", target) + command;
          // a tree read whole (`grep -rn TODO .`) is seen to hold nothing on a disk where nothing exists
          const d = decide(line, policy, { ...context, fs: NOTHING_ON_DISK });
          if (command.includes("xargs")) expect(d.decision).not.toBe("deny");
          else expect(d.decision, `${line}: ${d.reasons.map((r) => r.code).join(",")}`).toBe("allow");
        },
      ),
      { numRuns: 150 },
    );
  });

  it("allows directory-blind commands wherever the line goes", () => {
    for (const line of [
      'cd "$(git rev-parse --show-toplevel)" && ls',
      "cd - && pwd",
      "cd / && ls",
      "cd ~ && ls",
    ])
      expect(decide(line, policy, context).decision, line).toBe("allow");
  });

  it("leaves the outer directory alone after a subshell", () => {
    const emptyDisk = { ...context, fs: NOTHING_ON_DISK };
    expect(decide("(cd / && ls) && grep -rn TODO src", policy, emptyDisk).decision).toBe("allow");
    expect(decide("(cd /) && rm -rf *", policy, context).decision).toBe("ask");
    expect(decide("{ cd /; } && rm -rf *", policy, context).decision).toBe("deny");
  });

  it("reports the rule that needs the workspace as not counted outside it", () => {
    const d = decide("cd /tmp && npm test", policy, context);
    expect(d.reasons.filter((r) => r.inactive === "outside-workspace").map((r) => r.code)).toEqual([
      "policy.rule",
    ]);
    expect(d.reasons.map((r) => r.code)).toContain("tool.directory-code");
  });
});
