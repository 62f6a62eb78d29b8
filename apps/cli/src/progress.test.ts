import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { progressAllowed, startProgress, withProgress } from "./progress.js";

/** A stderr that says it is a terminal (or not), collecting what is written. */
function stream(isTTY: boolean): PassThrough & { isTTY?: boolean; text: () => string } {
  const s = new PassThrough() as PassThrough & { isTTY?: boolean; text: () => string };
  if (isTTY) s.isTTY = true;
  const chunks: string[] = [];
  s.on("data", (c: Buffer) => chunks.push(String(c)));
  s.text = () => chunks.join("");
  return s;
}

const ERASE = "\r\u001b[K";

afterEach(() => {
  vi.useRealTimers();
});

describe("progressAllowed", () => {
  it("allows a terminal only, and not under CI or a dumb terminal", () => {
    expect(progressAllowed({}, stream(true))).toBe(true);
    expect(progressAllowed({}, stream(false))).toBe(false);
    for (const ci of ["true", "1", "yes"]) expect(progressAllowed({ CI: ci }, stream(true))).toBe(false);
    for (const ci of ["", "0", "false", "FALSE"])
      expect(progressAllowed({ CI: ci }, stream(true))).toBe(true);
    expect(progressAllowed({ TERM: "dumb" }, stream(true))).toBe(false);
  });
});

describe("startProgress", () => {
  it("shows nothing before its delay, redraws one line in place, and erases it when stopped", () => {
    vi.useFakeTimers();
    const stderr = stream(true);
    const progress = startProgress({ stderr, env: {} }, "searching 2 registries", {
      delay: 400,
      interval: 100,
    });
    vi.advanceTimersByTime(399);
    expect(stderr.text()).toBe("");
    vi.advanceTimersByTime(1100);
    const drawn = stderr.text();
    expect(drawn.split(ERASE).filter(Boolean).length).toBeGreaterThan(5);
    expect(drawn).toContain("searching 2 registries (1s)");
    expect(drawn).not.toContain("\n");
    progress.step("downloading @acme/tools");
    vi.advanceTimersByTime(100);
    expect(stderr.text()).toContain("downloading @acme/tools");
    progress.stop();
    expect(stderr.text().endsWith(ERASE)).toBe(true);
    const after = stderr.text().length;
    vi.advanceTimersByTime(1000);
    progress.stop();
    expect(stderr.text().length).toBe(after);
  });

  it("erases the line for a prompt and shows it again on the next step", () => {
    vi.useFakeTimers();
    const stderr = stream(true);
    const progress = startProgress({ stderr, env: {} }, "checking", { delay: 10, interval: 10 });
    vi.advanceTimersByTime(20);
    progress.pause();
    const paused = stderr.text();
    expect(paused.endsWith(ERASE)).toBe(true);
    vi.advanceTimersByTime(100);
    expect(stderr.text()).toBe(paused);
    progress.step("installing");
    vi.advanceTimersByTime(1);
    expect(stderr.text().slice(paused.length)).toContain("installing");
    progress.stop();
  });

  it("paints the spinner only without NO_COLOR", () => {
    vi.useFakeTimers();
    for (const [env, painted] of [
      [{}, true],
      [{ NO_COLOR: "1" }, false],
    ] as const) {
      const stderr = stream(true);
      const progress = startProgress({ stderr, env }, "working", { delay: 0, interval: 10 });
      vi.advanceTimersByTime(5);
      progress.stop();
      const withoutErase = stderr.text().split(ERASE).join("");
      expect(withoutErase.includes("\u001b["), JSON.stringify(env)).toBe(painted);
    }
  });

  it("writes nothing at all when stderr is piped or CI is set", async () => {
    for (const [stderr, env] of [
      [stream(false), {}],
      [stream(true), { CI: "true" }],
    ] as const) {
      const value = await withProgress(
        { stderr, env },
        "publishing",
        () => new Promise<number>((resolve) => setTimeout(() => resolve(7), 50)),
        { delay: 0, interval: 5 },
      );
      expect(value).toBe(7);
      expect(stderr.text()).toBe("");
    }
  });

  it("erases the line when the task throws", async () => {
    const stderr = stream(true);
    const failing = withProgress(
      { stderr, env: {} },
      "downloading",
      () => new Promise((_, reject) => setTimeout(() => reject(new Error("offline")), 60)),
      { delay: 0, interval: 5 },
    );
    await expect(failing).rejects.toThrow("offline");
    expect(stderr.text()).toContain("downloading");
    expect(stderr.text().endsWith(ERASE)).toBe(true);
  });
});
