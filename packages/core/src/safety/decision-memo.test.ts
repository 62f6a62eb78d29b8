import { describe, expect, it } from "vitest";
import { once, oneDecision } from "./decision-memo.js";

describe("once / oneDecision", () => {
  it("computes every time outside a decision", () => {
    let calls = 0;
    const count = (): number => ++calls;
    const key = {};
    expect([once(key, count, count), once(key, count, count)]).toEqual([1, 2]);
  });

  it("computes once per key and question inside a decision, undefined included", () => {
    let calls = 0;
    const count = (): number => ++calls;
    const nothing = (): undefined => {
      calls += 10;
      return undefined;
    };
    const a = {};
    const b = {};
    const answers = oneDecision(() => [
      once(a, count, count),
      once(a, count, count),
      once(b, count, count),
      once(a, "other question", count),
      once(a, nothing, nothing),
      once(a, nothing, nothing),
    ]);
    expect(answers).toEqual([1, 1, 2, 3, undefined, undefined]);
    expect(calls).toBe(13);
  });

  it("keeps nothing from one decision to the next, nor in a nested one", () => {
    let calls = 0;
    const count = (): number => ++calls;
    const key = {};
    const first = oneDecision(() => {
      const outer = once(key, count, count);
      const inner = oneDecision(() => once(key, count, count));
      return [outer, inner, once(key, count, count)];
    });
    expect(first).toEqual([1, 2, 1]);
    expect(oneDecision(() => once(key, count, count))).toBe(3);
    expect(once(key, count, count)).toBe(4);
  });

  it("forgets the decision's answers when it throws", () => {
    let calls = 0;
    const count = (): number => ++calls;
    const key = {};
    expect(() =>
      oneDecision(() => {
        once(key, count, count);
        throw new Error("stop");
      }),
    ).toThrow("stop");
    expect(once(key, count, count)).toBe(2);
  });
});
