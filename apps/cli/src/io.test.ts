import { describe, expect, it } from "vitest";
import { colorAllowed, paint } from "./io.js";

describe("colorAllowed", () => {
  it("colours a terminal by default", () => {
    expect(colorAllowed({}, false, true)).toBe(true);
  });

  it("honours NO_COLOR, --no-color, TERM=dumb and a non-terminal stdout", () => {
    expect(colorAllowed({ NO_COLOR: "1" }, false, true)).toBe(false);
    expect(colorAllowed({}, true, true)).toBe(false);
    expect(colorAllowed({ TERM: "dumb" }, false, true)).toBe(false);
    expect(colorAllowed({}, false, false)).toBe(false);
  });

  it("treats an empty NO_COLOR as unset", () => {
    expect(colorAllowed({ NO_COLOR: "" }, false, true)).toBe(true);
  });
});

describe("paint", () => {
  it("adds escape codes only when colour is on", () => {
    expect(paint({ color: false }, "red", "deny")).toBe("deny");
    expect(paint({ color: true }, "red", "deny")).toBe("\u001b[31mdeny\u001b[0m");
  });
});
