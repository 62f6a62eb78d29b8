import fc from "fast-check";
import { catchError } from "@slashi/test-utils";
import { describe, expect, it } from "vitest";
import { isSlashiError } from "../errors.js";
import { buildCmdArguments, buildCmdCommandLine, CMD_INVOCATION_FLAGS, quoteCmd } from "./cmd.js";

// A model of how the text reaches a program, written from cmd.exe's and the C runtime's documented behaviour:
// 1. percent expansion on a command line (every non-empty name counts as defined here, the worst case),
// 2. cmd's special-character phase (quotes toggle; outside quotes `^` escapes and `& | < > ( )` act),
// 3. delayed expansion is off (/v:OFF), so `!` is nothing special,
// 4. the Microsoft C runtime (2008 and later, UCRT) splits the arguments.

/** Phase 1 on a command line: `%name%` expands; `%%` keeps the first `%` and rescans from the second. */
function expandPercent(line: string): { text: string; expanded: string[] } {
  let text = "";
  const expanded: string[] = [];
  let i = 0;
  while (i < line.length) {
    const ch = line[i] as string;
    if (ch !== "%") {
      text += ch;
      i++;
      continue;
    }
    const close = line.indexOf("%", i + 1);
    if (close < 0) {
      text += line.slice(i);
      break;
    }
    const name = line.slice(i + 1, close);
    if (name === "") {
      text += "%";
      i = close;
    } else if (name.toLowerCase() === "cd:~,") {
      i = close + 1;
    } else {
      expanded.push(name);
      text += `<${name}>`;
      i = close + 1;
    }
  }
  return { text, expanded };
}

/** Phase 2: returns the text with escaping carets removed and every character cmd sees outside quotes. */
function specialPhase(text: string): { text: string; outside: string } {
  let out = "";
  let outside = "";
  let inQuotes = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '"') {
      inQuotes = !inQuotes;
      out += ch;
    } else if (inQuotes) {
      out += ch;
    } else if (ch === "^") {
      outside += ch;
      out += text[i + 1] ?? "";
      i++;
    } else {
      outside += ch;
      out += ch;
    }
  }
  return { text: out, outside };
}

/** Splits a command line into argv with the C runtime's rules (program name first, then arguments). */
function splitArgv(line: string): string[] {
  const argv: string[] = [];
  let i = 0;
  if (line[0] === '"') {
    const close = line.indexOf('"', 1);
    argv.push(line.slice(1, close < 0 ? line.length : close));
    i = close < 0 ? line.length : close + 1;
  } else {
    while (i < line.length && line[i] !== " " && line[i] !== "\t") i++;
    argv.push(line.slice(0, i));
  }
  for (;;) {
    while (line[i] === " " || line[i] === "\t") i++;
    if (i >= line.length) return argv;
    let arg = "";
    let inQuotes = false;
    while (i < line.length) {
      let backslashes = 0;
      while (line[i] === "\\") {
        backslashes++;
        i++;
      }
      if (line[i] === '"') {
        arg += "\\".repeat(Math.floor(backslashes / 2));
        if (backslashes % 2 === 1) {
          arg += '"';
          i++;
        } else if (inQuotes && line[i + 1] === '"') {
          arg += '"';
          i += 2;
        } else {
          inQuotes = !inQuotes;
          i++;
        }
        continue;
      }
      arg += "\\".repeat(backslashes);
      if (i >= line.length) break;
      const ch = line[i] as string;
      if (!inQuotes && (ch === " " || ch === "\t")) break;
      arg += ch;
      i++;
    }
    argv.push(arg);
  }
}

/** Runs a command line through the model: what the program receives and what cmd saw on the way. */
function throughCmd(line: string): { argv: string[]; expanded: string[]; outside: string } {
  const phase1 = expandPercent(line);
  const phase2 = specialPhase(phase1.text);
  return { argv: splitArgv(phase2.text), expanded: phase1.expanded, outside: phase2.outside };
}

const cmdUnit = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      '"',
      "\\",
      "%",
      "!",
      "^",
      "&",
      "|",
      "<",
      ">",
      "(",
      ")",
      ";",
      ",",
      "=",
      " ",
      "\t",
    ),
    weight: 3,
  },
  { arbitrary: fc.constantFrom("%PATH%", "!x!", "cd:~,", '\\"', "\u00a0", "é", "😀"), weight: 1 },
  { arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }), weight: 2 },
);
// Every unit is a whole code point, so no lone surrogate appears; the characters cmd refuses are left out.
const cmdValue = fc
  .string({ unit: cmdUnit })
  .filter((s) => !["\0", "\r", "\n", "\u001a"].some((c) => s.includes(c)));

