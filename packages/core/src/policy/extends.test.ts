import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { closestName, isExtendsPath, unknownExtendsError } from "./extends.js";

describe("closestName", () => {
  it("finds the name a typo was meant to be", () => {
    expect(closestName("recommnded", ["recommended", "strict"])).toBe("recommended");
    expect(closestName("Recommended", ["recommended"])).toBe("recommended");
    expect(closestName("@acme/polcy", ["@acme/policy", "@other/x"])).toBe("@acme/policy");
    expect(closestName("recomemnded", ["recommended"])).toBe("recommended");
  });

  it("suggests nothing for a name unlike every candidate, or for an exact name", () => {
    expect(closestName("@acme/deploy", ["recommended"])).toBeUndefined();
    expect(closestName("recommended", ["recommended"])).toBeUndefined();
    expect(closestName("x", [])).toBeUndefined();
  });

  it("finds every name with one letter dropped, added, changed or two swapped", () => {
    const names = ["recommended", "@acme/slashi-policy", "@team/build-tools"];
    const typo = fc
      .tuple(fc.constantFrom(...names), fc.nat(), fc.constantFrom("drop", "add", "change", "swap"))
      .map(([name, at, kind]) => {
        const i = at % (name.length - 1);
        const chars = [...name];
        if (kind === "drop") chars.splice(i, 1);
        else if (kind === "add") chars.splice(i, 0, "q");
        else if (kind === "change") chars[i] = chars[i] === "z" ? "y" : "z";
        else [chars[i], chars[i + 1]] = [chars[i + 1] as string, chars[i] as string];
        return { name, typo: chars.join("") };
      })
      .filter(({ name, typo }) => name !== typo);
    fc.assert(fc.property(typo, ({ name, typo: written }) => closestName(written, names) === name));
  });
});

describe("unknownExtendsError", () => {
  it("carries the entry, the suggestion and the location", () => {
    const error = unknownExtendsError("recommnded", [], { file: "p.json", line: 3, jsonPath: "/extends/0" });
    expect(error).toMatchObject({
      code: "PACK_NOT_FOUND",
      data: {
        file: "p.json",
        line: 3,
        jsonPath: "/extends/0",
        extends: "recommnded",
        suggestion: "recommended",
      },
    });
    expect(error.located).toMatch(/^p\.json:3/);
  });

  it("suggests an installed pack", () => {
    expect(unknownExtendsError("@acme/polcy", ["@acme/policy"]).data.suggestion).toBe("@acme/policy");
  });

  it("gives the install command only for a name with no near match", () => {
    expect(unknownExtendsError("@acme/deploy", []).message).toMatch(/slashi pack install @acme\/deploy/);
    expect(unknownExtendsError("recommnded", []).message).not.toMatch(/pack install/);
  });

  it("tells paths from names", () => {
    expect(
      [
        "./team.json",
        "../a.yml",
        "/etc/p.json",
        "~/p.json",
        ".enkaidu/config.yml",
        "config/enkaidu.yml",
        "C:\\Users\\a\\e.yml",
        ".\\e.yml",
      ].every(isExtendsPath),
    ).toBe(true);
    expect(
      ["recommended", "@acme/pack", "pack.json", "enkaidu.yml", "@acme/policy.yml"].some(isExtendsPath),
    ).toBe(false);
  });
});
