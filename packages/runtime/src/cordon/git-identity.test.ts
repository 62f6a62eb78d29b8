import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { requireTool, tempDir } from "@slashi/test-utils";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { gitIdentityFile, identityConfig, parseGitIdentity } from "./git-identity.js";

describe("parseGitIdentity", () => {
  it("reads name and email of the [user] section only, the last value winning", () => {
    const text = [
      "[core]",
      "\tname = not-this",
      "[user]",
      "\tname = First",
      '[url "https://token@example.com/"]',
      "\tinsteadOf = https://example.com/",
      "[USER]",
      '\tName = "Second \\"Q\\" Person" ; a comment',
      "\temail = a@example.com # comment",
      "\tsigningkey = ABC",
    ].join("\n");
    expect(parseGitIdentity(text)).toEqual({ name: 'Second "Q" Person', email: "a@example.com" });
  });

  it("keeps nothing but the identity, whatever else the config holds", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (name, secret) => {
        const text = `[user]\n\tname = "${name.replace(/[\\"\n\r]/g, "")}"\n[http]\n\textraHeader = ${secret}\n`;
        const kept = identityConfig(parseGitIdentity(text)) ?? "";
        expect(kept).not.toContain("extraHeader");
        expect(kept.split("\n")[0] === "[user]" || kept === "").toBe(true);
      }),
    );
  });

  it("round-trips a value through the file it writes", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((s) => s.trim() === s && !/[\r\n\0]/.test(s)),
        (name) => {
          const written = identityConfig({ name }) ?? "";
          expect(parseGitIdentity(written).name).toBe(name);
        },
      ),
    );
  });
});

describe("gitIdentityFile", () => {
  const temp = tempDir("slashi-identity-");
  afterAll(() => temp.remove());

  it("writes the identity of the configs in order to a private file, and nothing without one", async () => {
    {
      const dir = temp.dir;
      writeFileSync(`${dir}/xdg`, "[user]\n\tname = Xdg\n\temail = x@example.com\n");
      writeFileSync(`${dir}/home`, "[user]\n\tname = Home\n");
      writeFileSync(`${dir}/empty`, "[http]\n\textraHeader = secret\n");
      const file = await gitIdentityFile([`${dir}/xdg`, `${dir}/home`, `${dir}/missing`], `${dir}/out`);
      expect(file).toBeDefined();
      expect(parseGitIdentity(readFileSync(file as string, "utf8"))).toEqual({
        name: "Home",
        email: "x@example.com",
      });
      expect(statSync(file as string).mode & 0o777).toBe(0o600);
      expect(await gitIdentityFile([`${dir}/empty`], `${dir}/out`)).toBeUndefined();
    }
  });
});

describe("gitIdentityFile follows includes as git does", () => {
  const temp = tempDir("slashi-identity-include-");
  afterAll(() => temp.remove());
  const GIT = requireTool("git", "the identity real git reads") !== undefined;

  /**
   * What real git answers for a key with `config` as the global config, run in `repo`; `null` when git refuses
   * the config (an include cycle exceeds its depth).
   */
  function gitSays(config: string, repo: string, key: string): string | undefined | null {
    const r = spawnSync("git", ["config", "--get", key], {
      cwd: repo,
      encoding: "utf8",
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: temp.dir,
        GIT_CONFIG_GLOBAL: config,
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CEILING_DIRECTORIES: path.dirname(temp.dir),
      },
    });
    if (r.status !== 0 && r.status !== 1) return null;
    return r.status === 0 ? r.stdout.replace(/\n$/, "") : undefined;
  }

  /** A config file: its identity values and includes, in order. */
  const entry = fc.oneof(
    fc.record({ key: fc.constantFrom("name", "email"), value: fc.stringMatching(/^[A-Za-z][a-z0-9]{0,6}$/) }),
    fc.record({
      include: fc.integer({ min: 0, max: 3 }),
      how: fc.constantFrom("relative", "home", "absolute"),
      condition: fc.constantFrom(
        undefined,
        "gitdir:~/work/",
        "gitdir:~/other/",
        "gitdir/i:~/WORK/",
        "gitdir:work/",
        "gitdir:**/repo/.git",
        "onbranch:main",
      ),
    }),
  );
  const files = fc.array(fc.array(entry, { maxLength: 4 }), { minLength: 4, maxLength: 4 });

  it.skipIf(!GIT)("keeps the identity real git reads through include.path and includeIf gitdir", async () => {
    const repo = path.join(temp.dir, "work", "repo");
    mkdirSync(repo, { recursive: true });
    spawnSync("git", ["init", "-q", repo]);
    const secret = "ocanary-include-secret";
    let run = 0;
    await fc.assert(
      fc.asyncProperty(files, async (configs) => {
        const dir = path.join(temp.dir, `conf${run++}`);
        mkdirSync(path.join(dir, "sub"), { recursive: true });
        const fileOf = (k: number) => path.join(dir, k === 0 ? "main" : `sub/f${k}`);
        configs.forEach((entries, k) => {
          const lines = [`[http]\n\textraHeader = ${secret}`];
          for (const e of entries) {
            if ("key" in e) lines.push(`[user]\n\t${e.key} = ${e.value}`);
            else {
              const target = fileOf(e.include);
              const named =
                e.how === "absolute"
                  ? target
                  : e.how === "home"
                    ? `~/${path.relative(temp.dir, target)}`
                    : path.relative(path.dirname(fileOf(k)), target);
              lines.push(`${e.condition ? `[includeIf "${e.condition}"]` : "[include]"}\n\tpath = ${named}`);
            }
          }
          writeFileSync(fileOf(k), `${lines.join("\n")}\n`);
        });
        const written = await gitIdentityFile([fileOf(0)], path.join(dir, "out"), {
          home: temp.dir,
          gitDir: path.join(repo, ".git"),
        });
        const kept = written === undefined ? "" : readFileSync(written, "utf8");
        expect(kept).not.toContain(secret);
        const ours = parseGitIdentity(kept);
        const name = gitSays(fileOf(0), repo, "user.name");
        if (name === null) return;
        expect(ours.name).toBe(name);
        expect(ours.email).toBe(gitSays(fileOf(0), repo, "user.email"));
      }),
      { numRuns: 40 },
    );
  });

  it("follows only regular files, and stops at ten levels (where git refuses the config)", async () => {
    const dir = path.join(temp.dir, "bounded");
    mkdirSync(path.join(dir, "folder"), { recursive: true });
    // a cycle: each file includes the next, the last the first; the identity sits in the first
    writeFileSync(path.join(dir, "a"), "[user]\n\tname = A\n[include]\n\tpath = b\n");
    writeFileSync(
      path.join(dir, "b"),
      "[include]\n\tpath = a\n\tpath = folder\n[user]\n\temail = b@example.com\n",
    );
    const file = await gitIdentityFile([path.join(dir, "a")], path.join(dir, "out"));
    expect(parseGitIdentity(readFileSync(file as string, "utf8"))).toEqual({
      name: "A",
      email: "b@example.com",
    });
    // eleven files deep: the last one is past git's limit
    for (let k = 0; k < 12; k++)
      writeFileSync(
        path.join(dir, `d${k}`),
        k === 11 ? "[user]\n\tname = Deep\n" : `[include]\n\tpath = d${k + 1}\n`,
      );
    expect(await gitIdentityFile([path.join(dir, "d0")], path.join(dir, "out"))).toBeUndefined();
  });
});
