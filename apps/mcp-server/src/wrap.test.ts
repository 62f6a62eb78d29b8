import { describe, expect, it } from "vitest";
import { UsageError } from "./options.js";
import { parseWrapArgs } from "./wrap.js";

describe("parseWrapArgs", () => {
  it("takes the server command after --, unchanged, options before it", () => {
    expect(parseWrapArgs(["--", "npx", "server", "--read-only", "/w"])).toEqual({
      command: ["npx", "server", "--read-only", "/w"],
      readOnly: false,
    });
    expect(parseWrapArgs(["--read-only", "--workspace", "/w", "--", "node", "s.js"])).toEqual({
      command: ["node", "s.js"],
      readOnly: true,
      workspace: "/w",
    });
    expect(parseWrapArgs(["--workspace=/w", "--", "s"]).workspace).toBe("/w");
  });

  it.each([[[]], [["node"]], [["--"]], [["--network", "--", "s"]]])("refuses %j", (argv) => {
    expect(() => parseWrapArgs(argv)).toThrow(UsageError);
  });
});
