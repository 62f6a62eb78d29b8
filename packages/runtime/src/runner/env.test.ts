import { describe, expect, it } from "vitest";
import { isSecretEnvName, scrubEnv } from "./env.js";

describe("isSecretEnvName", () => {
  it.each([
    "GITHUB_TOKEN",
    "NPM_TOKEN",
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AZURE_CLIENT_SECRET",
    "MY_SERVICE_TOKEN",
    "STRIPE_SECRET_KEY",
    "DB_PASSWORD",
    "SIGNING_KEY",
    "VAULT_TOKEN",
    "CI_JOB_TOKEN",
    "TWINE_PASSWORD",
    "NPM_CONFIG__AUTH",
    "github_token",
    "SOME_CREDENTIALS",
    "DATABASE_URL",
    "AZURE_STORAGE_CONNECTION_STRING",
  ])("treats %s as a secret", (name) => {
    expect(isSecretEnvName(name)).toBe(true);
  });

  it.each([
    "PATH",
    "HOME",
    "LANG",
    "TERM",
    "SSH_AUTH_SOCK",
    "AWS_REGION",
    "AWS_PROFILE",
    "KEYBOARD",
    "NODE_ENV",
    "TOKENIZERS_PARALLELISM",
    "PWD",
    "OLDPWD",
    "XAUTHORITY",
  ])("keeps %s", (name) => {
    expect(isSecretEnvName(name)).toBe(false);
  });
});

describe("scrubEnv", () => {
  it("removes secrets and reports their names, never values", () => {
    const result = scrubEnv({ PATH: "/bin", GITHUB_TOKEN: "ghp_x", HOME: "/h", EMPTY: undefined });
    expect(result).toEqual({ env: { PATH: "/bin", HOME: "/h" }, removed: ["GITHUB_TOKEN"] });
  });

  it("also removes loader, shell start-up and agent-socket variables for the cordon", () => {
    const env = {
      PATH: "/bin",
      LD_PRELOAD: "/x.so",
      DYLD_INSERT_LIBRARIES: "/y",
      SSH_AUTH_SOCK: "/s",
      BASH_ENV: "/e",
    };
    expect(scrubEnv(env).env).toEqual(env);
    expect(scrubEnv(env, { cordon: true })).toEqual({
      env: { PATH: "/bin" },
      removed: ["BASH_ENV", "DYLD_INSERT_LIBRARIES", "LD_PRELOAD", "SSH_AUTH_SOCK"],
    });
  });
});
