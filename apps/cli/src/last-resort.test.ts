import { SlashiError, SlashiErrorCode } from "@slashi/core";
import { SECRET_MARKER, WITHHELD_TEXT } from "@slashi/runtime";
import { hostileText, rawControls } from "@slashi/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ExitCode, UsageError } from "./errors.js";
import { lastResortReport } from "./last-resort.js";

describe("lastResortReport", () => {
  it("writes nothing raw, whatever the error says, with or without its stack (generated)", () => {
    fc.assert(
      fc.property(hostileText(), fc.boolean(), (text, debug) => {
        const error = new Error(text);
        error.stack = `Error: ${text}\n    at ${text} (file.js:1:1)`;
        const { text: out } = lastResortReport(error, debug ? { SLASHI_DEBUG: "1" } : {});
        expect(rawControls(out.slice(0, -1))).toEqual([]);
        expect(out.endsWith("\n")).toBe(true);
      }),
    );
  });

  it("keeps the stack out unless SLASHI_DEBUG asks for it", () => {
    const error = new Error("it broke");
    error.stack = "Error: it broke\n    at secretFrame (x.js:1:1)";
    expect(lastResortReport(error, {}).text).not.toContain("secretFrame");
    expect(lastResortReport(error, { SLASHI_DEBUG: "0" }).text).not.toContain("secretFrame");
    expect(lastResortReport(error, { SLASHI_DEBUG: "1" }).text).toContain("at secretFrame (x.js:1:1)");
  });

  it("maps the error through the one table: status by kind, a SlashiError's code", () => {
    const internal = lastResortReport(new Error("x"), {});
    expect(internal).toEqual({
      text: "slashi: internal error: x\nThis is a bug; please report it with the command you ran.\n",
      status: ExitCode.FAILURE,
    });
    const io = lastResortReport(new SlashiError(SlashiErrorCode.STORE_LOCKED, "locked"), {});
    expect(io.text).toContain(`[${SlashiErrorCode.STORE_LOCKED}]`);
    expect(io.status).toBe(ExitCode.STORE);
    expect(lastResortReport(new UsageError("no such flag"), {}).status).toBe(ExitCode.USAGE);
  });

  it("shows no value of a secret-named variable, long or short", () => {
    const long = "ghp_longTokenValue123";
    const error = new Error(`git push https://x:${long}@example.com failed`);
    const text = lastResortReport(error, { GH_TOKEN: long, HOME: "/home/x" }).text;
    expect(text).not.toContain(long);
    expect(text).toContain(SECRET_MARKER);
    // A short value is replaced where it stands as a word of its own; found inside a word, where it came from
    // cannot be told, so the message is withheld.
    const short = lastResortReport(new Error("pin 4711 refused"), { DB_PASSWORD: "4711" }).text;
    expect(short).not.toContain("4711");
    expect(short).toContain(`pin ${SECRET_MARKER} refused`);
    const inside = lastResortReport(new Error("pin x4711x refused"), { DB_PASSWORD: "4711" }).text;
    expect(inside).not.toContain("4711");
    expect(inside).toContain(WITHHELD_TEXT);
  });
});
