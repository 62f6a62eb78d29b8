import { catchError } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";
import { SlashiErrorCode, isSlashiError } from "../errors.js";
import type { SlashiError } from "../errors.js";
import { PACK_KEYWORD, PACK_MANIFEST_FILE, packManifestSchema, parsePackManifest } from "./pack-manifest.js";

const failure = (fn: () => unknown): SlashiError => catchError(fn, isSlashiError);

const FILE = "@acme/pack/slashi-pack.json";

const MANIFEST = `{
  // The acme pack.
  "$schema": "https://slashi.dev/schemas/pack-manifest.json",
  "version": 1,
  "commands": [
    { "name": "lint", "description": "Lint the repo", "steps": [{ "type": "terminal", "command": "pnpm lint" }] },
    { "name": "hello", "steps": [{ "type": "notify", "message": "hi" }] },
  ],
  "policy": {
    "version": 1,
    "extends": ["recommended"],
    "rules": [{ "match": ["terraform", "apply"], "decision": "deny", "reason": "CI only" }],
  },
}`;

describe("parsePackManifest", () => {
  it("reads commands and the offered policy", () => {
    const manifest = parsePackManifest(MANIFEST, FILE);
    expect(manifest.version).toBe(1);
    expect(manifest.commands.map((c) => c.name)).toEqual(["lint", "hello"]);
    expect(manifest.policy?.rules?.[0]?.decision).toBe("deny");
    expect(manifest.document.file).toBe(FILE);
  });

  it("accepts a manifest without a policy", () => {
    const manifest = parsePackManifest(`{"version":1,"commands":[]}`, FILE);
    expect(manifest.commands).toEqual([]);
    expect("policy" in manifest).toBe(false);
  });

  it("reports a syntax error with its line and column", () => {
    const error = failure(() => parsePackManifest(`{\n  "version": 1\n  "commands": []\n}`, FILE));
    expect(error.code).toBe(SlashiErrorCode.INVALID_JSON);
    expect(error.data).toMatchObject({ file: FILE, line: 3, column: 3 });
  });

  it("rejects an unknown step field at its JSON path", () => {
    const text = `{"version":1,"commands":[\n {"name":"x","steps":[{"type":"terminal","command":"ls","shell":"sh"}]}]}`;
    const error = failure(() => parsePackManifest(text, FILE));
    expect(error.code).toBe(SlashiErrorCode.SCHEMA_INVALID);
    expect(error.data).toMatchObject({ file: FILE, line: 2, jsonPath: "/commands/0/steps/0/shell" });
  });

  it("rejects a missing manifest version", () => {
    const error = failure(() => parsePackManifest(`{"commands":[]}`, FILE));
    expect(error.code).toBe(SlashiErrorCode.SCHEMA_INVALID);
    expect(error.message).toContain('missing required property "version"');
  });

  it("rejects approval fields inside a command", () => {
    const text = `{"version":1,"commands":[{"name":"x","alwaysAllow":true,"steps":[{"type":"wait","ms":1}]}]}`;
    const error = failure(() => parsePackManifest(text, FILE));
    expect(error.code).toBe(SlashiErrorCode.FORBIDDEN_FIELD);
    expect(error.data.jsonPath).toBe("/commands/0/alwaysAllow");
  });

  it("rejects duplicate command names ignoring case", () => {
    const text = `{"version":1,"commands":[
      {"name":"Build","steps":[{"type":"wait","ms":1}]},
      {"name":"build","steps":[{"type":"wait","ms":1}]}]}`;
    const error = failure(() => parsePackManifest(text, FILE));
    expect(error.code).toBe(SlashiErrorCode.SCHEMA_INVALID);
    expect(error.data.jsonPath).toBe("/commands/1/name");
  });

  it("rejects a policy with a schema error at its path inside the manifest", () => {
    const text = `{"version":1,"commands":[],\n"policy":{"version":1,"rules":[{"match":["git"],"decision":"maybe"}]}}`;
    const error = failure(() => parsePackManifest(text, FILE));
    expect(error.code).toBe(SlashiErrorCode.SCHEMA_INVALID);
    expect(error.data).toMatchObject({ line: 2, jsonPath: "/policy/rules/0/decision" });
  });

  it("rejects contradictory policy rules and locates them inside the manifest", () => {
    const text = `{"version":1,"commands":[],"policy":{"version":1,"rules":[
      {"match":["git","push"],"decision":"deny"},
      {"match":["git","push"],"decision":"allow"}]}}`;
    const error = failure(() => parsePackManifest(text, FILE));
    expect(error.code).toBe(SlashiErrorCode.INVALID_POLICY);
    expect(error.data).toMatchObject({ file: FILE, line: 3, jsonPath: "/policy/rules/1" });
    expect(error.message).toMatch(/^policy: /);
  });

  it("names its schema, file and keyword", () => {
    expect(packManifestSchema.$id).toBe("https://slashi.dev/schemas/pack-manifest.json");
    expect(PACK_MANIFEST_FILE).toBe("slashi-pack.json");
    expect(PACK_KEYWORD).toBe("slashi-pack");
  });
});
