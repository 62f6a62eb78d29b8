import { describe, expect, it } from "vitest";
import { checkExpandedOpenTarget, checkOpenTarget } from "./open-target.js";

describe("checkOpenTarget", () => {
  it("allows http, https and mailto and shows the host", () => {
    expect(checkOpenTarget("https://example.com/path?q=1")).toEqual({
      ok: true,
      kind: "url",
      scheme: "https",
      host: "example.com",
    });
    expect(checkOpenTarget("HTTP://Example.COM")).toMatchObject({
      ok: true,
      scheme: "http",
      host: "example.com",
    });
    expect(checkOpenTarget("mailto:team@example.com")).toMatchObject({
      ok: true,
      kind: "url",
      scheme: "mailto",
    });
  });

  it("refuses command, vscode, file, javascript, data and custom schemes", () => {
    for (const [target, scheme] of [
      ["command:workbench.action.terminal.sendSequence?%7B%7D", "command"],
      ["vscode://vscode.git/clone?url=x", "vscode"],
      ["vscode-insiders://x", "vscode-insiders"],
      ["file:///etc/passwd", "file"],
      ["javascript:alert(1)", "javascript"],
      ["data:text/html,<script>", "data"],
      ["ms-msdt:/id", "ms-msdt"],
      ["JavaScript:alert(1)", "javascript"],
    ] as const) {
      const r = checkOpenTarget(target);
      expect(r.ok, target).toBe(false);
      expect(r.scheme, target).toBe(scheme);
    }
    expect(checkOpenTarget("file:///x").kind).toBe("file");
  });

  it("reads the target as a URL parser would: leading controls and inner newlines do not hide a scheme", () => {
    expect(checkOpenTarget("  javascript:alert(1)")).toMatchObject({ ok: false, scheme: "javascript" });
    expect(checkOpenTarget("\u0001\u0002command:x")).toMatchObject({ ok: false, scheme: "command" });
    expect(checkOpenTarget("java\nscript:alert(1)")).toMatchObject({ ok: false, scheme: "javascript" });
    expect(checkOpenTarget("https://example.com/\n")).toMatchObject({ ok: false, scheme: "https" });
  });

  it("refuses protocol-relative targets, UNC and absolute paths, home and parent paths", () => {
    expect(checkOpenTarget("//evil.example/x")).toMatchObject({ ok: false, kind: "url" });
    expect(checkOpenTarget("\\\\server\\share\\x")).toMatchObject({ ok: false, kind: "file" });
    expect(checkOpenTarget("/etc/passwd")).toMatchObject({ ok: false, kind: "file" });
    expect(checkOpenTarget("C:\\Windows\\x.exe")).toMatchObject({ ok: false, kind: "file" });
    expect(checkOpenTarget("~/.ssh/id_rsa")).toMatchObject({ ok: false, kind: "file" });
    expect(checkOpenTarget("docs/../../x")).toMatchObject({ ok: false, kind: "file" });
  });

  it("allows a relative path inside the workspace", () => {
    expect(checkOpenTarget("docs/guide.md")).toEqual({ ok: true, kind: "file", scheme: "", host: "" });
  });

  it("refuses web URLs whose host is hidden by credentials or backslashes", () => {
    expect(checkOpenTarget("https://example.com@evil.test/")).toMatchObject({ ok: false, host: "evil.test" });
    expect(checkOpenTarget("https://evil.test\\@example.com")).toMatchObject({ ok: false });
    expect(checkOpenTarget("https:evil.test")).toMatchObject({ ok: false });
    expect(checkOpenTarget("https://")).toMatchObject({ ok: false });
  });

  it("refuses invisible characters and reports punycode hosts", () => {
    expect(checkOpenTarget("https://exa\u200bmple.com").ok).toBe(false);
    expect(checkOpenTarget("https://exаmple.com")).toMatchObject({ ok: true, host: "xn--exmple-4nf.com" });
  });

  it("refuses empty targets and non-strings", () => {
    expect(checkOpenTarget("").ok).toBe(false);
    expect(checkOpenTarget("   ").ok).toBe(false);
    expect(checkOpenTarget(42 as unknown as string).ok).toBe(false);
  });
});

describe("variables in open targets", () => {
  it("refuses a host that comes from a variable and allows one in the path", () => {
    expect(checkOpenTarget("https://${args}.example.com/")).toMatchObject({ ok: false, reason: /variable/ });
    expect(checkOpenTarget("https://example.com${args}")).toMatchObject({ ok: false });
    expect(checkOpenTarget("https://jira.example.com/browse/${args}")).toMatchObject({
      ok: true,
      host: "jira.example.com",
    });
  });

  it("refuses a variable in a file path", () => {
    expect(checkOpenTarget("docs/${args}.md").ok).toBe(false);
  });
});

describe("checkExpandedOpenTarget", () => {
  const shown = "https://jira.example.com/browse/${args}";

  it("accepts an expansion that keeps scheme and host", () => {
    expect(checkExpandedOpenTarget(shown, "https://jira.example.com/browse/ABC-1")).toMatchObject({
      ok: true,
    });
  });

  it("refuses an expansion that moves the link to another host", () => {
    expect(checkExpandedOpenTarget("https://example.com/${args}", "https://example.com/x@evil.test").ok).toBe(
      true,
    );
    expect(checkExpandedOpenTarget("https://example.com${args}", "https://example.com.evil.test/").ok).toBe(
      false,
    );
    expect(checkExpandedOpenTarget(shown, "https://jira.example.com/browse/\nx")).toMatchObject({
      ok: false,
    });
  });

  it("refuses when the shown target is already refused", () => {
    expect(checkExpandedOpenTarget("command:x", "https://example.com").ok).toBe(false);
  });
});

describe("checkOpenTarget and combining marks", () => {
  it("refuses a URL with a combining mark on an ASCII character", () => {
    expect(checkOpenTarget("https://example.com/\u0338evil").ok).toBe(false);
    expect(checkOpenTarget("https://example.com/caf\u00e9").ok).toBe(true);
  });
});
