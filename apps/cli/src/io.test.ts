import { hostileText, rawControls } from "@slashi/test-utils";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import {
  colorAllowed,
  jsonText,
  ownControl,
  paint,
  println,
  visibleIo,
  visibleOutput,
  writeOwnControl,
} from "./io.js";
import { scriptedIo } from "../test/helpers.js";

describe("colorAllowed", () => {
  it("colours a terminal by default", () => {
    expect(colorAllowed({}, false, true)).toBe(true);
  });

  it("honours NO_COLOR, --no-color, TERM=dumb and a non-terminal stdout", () => {
    expect(colorAllowed({ NO_COLOR: "1" }, false, true)).toBe(false);
    expect(colorAllowed({}, true, true)).toBe(false);
    expect(colorAllowed({ TERM: "dumb" }, false, true)).toBe(false);
    expect(colorAllowed({}, false, false)).toBe(false);
  });

  it("treats an empty NO_COLOR as unset", () => {
    expect(colorAllowed({ NO_COLOR: "" }, false, true)).toBe(true);
  });
});

describe("paint", () => {
  it("adds escape codes only when colour is on", () => {
    expect(paint({ color: false }, "red", "deny")).toBe("deny");
    expect(visibleOutput(paint({ color: true }, "red", "deny"))).toBe("\u001b[31mdeny\u001b[0m");
  });
});

/** An Io over two collecting streams, with colour on. */
const collectingIo = (): ReturnType<typeof scriptedIo> => ({ ...scriptedIo({}, "/"), color: true });

describe("visibleIo", () => {
  it("shows every control a write, an end or a byte chunk carries, and keeps the CLI's own colour", async () => {
    await fc.assert(
      fc.asyncProperty(hostileText(), hostileText(), hostileText(), async (a, b, c) => {
        const raw = collectingIo();
        const io = visibleIo(raw);
        println(io.stdout, `${paint(io, "red", a)} ${b}`);
        io.stderr.write(Buffer.from(c));
        writeOwnControl(io.stderr, "erase");
        io.stdout.end(a);
        await new Promise((resolve) => setImmediate(resolve));
        // Exactly the CLI's own sequences around the values, each value with nothing raw.
        const [sa, sb, sc] = [a, b, c].map(visibleOutput) as [string, string, string];
        for (const s of [sa, sb, sc]) expect(rawControls(s)).toEqual([]);
        expect(raw.out()).toBe(`\u001b[31m${sa}\u001b[0m ${sb}\n${sa}`);
        expect(raw.err()).toBe(`${sc}\r\u001b[K`);
      }),
      { numRuns: 100 },
    );
  });

  it("cannot be made to write a sequence by text that looks like the CLI's own marker", () => {
    // The key is drawn on first use: a marker with any other key is ordinary text.
    const marker = ownControl("erase");
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.nat(8), (key, index) => {
        const forged = `\uE000${key}:${index}\uE001`;
        fc.pre(forged !== marker.replace(/:\d+/, `:${index}`));
        expect(rawControls(visibleOutput(forged))).toEqual([]);
        expect(visibleOutput(forged)).not.toContain("\u001b");
      }),
    );
    expect(visibleOutput(marker)).toBe("\r\u001b[K");
  });

  it("draws its marker key only when the first own sequence is made", async () => {
    vi.resetModules();
    const fresh = await import("./io.js");
    // A marker written before any key exists is ordinary text, and writing text does not draw the key.
    expect(fresh.visibleOutput("\uE000:0\uE001 plain \u001b[31m")).toBe("\uE000:0\uE001 plain ⟨U+001B⟩[31m");
    expect(fresh.ownKeyDrawn()).toBe(false);
    const red = fresh.ownControl("red");
    expect(fresh.ownKeyDrawn()).toBe(true);
    expect(fresh.ownControl("red")).toBe(red);
    expect(fresh.visibleOutput(`${red}x`)).toBe("\u001b[31mx");
  });

  it("reads the rest of the Io through, getters included, and wraps once", () => {
    let reads = 0;
    const raw = collectingIo();
    Object.defineProperty(raw, "cwd", { get: () => `/dir${++reads}` });
    const io = visibleIo(raw);
    expect(io.cwd).toBe("/dir1");
    expect(visibleIo(io)).toBe(io);
    expect(io.env).toBe(raw.env);
  });
});

describe("jsonText", () => {
  it("is the same value, with nothing raw", () => {
    fc.assert(
      fc.property(fc.jsonValue(), hostileText(), fc.constantFrom(undefined, 2), (value, text, space) => {
        const doc = { value, text, [text]: [text] };
        const written = jsonText(doc, space);
        expect(JSON.parse(written)).toEqual(JSON.parse(JSON.stringify(doc)));
        expect(rawControls(written)).toEqual([]);
        expect(visibleOutput(written)).toBe(written);
      }),
    );
  });
});
