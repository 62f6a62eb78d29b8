import { describe, expect, it } from "vitest";
import { catchInternal, toolError } from "./results.js";

describe("toolError", () => {
  it("marks the result as an error with a stable code, the message and the reasons as text", () => {
    const result = toolError("SAFETY_DENIED", "no", {
      reasons: [{ code: "rm.recursive-root", severity: "deny", message: "removes /" }],
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      status: "refused",
      code: "SAFETY_DENIED",
      message: "no",
    });
    expect(JSON.stringify(result.content)).toContain("deny rm.recursive-root: removes /");
  });
});

describe("catchInternal", () => {
  it("turns an exception into INTERNAL_ERROR and logs it", async () => {
    const logged: string[] = [];
    const handler = catchInternal(
      "check_command",
      (m) => logged.push(m),
      async () => {
        throw new Error("boom");
      },
    );
    const result = await handler();
    expect(result).toMatchObject({ isError: true, structuredContent: { code: "INTERNAL_ERROR" } });
    expect(logged[0]).toContain("error in check_command: Error: boom");
  });

  it("passes a normal result through", async () => {
    const handler = catchInternal(
      "x",
      () => undefined,
      async (n: number) => ({ content: [], n }),
    );
    expect(await handler(3)).toEqual({ content: [], n: 3 });
  });
});
