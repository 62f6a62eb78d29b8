import { describe, expect, it } from "vitest";
import { catchError, catchErrorAsync, rejectionCode, thrownCode } from "./errors.js";

class CodedError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}
const isCoded = (error: unknown): error is CodedError => error instanceof CodedError;

describe("catchError", () => {
  it("returns the thrown value", () => {
    const error = new CodedError("X");
    expect(
      catchError(() => {
        throw error;
      }),
    ).toBe(error);
  });

  it("fails when nothing is thrown", () => {
    expect(() => catchError(() => 1)).toThrow(/nothing was thrown/);
  });

  it("rethrows a value the guard rejects", () => {
    const other = new TypeError("not coded");
    expect(() =>
      catchError(() => {
        throw other;
      }, isCoded),
    ).toThrow(other);
  });

  it("returns the guarded kind", () => {
    const caught = catchError(() => {
      throw new CodedError("Y");
    }, isCoded);
    expect(caught.code).toBe("Y");
  });
});

describe("catchErrorAsync", () => {
  it("returns the rejection of a promise or of a function's promise", async () => {
    expect(await catchErrorAsync(Promise.reject(new CodedError("A")), isCoded)).toMatchObject({ code: "A" });
    expect(await catchErrorAsync(async () => Promise.reject(new CodedError("B")))).toMatchObject({
      code: "B",
    });
  });

  it("fails when the promise resolves", async () => {
    await expect(catchErrorAsync(Promise.resolve(1))).rejects.toThrow(/resolved/);
  });

  it("rethrows a rejection the guard rejects", async () => {
    await expect(catchErrorAsync(Promise.reject(new TypeError("t")), isCoded)).rejects.toThrow(TypeError);
  });
});

describe("thrownCode and rejectionCode", () => {
  it("read the code of what was thrown, and undefined without one", async () => {
    expect(
      thrownCode(() => {
        throw new CodedError("FILE_UNSAFE");
      }),
    ).toBe("FILE_UNSAFE");
    expect(
      thrownCode(() => {
        throw "plain";
      }),
    ).toBeUndefined();
    expect(await rejectionCode(Promise.reject(Object.assign(new Error("e"), { code: "ENOENT" })))).toBe(
      "ENOENT",
    );
  });

  it("fail when nothing is thrown", async () => {
    expect(() => thrownCode(() => undefined)).toThrow();
    await expect(rejectionCode(Promise.resolve())).rejects.toThrow();
  });
});
