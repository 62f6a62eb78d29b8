import fc from "fast-check";
import { catchError } from "@slashi/test-utils";
import { beforeAll, describe, expect, it } from "vitest";
import { SlashiErrorCode, isSlashiError } from "../errors.js";
import { loadShellParser } from "../shell/parser.js";
import { decide } from "./decide.js";
import {
  ENKAIDU_ALWAYS_RESTRICTED,
  ENKAIDU_DEFAULT_ALLOWED,
  EnkaiduReasonCode,
  checkEnkaidu,
  enkaiduPolicyDocument,
  enkaiduSettingsFrom,
  enkaiduSubCommands,
  nativePolicyFromEnkaidu,
} from "./enkaidu.js";
import { parsePolicy } from "./parse.js";
import type { EnkaiduShellSettings } from "./enkaidu.js";
import { resolvePolicy } from "./resolve.js";

/** The example from Enkaidu users' session config. */
const EXAMPLE = {
  tool_settings: {
    shell_command: {
      allowed_commands: ["ops", "ruby"],
      approved_commands: ["ls"],
      restricted_terms: ["deploy"],
      network_allowed_commands: ["ops test"],
      execute_through_shell: false,
      skip_confirm_with_cordon: false,
    },
  },
};

const codes = (line: string, settings: EnkaiduShellSettings): string[] =>
  checkEnkaidu(line, settings).map((r) => r.code);

describe("enkaiduSettingsFrom", () => {
  it("reads the lists, adds approved to allowed and the OS's restricted terms", () => {
    const s = enkaiduSettingsFrom({ config: EXAMPLE, os: "unix" });
    expect(s.allowedCommands).toEqual(["ls", "ops", "ruby"]);
    expect(s.approvedCommands).toEqual(["ls"]);
    expect(s.restrictedTerms).toEqual([...ENKAIDU_ALWAYS_RESTRICTED.unix, "deploy"]);
    expect(s.networkAllowedCommands).toEqual(["ops test"]);
    expect(s.executeThroughShell).toBe(false);
    expect(s.skipConfirmWithCordon).toBe(false);
  });

  it("falls back to the environment, then to Enkaidu's defaults", () => {
    const env = (name: string): string | undefined =>
      ({ ENKAIDU_APPROVED_EXECUTABLES: "git  make", ENKAIDU_RESTRICTED_TERMS: "push" })[name];
    const s = enkaiduSettingsFrom({ env, os: "windows" });
    expect(s.allowedCommands).toEqual(["git", "make", ...ENKAIDU_DEFAULT_ALLOWED]);
    expect(s.approvedCommands).toEqual(["git", "make"]);
    expect(s.restrictedTerms).toEqual([...ENKAIDU_ALWAYS_RESTRICTED.windows, "push"]);
  });

  it("prefers the file over the environment and takes a single string as a list", () => {
    const s = enkaiduSettingsFrom({
      config: { tool_settings: { shell_command: { allowed_commands: "ops" } } },
      env: () => "cat",
      os: "unix",
    });
    expect(s.allowedCommands).toEqual(["cat", "ops"]);
  });

  it("reports a value of the wrong type at its JSON path", () => {
    const error = catchError(
      () =>
        enkaiduSettingsFrom({
          config: { tool_settings: { shell_command: { approved_commands: ["ls", 3] } } },
          file: "enkaidu.yml",
          os: "unix",
        }),
      isSlashiError,
    );
    expect(error.code).toBe(SlashiErrorCode.INVALID_POLICY);
    expect(error.data).toMatchObject({
      file: "enkaidu.yml",
      jsonPath: "/tool_settings/shell_command/approved_commands/1",
    });
  });
});