function refusal(fn: () => unknown): Record<string, unknown> {
  const error = catchError(fn, isSlashiError);
  return { code: error.code, ...error.data };
}

describe("quoteCmd", () => {
  it.each([
    ["", '""'],
    ["abc", '"abc"'],
    ['"&calc', '"""&calc"'],
    ["%PATH%", '"%%cd:~,%PATH%%cd:~,%"'],
    ["^", '"^"'],
    ['"\\"', '"""\\\\"""'],
    ["C:\\dir\\", '"C:\\dir\\\\"'],
    ["!x!", '"!x!"'],
    ["a b&c|d<e>f(g)h;i,j", '"a b&c|d<e>f(g)h;i,j"'],
  ])("quotes %j as %j", (value, quoted) => {
    expect(quoteCmd(value)).toBe(quoted);
  });

  it.each([
    ["a\nb", "line-break", 1, "U+000A"],
    ["\rx", "line-break", 0, "U+000D"],
    ["ab\x1a", "end-of-file-marker", 2, "U+001A"],
    ["\0", "nul", 0, "U+0000"],
  ])("refuses %j (%s at %d)", (value, reason, index, character) => {
    expect(refusal(() => quoteCmd(value))).toEqual({
      code: "UNQUOTABLE_VALUE",
      dialect: "cmd",
      reason,
      index,
      character,
    });
  });

  it("delivers exactly the value to the program, with nothing expanded and nothing outside quotes", () => {
    fc.assert(
      fc.property(cmdValue, (value) => {
        const seen = throughCmd(`"prog.exe" ${quoteCmd(value)}`);
        expect(seen.argv).toEqual(["prog.exe", value]);
        expect(seen.expanded).toEqual([]);
        expect(seen.outside).toBe(" ");
      }),
    );
  });

  it('shows that plain double quotes let "&calc escape into a second command', () => {
    const seen = throughCmd(`"prog.bat" "${'"&calc'}"`);
    expect(seen.outside).toContain("&");
    expect(throughCmd(`"prog.bat" "%PATH%"`).expanded).toEqual(["PATH"]);
  });
});

describe("buildCmdCommandLine", () => {
  it("quotes the program and every argument", () => {
    expect(buildCmdCommandLine(["C:\\tools\\run.cmd", "a b", '"&calc', "50%"])).toBe(
      '"C:\\tools\\run.cmd" "a b" """&calc" "50%%cd:~,%"',
    );
  });

  it("neutralises % in the program path", () => {
    expect(buildCmdCommandLine(["C:\\%USERNAME%\\x.bat"])).toBe('"C:\\%%cd:~,%USERNAME%%cd:~,%\\x.bat"');
  });

  it("round-trips whole argv through the model, also when a batch file re-reads %*", () => {
    fc.assert(
      fc.property(fc.array(cmdValue, { maxLength: 6 }), (args) => {
        const line = buildCmdCommandLine(["C:\\bin\\tool.cmd", ...args]);
        const seen = throughCmd(line);
        expect(seen.argv).toEqual(["C:\\bin\\tool.cmd", ...args]);
        expect(seen.expanded).toEqual([]);
        expect(seen.outside).toBe(" ".repeat(args.length));
        // A shim running `node x.js %*` hands the same text to cmd's special phase once more.
        const rest = specialPhase(expandPercent(line).text.slice('"C:\\bin\\tool.cmd"'.length));
        expect(rest.outside).toBe(" ".repeat(args.length));
      }),
    );
  });

  it.each([
    [[], { reason: "empty-command" }],
    [[""], { reason: "invalid-program", argument: 0 }],
    [['C:\\a"b.bat'], { reason: "invalid-program", argument: 0, index: 4 }],
    [["C:\\dir\\"], { reason: "invalid-program", argument: 0, index: 6 }],
    [["x.bat", "ok", "bad\nline"], { reason: "line-break", argument: 2, index: 3 }],
    [["x\r.bat"], { reason: "line-break", argument: 0, index: 1 }],
  ])("refuses %j", (argv, data) => {
    expect(refusal(() => buildCmdCommandLine(argv))).toMatchObject({
      code: "UNQUOTABLE_VALUE",
      dialect: "cmd",
      ...data,
    });
  });
});

describe("buildCmdArguments", () => {
  it("puts the invocation flags before the quoted command line", () => {
    expect(CMD_INVOCATION_FLAGS).toEqual(["/d", "/v:OFF", "/e:ON", "/s", "/c"]);
    expect(buildCmdArguments(["x.bat", "!x!"])).toEqual([
      "/d",
      "/v:OFF",
      "/e:ON",
      "/s",
      "/c",
      '""x.bat" "!x!""',
    ]);
  });
});
