import { execFileSync } from "node:child_process";
import { mkdirSync, realpathSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { catchError, tempDir } from "@slashi/test-utils";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pinWorkspaceCwd, workspaceCwd } from "./workspace-cwd.js";

const scratch = tempDir("slashi-workspace-cwd-");
afterAll(() => scratch.remove());

/** A path segment: a plain name, `.`, `..`, or a name that only starts with dots. */
const segment = fc.oneof(
  fc.constantFrom(".", "..", "..a", "...", "a", "b", "c"),
  fc.stringMatching(/^[a-z]{1,4}$/),
);

const refused = (code: string) => expect.objectContaining({ code });

describe("workspaceCwd", () => {
  let base: string;
  let root: string;
  let outside: string;
  beforeAll(() => {
    base = realpathSync(scratch.dir);
    root = path.join(base, "ws");
    outside = path.join(base, "elsewhere");
    mkdirSync(path.join(root, "src", "deep"), { recursive: true });
    mkdirSync(outside, { recursive: true });
    writeFileSync(path.join(root, "file.txt"), "x");
    symlinkSync(outside, path.join(root, "out"));
    symlinkSync(path.join(root, "src"), path.join(root, "in"));
    symlinkSync(root, path.join(base, "linked-ws"));
    mkdirSync(`${root}-evil`);
  });

  it("runs in the workspace when the line names no cwd, and in the host's default with neither", () => {
    expect(workspaceCwd("/w/app", undefined)).toBe("/w/app");
    expect(workspaceCwd("/w/app", "")).toBe("/w/app");
    expect(workspaceCwd(undefined, undefined)).toBeUndefined();
  });

  it("refuses a cwd when no workspace is open, naming the step's text and not the expanded value", () => {
    const error = catchError(() => workspaceCwd(undefined, "/home/ada/s3cr3t", { shown: "${env:DIR}" }));
    expect(error).toMatchObject({ code: "STEP_NOT_ALLOWED" });
    expect(String((error as Error).message)).toContain("${env:DIR}");
    expect(String((error as Error).message)).not.toContain("s3cr3t");
  });

  it("names neither the expanded cwd nor where it leads when the text shown is the step's", () => {
    const error = catchError(() => workspaceCwd(root, "../s3cr3t", { shown: "${env:DIR}" }));
    expect(error).toMatchObject({ code: "STEP_NOT_ALLOWED" });
    expect(
      JSON.stringify({ message: (error as Error).message, data: (error as { data: unknown }).data }),
    ).not.toContain("s3cr3t");
  });

  it("keeps any relative path that stays inside, refuses any that climbs out (generated paths)", () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 6 }), fc.boolean(), (parts, absolute) => {
        const app = "/w/app";
        const cwd = absolute ? `/w/${parts.join("/")}` : parts.join("/");
        if (cwd === "") return;
        // The reference: walk the segments from the root, one level at a time.
        const stack = absolute ? ["w"] : ["w", "app"];
        for (const p of parts) {
          if (p === "..") stack.pop();
          else if (p !== "." && p !== "") stack.push(p);
        }
        const inside = stack.length >= 2 && stack[0] === "w" && stack[1] === "app";
        if (inside) expect(workspaceCwd(app, cwd)).toBe(`/${stack.join("/")}`);
        else expect(() => workspaceCwd(app, cwd)).toThrow(refused("STEP_NOT_ALLOWED"));
      }),
      { numRuns: 500 },
    );
  });

  it("accepts the root, a directory below it and an absolute one inside", () => {
    expect(workspaceCwd(root, "src/deep", { existing: true })).toBe(path.join(root, "src", "deep"));
    expect(workspaceCwd(root, path.join(root, "src"), { existing: true })).toBe(path.join(root, "src"));
    expect(workspaceCwd(root, "src/deep/../..", { existing: true })).toBe(root);
  });

  it("follows links: one that leads out is refused with where it leads, one that stays in gives the real directory", () => {
    for (const cwd of ["out", "out/not-yet", "in/../../elsewhere"])
      expect(() => workspaceCwd(root, cwd), cwd).toThrow(refused("STEP_NOT_ALLOWED"));
    expect(() => workspaceCwd(root, "out")).toThrow(
      expect.objectContaining({ data: expect.objectContaining({ resolved: outside }) }),
    );
    expect(workspaceCwd(root, "in")).toBe(path.join(root, "src"));
    expect(workspaceCwd(root, "in/deep")).toBe(path.join(root, "src", "deep"));
    expect(workspaceCwd(root, "src/not-yet")).toBe(path.join(root, "src/not-yet"));
  });

  it("spells the directory under the workspace as given when the workspace is reached through a link", () => {
    const linked = path.join(base, "linked-ws");
    expect(workspaceCwd(linked, "src")).toBe(path.join(linked, "src"));
    expect(workspaceCwd(linked, "in")).toBe(path.join(linked, "src"));
  });

  it("refuses a sibling whose name starts with the workspace's name, and absolute paths elsewhere", () => {
    for (const cwd of [`${root}-evil`, "/", outside, "..", "src/../../elsewhere"])
      expect(() => workspaceCwd(root, cwd), cwd).toThrow(refused("STEP_NOT_ALLOWED"));
  });

  it("with existing, refuses a directory that does not exist, a file, and a missing root (RUN_INVALID)", () => {
    for (const cwd of ["nope/x", "file.txt"])
      expect(() => workspaceCwd(root, cwd, { existing: true }), cwd).toThrow(refused("RUN_INVALID"));
    expect(() => workspaceCwd(path.join(base, "no-root"), undefined, { existing: true })).toThrow(
      refused("RUN_INVALID"),
    );
    expect(workspaceCwd(root, "nope/x")).toBe(path.join(root, "nope", "x"));
  });

  it("never hands on a directory outside the workspace, for generated paths of .., names and links", () => {
    const part = fc.constantFrom("..", ".", "src", "deep", "out", "in", "elsewhere", "ws", "ws-evil");
    fc.assert(
      fc.property(
        fc.array(part, { maxLength: 6 }),
        fc.boolean(),
        fc.boolean(),
        (parts, absolute, existing) => {
          const cwd = absolute ? path.join(root, ...parts) : parts.join("/");
          let dir: string | undefined;
          try {
            dir = workspaceCwd(root, cwd, { existing });
          } catch (error) {
            expect(["STEP_NOT_ALLOWED", "RUN_INVALID"]).toContain((error as { code: string }).code);
            return;
          }
          const relative = path.relative(root, dir === undefined ? root : realPathOrSelf(dir));
          expect(relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("pinWorkspaceCwd", () => {
  let root: string;
  let outside: string;
  beforeAll(() => {
    const base = realpathSync(scratch.dir);
    root = path.join(base, "pinned");
    outside = path.join(base, "pinned-outside");
    mkdirSync(path.join(root, "sub"), { recursive: true });
    mkdirSync(outside);
    symlinkSync(outside, path.join(root, "link"));
  });

  it.skipIf(process.platform !== "linux")(
    "starts in the directory that was opened, though its path now leads out of the workspace",
    () => {
      const pinned = pinWorkspaceCwd(root, path.join(root, "sub"));
      try {
        renameSync(path.join(root, "sub"), path.join(root, "sub.moved"));
        renameSync(path.join(root, "link"), path.join(root, "sub"));
        const where = execFileSync("pwd", ["-P"], { cwd: pinned.startIn, encoding: "utf8" }).trim();
        expect(where).toBe(path.join(root, "sub.moved"));
      } finally {
        pinned.close();
        renameSync(path.join(root, "sub"), path.join(root, "link"));
        renameSync(path.join(root, "sub.moved"), path.join(root, "sub"));
      }
    },
  );

  it("refuses a path that leads elsewhere than when it was checked, or out of the workspace", () => {
    const checked = workspaceCwd(root, "sub") as string;
    renameSync(path.join(root, "sub"), path.join(root, "sub.moved"));
    renameSync(path.join(root, "link"), path.join(root, "sub"));
    try {
      expect(() => pinWorkspaceCwd(root, checked)).toThrow(
        expect.objectContaining({
          code: "STEP_NOT_ALLOWED",
          data: expect.objectContaining({ outsideWorkspace: true, resolved: outside }),
        }),
      );
    } finally {
      renameSync(path.join(root, "sub"), path.join(root, "link"));
      renameSync(path.join(root, "sub.moved"), path.join(root, "sub"));
    }
    expect(() => pinWorkspaceCwd(root, outside)).toThrow(refused("STEP_NOT_ALLOWED"));
    expect(() => pinWorkspaceCwd(root, "nope")).toThrow(refused("RUN_INVALID"));
    pinWorkspaceCwd(root, "sub").close();
  });
});

/** The real path of `dir`'s deepest existing ancestor, with the rest appended. */
function realPathOrSelf(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.join(realPathOrSelf(path.dirname(dir)), path.basename(dir));
  }
}
