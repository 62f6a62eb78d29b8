import { describe, expect, it } from "vitest";
import { defaultManagedPolicyPath, userConfigDir, userStateDir } from "./paths.js";

describe("userConfigDir", () => {
  it("uses XDG_CONFIG_HOME on Linux", () => {
    expect(userConfigDir({ platform: "linux", home: "/home/ada", env: { XDG_CONFIG_HOME: "/xdg" } })).toBe(
      "/xdg/slashi",
    );
  });

  it("falls back to ~/.config without XDG_CONFIG_HOME, also on macOS", () => {
    expect(userConfigDir({ platform: "linux", home: "/home/ada", env: {} })).toBe("/home/ada/.config/slashi");
    expect(userConfigDir({ platform: "darwin", home: "/Users/ada", env: {} })).toBe(
      "/Users/ada/.config/slashi",
    );
  });

  it("ignores a relative XDG_CONFIG_HOME", () => {
    expect(userConfigDir({ platform: "linux", home: "/home/ada", env: { XDG_CONFIG_HOME: "rel" } })).toBe(
      "/home/ada/.config/slashi",
    );
  });

  it("uses %APPDATA% on Windows", () => {
    expect(
      userConfigDir({
        platform: "win32",
        home: "C:\\Users\\ada",
        env: { APPDATA: "C:\\Users\\ada\\AppData\\Roaming" },
      }),
    ).toBe("C:\\Users\\ada\\AppData\\Roaming\\slashi");
  });

  it("lets SLASHI_CONFIG_DIR override every default", () => {
    expect(
      userConfigDir({
        platform: "linux",
        home: "/h",
        env: { SLASHI_CONFIG_DIR: "/opt/cfg/", XDG_CONFIG_HOME: "/x" },
      }),
    ).toBe("/opt/cfg/");
    expect(userConfigDir({ platform: "linux", home: "/h", env: { SLASHI_CONFIG_DIR: "relative" } })).toBe(
      "/h/.config/slashi",
    );
  });
});

describe("userStateDir", () => {
  it("uses XDG_STATE_HOME, then ~/.local/state", () => {
    expect(userStateDir({ platform: "linux", home: "/home/ada", env: { XDG_STATE_HOME: "/st" } })).toBe(
      "/st/slashi",
    );
    expect(userStateDir({ platform: "linux", home: "/home/ada", env: {} })).toBe(
      "/home/ada/.local/state/slashi",
    );
  });

  it("uses %LOCALAPPDATA% on Windows and SLASHI_STATE_DIR everywhere", () => {
    expect(
      userStateDir({ platform: "win32", home: "C:\\Users\\ada", env: { LOCALAPPDATA: "D:\\Local" } }),
    ).toBe("D:\\Local\\slashi");
    expect(
      userStateDir({ platform: "darwin", home: "/Users/ada", env: { SLASHI_STATE_DIR: "/state" } }),
    ).toBe("/state");
  });
});

describe("defaultManagedPolicyPath", () => {
  it("names the system path of each OS", () => {
    expect(defaultManagedPolicyPath({ platform: "linux" })).toBe("/etc/slashi/policy.json");
    expect(defaultManagedPolicyPath({ platform: "darwin" })).toBe(
      "/Library/Application Support/Slashi/policy.json",
    );
    expect(defaultManagedPolicyPath({ platform: "win32", env: { ProgramData: "E:\\PD" } })).toBe(
      "E:\\PD\\Slashi\\policy.json",
    );
    expect(defaultManagedPolicyPath({ platform: "win32", env: {} })).toBe(
      "C:\\ProgramData\\Slashi\\policy.json",
    );
  });

  it("is not moved by SLASHI_CONFIG_DIR or any other variable on POSIX", () => {
    expect(defaultManagedPolicyPath({ platform: "linux", env: { SLASHI_CONFIG_DIR: "/tmp/evil" } })).toBe(
      "/etc/slashi/policy.json",
    );
  });
});
