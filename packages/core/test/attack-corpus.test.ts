// The attack corpus: lines written as an attacker for each class of "allow you can trust" (code bash evaluates,
// secrets reached indirectly, the directory a command runs in, tools that run the directory's code, dialects,
// hard denies and the preset's own rules), kept so what was proved stays proved. Each entry records the shells
// whose decision must not be `allow`; an entry allowed somewhere is harmless there, and for the classes where
// that is a matter of shell semantics (code bash or zsh evaluates) the line is run under the real shell in a
// folder full of hostile names, with a payload program on PATH, and must not start it.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { scratchDir } from "@slashi/test-utils";
import { decide, loadShellParser } from "../src/index.js";
import { recommendedPolicy, trustedContext } from "./decide-setup.js";

type Shell = "bash" | "sh" | "zsh";
interface Entry {
  line: string;
  /** The shells whose decision must not be `allow`. */
  notAllow?: Shell[];
  /** Allowed in every shell tried: harmless there. */
  allowed?: true;
}

const corpus = JSON.parse(readFileSync(new URL("./attack-corpus.json", import.meta.url), "utf8")) as Record<
  string,
  Entry[]
>;
const HOST_SHELL: Record<Shell, string> = { bash: "bash", sh: "/bin/sh", zsh: "/usr/bin/zsh" };
const context = trustedContext({ platform: "posix" });
const policy = recommendedPolicy();

const dir = scratchDir("slashi-attack-");
const work = join(dir, "work");
const bin = join(dir, "bin");
const marker = join(dir, "payload-ran");

beforeAll(async () => {
  await loadShellParser();
  mkdirSync(work);
  mkdirSync(bin);
  writeFileSync(join(bin, "pwned"), `#!/bin/sh\n: > '${marker}'\n`);
  chmodSync(join(bin, "pwned"), 0o755);
  // names and contents a repository chooses: each one runs the payload if a shell evaluates it
  writeFileSync(join(work, "a[$(pwned)]"), "");
  writeFileSync(join(work, "README.md"), "a[$(pwned)]\n$(pwned)\n");
});

const SHELL_PROGRAM: Record<Shell, string | undefined> = {
  bash: ["/bin/bash", "/usr/bin/bash"].find((p) => existsSync(p)),
  sh: existsSync("/bin/sh") ? "/bin/sh" : undefined,
  zsh: ["/usr/bin/zsh", "/bin/zsh"].find((p) => existsSync(p)),
};

/** Runs the line under the shell in the hostile folder; true when the payload ran. */
function payloadRuns(shell: Shell, line: string): boolean {
  rmSync(marker, { force: true });
  spawnSync(SHELL_PROGRAM[shell] as string, ["-c", line], {
    cwd: work,
    env: { PATH: `${bin}:/usr/bin:/bin`, HOME: dir, LC_ALL: "C" },
    input: "a[$(pwned)]\n",
    timeout: 5000,
    stdio: ["pipe", "ignore", "ignore"],
  });
  return existsSync(marker);
}

describe("the attack corpus", () => {
  it("has every class", () => {
    const total = Object.values(corpus).reduce((n, entries) => n + entries.length, 0);
    expect(Object.keys(corpus).length).toBeGreaterThanOrEqual(5);
    expect(total).toBeGreaterThan(600);
  });

  it.each(Object.keys(corpus))("%s: no attack line is allowed in a shell it was proved in", (section) => {
    for (const entry of corpus[section]!) {
      for (const shell of entry.notAllow ?? []) {
        const decision = decide(entry.line, policy, { ...context, shell: HOST_SHELL[shell] });
        expect(decision.decision, `${shell}: ${entry.line}`).not.toBe("allow");
      }
    }
  });

  // one shell process per allowed line: the timeout is a hang guard with room for a loaded machine
  it("runs no payload for a line it allows, under the real shell", { timeout: 300_000 }, () => {
    let ran = 0;
    for (const section of ["1-evaluated", "5-dialects"]) {
      for (const entry of corpus[section]!) {
        for (const shell of ["bash", "sh", "zsh"] as const) {
          if (entry.notAllow?.includes(shell) || SHELL_PROGRAM[shell] === undefined) continue;
          if (section === "5-dialects" && shell === "bash") continue;
          if (decide(entry.line, policy, { ...context, shell: HOST_SHELL[shell] }).decision !== "allow")
            continue;
          ran++;
          expect(payloadRuns(shell, entry.line), `${shell}: ${entry.line}`).toBe(false);
        }
      }
    }
    expect(ran).toBeGreaterThan(20);
  });

  it("the hostile folder does run the payload for the lines that are not allowed (the harness works)", () => {
    for (const line of [
      "for x in a*; do echo $((x)); done",
      ": 'a[$(pwned)]'; echo $((_))",
      "x=b; b=c; c='a[$(pwned)]'; echo $((x))",
      "read x < README.md; echo $((x))",
    ]) {
      expect(payloadRuns("bash", line), line).toBe(true);
      expect(decide(line, policy, { ...context, shell: "bash" }).decision, line).not.toBe("allow");
    }
  });
});
