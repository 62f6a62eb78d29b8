import { describe, expect, it } from "vitest";
import pkg from "../package.json" with { type: "json" };

describe("runtime package", () => {
  it("depends on the core", () => {
    expect(pkg.dependencies["@slashi/core"]).toBe("workspace:^");
  });
});
