/**
 * A limit on concurrent commands: at most `running` at once, at most `queued` waiting; past that a call is
 * refused at once (the guarded run refuses it `busy`; MCP answers `BUSY`). A waiting call whose signal aborts leaves the queue.
 */

/** Releases a slot. Idempotent. */
export type Release = () => void;

/** Counting semaphore with a bounded queue. */
export class Limiter {
  readonly #max: number;
  readonly #maxQueued: number;
  #active = 0;
  readonly #waiting: { grant: (release: Release) => void; reject: (error: Error) => void }[] = [];

  /**
   * @param max - commands running at once (at least 1)
   * @param maxQueued - calls waiting for a slot (0: refuse when full)
   */
  constructor(max: number, maxQueued: number) {
    this.#max = Math.max(1, max);
    this.#maxQueued = Math.max(0, maxQueued);
  }

  /** Commands running now. */
  get active(): number {
    return this.#active;
  }

  /** Calls waiting now. */
  get queued(): number {
    return this.#waiting.length;
  }

  /**
   * Takes a slot, waiting in the queue when all are busy.
   * @returns a release function, or `undefined` when the queue is full too
   * @throws the signal's reason when it aborts while waiting
   */
  async acquire(signal?: AbortSignal): Promise<Release | undefined> {
    if (this.#active < this.#max) {
      this.#active += 1;
      return this.#releaser();
    }
    if (this.#waiting.length >= this.#maxQueued) return undefined;
    return await new Promise<Release>((resolve, reject) => {
      const entry = {
        grant: (release: Release) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(release);
        },
        reject,
      };
      const onAbort = (): void => {
        const i = this.#waiting.indexOf(entry);
        if (i >= 0) this.#waiting.splice(i, 1);
        reject(signal?.reason instanceof Error ? signal.reason : new Error("aborted while waiting"));
      };
      if (signal?.aborted) {
        onAbort();
        return;
      }
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(entry);
    });
  }

  #releaser(): Release {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.#waiting.shift();
      if (next) next.grant(this.#releaser());
      else this.#active -= 1;
    };
  }
}
