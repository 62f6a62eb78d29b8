import { readFileSync, statSync, writeFileSync } from "node:fs";
import { tempDir } from "@slashi/test-utils";
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