describe("checkEnkaidu", () => {
  const s = enkaiduSettingsFrom({ config: EXAMPLE, os: "unix" });

  it("runs an approved command without asking", () => {
    expect(codes("ls -la", s)).toEqual([]);
  });

  it("asks for an allowed command that is not approved", () => {
    expect(codes("ruby script.rb", s)).toEqual([EnkaiduReasonCode.NOT_APPROVED]);
  });

  it("matches a prefix only as the whole command or followed by a space", () => {
    expect(codes("lsof", s)).toContain(EnkaiduReasonCode.NOT_ALLOWED);
    expect(codes("ops test", s)).toEqual([EnkaiduReasonCode.NOT_APPROVED]);
  });

  it("refuses forbidden substrings unless the line runs through a shell", () => {
    expect(codes("ls ../secrets", s)).toContain(EnkaiduReasonCode.FORBIDDEN_SUBSTRING);
    expect(codes("ls > out", s)).toContain(EnkaiduReasonCode.FORBIDDEN_SUBSTRING);
    const shell = { ...s, executeThroughShell: true };
    expect(codes("ls > out", shell)).not.toContain(EnkaiduReasonCode.FORBIDDEN_SUBSTRING);
  });

  it("asks for restricted terms anywhere, in any case, the OS's built-ins included", () => {
    expect(codes("ls DEPLOY", s)).toEqual([EnkaiduReasonCode.RESTRICTED_TERM]);
    expect(codes("ls format", s)).toEqual([EnkaiduReasonCode.RESTRICTED_TERM]); // "rm" inside "format"
    expect(codes("ls | ls", s)).toEqual([EnkaiduReasonCode.RESTRICTED_TERM]);
  });

  it("checks every sub-command of a chain", () => {
    expect(codes("ls; curl x", s)).toEqual([
      EnkaiduReasonCode.NOT_ALLOWED,
      EnkaiduReasonCode.RESTRICTED_TERM,
      EnkaiduReasonCode.NOT_APPROVED,
    ]);
    expect(enkaiduSubCommands("a && b || c; d | e & f", "windows")).toEqual(["a", "b", "c", "d", "e", "f"]);
  });

  it("never lets a line with a forbidden substring through, whatever surrounds it", () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.constantFrom(...["&", "<", ">", ".."]),
        fc.string(),
        (before, bad, after) => {
          const reasons = checkEnkaidu(`ls ${before}${bad}${after}`, s);
          expect(reasons.some((r) => r.severity === "deny")).toBe(true);
        },
      ),
    );
  });
});

describe("an Enkaidu layer in decide", () => {
  beforeAll(() => loadShellParser());
  const policy = resolvePolicy([
    {
      kind: "user",
      source: "enkaidu.yml",
      document: enkaiduPolicyDocument(enkaiduSettingsFrom({ config: EXAMPLE, os: "unix" })),
    },
  ]);

  it("allows an approved command Slashi has no objection to", () => {
    expect(decide("ls -la", policy).decision).toBe("allow");
  });

  it("asks for a restricted term and denies what is not allowed", () => {
    expect(decide("ops deploy", policy).decision).toBe("ask");
    expect(decide("curl https://x.test", policy).decision).toBe("deny");
  });

  it("keeps Slashi's own findings: an approved command does not lift them", () => {
    expect(decide("ls ~/.ssh/id_rsa && ls", policy).decision).not.toBe("allow");
    expect(decide("ls `id`", policy).decision).not.toBe("allow");
  });
});

describe("nativePolicyFromEnkaidu", () => {
  beforeAll(() => loadShellParser());
  const settings = enkaiduSettingsFrom({ config: EXAMPLE, os: "unix" });
  const { document, changes } = nativePolicyFromEnkaidu(settings);

  it("writes a native file that validates, with the same lists", () => {
    expect(parsePolicy(JSON.stringify(document), "policy.json")).toEqual(document);
    expect(document).toMatchObject({
      allowedCommands: ["ls", "ops", "ruby"],
      approvedCommands: ["ls"],
      networkAllowedCommands: ["ops test"],
    });
    expect(document.restrictedTerms).toEqual(["rm", "eval", "--expression", "-e", "deploy"]);
  });

  it("says every change of meaning", () => {
    expect(changes.join("\n")).toMatch(/whole words/);
    expect(changes.join("\n")).toMatch(/"\$\(", "\|", ";" are not terms/);
    expect(changes.join("\n")).toMatch(/forbidden substrings/);
  });

  it("decides the imported file as the docs say: words, not substrings", () => {
    const policy = resolvePolicy([{ kind: "user", source: "policy.json", document }]);
    expect(decide("ls format", policy).decision).toBe("allow");
    expect(decide("ops deploy", policy).decision).toBe("ask");
    expect(decide("curl https://x.test", policy).decision).toBe("deny");
  });
});
