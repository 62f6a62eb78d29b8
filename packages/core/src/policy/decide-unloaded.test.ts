// Runs in its own module graph, where the shell parser was never loaded.
import { describe, expect, it } from "vitest";
import { decide } from "./decide.js";
import { resolvePolicy } from "./resolve.js";

describe("decide before the shell parser is loaded", () => {
  it("throws PARSER_UNAVAILABLE instead of answering", () => {
    expect(() => decide("ls", resolvePolicy([]))).toThrow(
      expect.objectContaining({ code: "PARSER_UNAVAILABLE" }),
    );
  });

  it("still answers for an unknown shell, which needs no parser", () => {
    expect(decide("ls", resolvePolicy([]), { shell: "xonsh" }).decision).toBe("ask");
  });
});
