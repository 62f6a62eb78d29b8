import { describe, expect, it } from "vitest";
import pkg from "../package.json" with { type: "json" };

describe("cli package", () => {
  it("declares the slashi bin", () => {
    expect(pkg.bin.slashi).toBe("./dist/bin.js");
  });
});
