import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { tempDir } from "@slashi/test-utils";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { terminalStepCwd } from "./step-cwd.js";

const scratch = tempDir("slashi-step-cwd-");
afterAll(() => scratch.remove());

/** A path segment: a plain name, `.`, `..`, or a name that only starts with dots. */
const segment = fc.oneof(
  fc.constantFrom(".", "..", "..a", "...", "a", "b", "c"),
  fc.stringMatching(/^[a-z]{1,4}$/),
);

describe("terminalStepCwd", () => {
  it("runs in the workspace when the step names no cwd, and in the host's default with neither", () => {
    expect(terminalStepCwd("/w/app", undefined)).toBe("/w/app");
    expect(terminalStepCwd("/w/app", "")).toBe("/w/app");
    expect(terminalStepCwd(undefined, undefined)).toBeUndefined();
  });

  it("refuses a cwd when no workspace is open, naming the step's text and not the expanded value", () => {
    let error: unknown;
    try {
      terminalStepCwd(undefined, "/home/ada/s3cr3t", "${env:DIR}");
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: "STEP_NOT_ALLOWED" });
    expect(String((error as Error).message)).toContain("${env:DIR}");
    expect(String((error as Error).message)).not.toContain("s3cr3t");
  });

  it("keeps any relative path that stays inside, refuses any that climbs out (generated paths)", () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 6 }), fc.boolean(), (parts, absolute) => {
        const root = "/w/app";
        const cwd = absolute ? `/w/${parts.join("/")}` : parts.join("/");
        if (cwd === "") return;
        // The reference: walk the segments from the root, one level at a time.
        const stack = absolute ? ["w"] : ["w", "app"];
        for (const p of parts) {
          if (p === "..") stack.pop();
          else if (p !== "." && p !== "") stack.push(p);
        }
        const inside = stack.length >= 2 && stack[0] === "w" && stack[1] === "app";
        if (inside) expect(terminalStepCwd(root, cwd)).toBe(`/${stack.join("/")}`);
        else
          expect(() => terminalStepCwd(root, cwd)).toThrow(
            expect.objectContaining({ code: "STEP_NOT_ALLOWED" }),
          );
      }),
      { numRuns: 500 },
    );
  });

  it("follows links: a link inside the workspace that leads out is refused, one that stays in is kept", () => {
    const root = path.join(scratch.dir, "ws");
    const outside = path.join(scratch.dir, "elsewhere");
    mkdirSync(path.join(root, "src"), { recursive: true });
    mkdirSync(outside, { recursive: true });
    symlinkSync(outside, path.join(root, "out"));
    symlinkSync(path.join(root, "src"), path.join(root, "in"));
    expect(() => terminalStepCwd(root, "out")).toThrow(expect.objectContaining({ code: "STEP_NOT_ALLOWED" }));
    expect(() => terminalStepCwd(root, "out/not-yet")).toThrow(
      expect.objectContaining({ code: "STEP_NOT_ALLOWED" }),
    );
    expect(terminalStepCwd(root, "in")).toBe(path.join(root, "in"));
    expect(terminalStepCwd(root, "src/not-yet")).toBe(path.join(root, "src/not-yet"));
  });

  it("accepts a workspace that is itself reached through a link", () => {
    const real = path.join(scratch.dir, "real-ws");
    mkdirSync(path.join(real, "sub"), { recursive: true });
    const link = path.join(scratch.dir, "linked-ws");
    symlinkSync(real, link);
    expect(terminalStepCwd(link, "sub")).toBe(path.join(link, "sub"));
  });
});
