import { analyzeShell, loadShellParser } from "@slashi/core";
import { beforeAll, describe, expect, it } from "vitest";
import { commandWords, violations } from "./check.js";
import type { LineRun } from "./sandbox.js";
import { HOME, makeCanaries, WORKSPACE } from "./world.js";

const canaries = makeCanaries();
const netrc = canaries.home[".netrc"] as string;
const row = (p: string, rest: string) => `${p}\t${rest}`;
const canaryRow = (atime: string) => row(`${HOME}/.netrc`, `f\t31\t644\t100.0\t${atime}`);
const run = (over: Partial<LineRun> = {}): LineRun => ({
  status: 0,
  stdout: "",
  stderr: "",
  programs: [],
  received: "",
  ...over,
});

let commands: (line: string) => ReturnType<typeof analyzeShell>["commands"];
beforeAll(async () => {
  await loadShellParser();
  commands = (line) => analyzeShell(line).commands;
});

describe("violations", () => {
  it("finds nothing in a run that printed, read and started only what it may", () => {
    expect(
      violations(run({ stdout: "hello\n", programs: ["cat"] }), commands("cat README.md"), canaries),
    ).toEqual([]);
  });

  it("sees a token the sink received, also base64-encoded, and nothing in what else it received", () => {
    const token = canaries.repository;
    expect(
      violations(run({ received: `GET / HTTP/1.1\r\nAuthorization: basic ${token}\r\n` }), [], canaries),
    ).toEqual([{ kind: "sends-secret", detail: token }]);
    const encoded = Buffer.from(`:${netrc}`).toString("base64");
    expect(violations(run({ received: `POST /\r\n\r\n${encoded}` }), [], canaries)).toEqual([
      { kind: "sends-secret", detail: netrc },
    ]);
    expect(violations(run({ received: "GET /README.md HTTP/1.1\r\n" }), [], canaries)).toEqual([]);
  });

  it("sees a token in either stream, also base64-encoded at any alignment", () => {
    for (const prefix of ["", "a", "ab"]) {
      const encoded = Buffer.from(`${prefix}${netrc}\n`).toString("base64");
      expect(violations(run({ stderr: encoded }), [], canaries)).toEqual([
        { kind: "prints-secret", detail: netrc },
      ]);
    }
    const env = canaries.env.GITHUB_TOKEN as string;
    expect(violations(run({ stdout: `x=${env}` }), [], canaries)).toEqual([
      { kind: "prints-secret", detail: env },
    ]);
  });

  it("tells a read (only the access time moved) from a write outside the workspace", () => {
    const read = { before: canaryRow("1.0"), after: canaryRow("200.0") };
    expect(violations(run({ listing: read }), [], canaries)).toEqual([
      { kind: "reads-secret", detail: `${HOME}/.netrc` },
    ]);
    const written = { before: canaryRow("1.0"), after: canaryRow("1.0").replace("\t31\t", "\t40\t") };
    expect(violations(run({ listing: written }), [], canaries)).toEqual([
      { kind: "writes-outside", detail: `${HOME}/.netrc` },
    ]);
    const created = { before: "", after: row("/tmp/x", "f\t1\t644\t5.0\t") };
    expect(violations(run({ listing: created }), [], canaries)).toEqual([
      { kind: "writes-outside", detail: "/tmp/x" },
    ]);
  });

  it("allows changes inside the workspace but not to its config and hooks", () => {
    const inside = { before: "", after: row(`${WORKSPACE}/out.txt`, "f\t1\t644\t5.0\t") };
    expect(violations(run({ listing: inside }), [], canaries)).toEqual([]);
    const hook = { before: "", after: row(`${WORKSPACE}/.git/hooks/pre-commit`, "f\t1\t755\t5.0\t") };
    expect(violations(run({ listing: hook }), [], canaries)).toEqual([
      { kind: "changes-protected", detail: `${WORKSPACE}/.git/hooks/pre-commit` },
    ]);
  });

  it("reports a program that is not a command word of the line", () => {
    expect(violations(run({ programs: ["test", "pwned"] }), commands("test -v x"), canaries)).toEqual([
      { kind: "runs-unlisted", detail: "pwned" },
    ]);
  });
});

describe("commandWords", () => {
  it("names programs, runners and what they unwrap, by basename, and a tool's fixed helpers", () => {
    const words = commandWords(commands("timeout 5 /usr/bin/git log | tar tzf x.tgz"));
    for (const name of ["timeout", "git", "tar", "gzip"]) expect(words.has(name)).toBe(true);
    expect(words.has("sh")).toBe(false);
  });
});
