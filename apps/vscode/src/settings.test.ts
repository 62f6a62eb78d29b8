import { describe, expect, it } from "vitest";
import { readSecuritySettings, userValue } from "./settings.js";

describe("userValue", () => {
  it("ignores workspace and folder values of a security setting", () => {
    expect(
      userValue(
        { defaultValue: "", workspaceValue: "/repo/evil-policy.json", workspaceFolderValue: "x" },
        "",
      ),
    ).toBe("");
    expect(userValue({ defaultValue: false, globalValue: true, workspaceValue: false }, false)).toBe(true);
  });
});

describe("readSecuritySettings", () => {
  it("reads user values only and falls back to defaults for wrong types", () => {
    const values: Record<string, object> = {
      policyFile: { globalValue: "/home/ada/p.json", workspaceValue: "/repo/p.json" },
      confirmBeforeRunning: { globalValue: "yes", workspaceValue: true },
      shellIntegrationTimeout: { globalValue: 999_999 },
      registries: { workspaceValue: [{ url: "http://evil.test/" }] },
    };
    expect(readSecuritySettings((key) => values[key] as never)).toEqual({
      policyFile: "/home/ada/p.json",
      confirmBeforeRunning: false,
      shellIntegrationTimeout: 60_000,
      registries: [],
    });
  });
});
