import { describe, expect, it } from "vitest";
import { Limiter } from "./limiter.js";

describe("Limiter", () => {
  it("grants up to the limit at once, then queues, then refuses", async () => {
    const limiter = new Limiter(2, 1);
    const a = await limiter.acquire();
    const b = await limiter.acquire();
    expect(a).toBeDefined();
    expect(b).toBeDefined();
    let thirdGranted = false;
    const third = limiter.acquire().then((release) => {
      thirdGranted = true;
      return release;
    });
    expect(limiter.queued).toBe(1);
    expect(await limiter.acquire()).toBeUndefined();
    expect(thirdGranted).toBe(false);
    a?.();
    const release = await third;
    expect(thirdGranted).toBe(true);
    expect(limiter.active).toBe(2);
    release?.();
    b?.();
    expect(limiter.active).toBe(0);
  });

  it("ignores a second release of the same slot", async () => {
    const limiter = new Limiter(1, 0);
    const release = await limiter.acquire();
    release?.();
    release?.();
    expect(limiter.active).toBe(0);
    expect(await limiter.acquire()).toBeDefined();
    expect(await limiter.acquire()).toBeUndefined();
  });

  it("drops a waiting call whose signal aborts", async () => {
    const limiter = new Limiter(1, 4);
    const held = await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort(new Error("gone"));
    await expect(waiting).rejects.toThrow("gone");
    expect(limiter.queued).toBe(0);
    held?.();
    expect(limiter.active).toBe(0);
  });
});
