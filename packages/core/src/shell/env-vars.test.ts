import { describe, expect, it } from "vitest";
import { isDangerousVariable } from "./env-vars.js";

describe("isDangerousVariable", () => {
  it.each([
    "PATH",
    "PAGER",
    "GIT_PAGER",
    "GIT_SSH_COMMAND",
    "GIT_EXTERNAL_DIFF",
    "GIT_CONFIG_COUNT",
    "LD_PRELOAD",
    "LD_LIBRARY_PATH",
    "DYLD_INSERT_LIBRARIES",
    "BASH_ENV",
    "ENV",
    "PROMPT_COMMAND",
    "IFS",
    "PS4",
    "SHELLOPTS",
    "BASHOPTS",
    "EDITOR",
    "VISUAL",
    "BROWSER",
    "LESSOPEN",
    "MANPAGER",
    "SSH_ASKPASS",
    "NODE_OPTIONS",
    "PYTHONSTARTUP",
    "PYTHONPATH",
    "PERL5OPT",
    "RUBYOPT",
    "npm_config_script_shell",
    "BASH_FUNC_ls%%",
  ])("flags %s", (name) => {
    expect(isDangerousVariable(name)).toBe(true);
  });

  it.each(["CI", "FOO", "NODE_ENV", "LANG", "path", "GITHUB_TOKEN"])("does not flag %s", (name) => {
    expect(isDangerousVariable(name)).toBe(false);
  });
});
