// What a piece of code threw, for tests that assert an error's code rather than its message.

/** A check that the caught value is of the expected kind, such as `isSlashiError` from `@slashi/core`. */
export type ErrorGuard<T> = (error: unknown) => error is T;

/**
 * Runs `fn` and returns what it threw. It fails the test when `fn` returns normally, and rethrows a thrown value
 * that `guard` rejects, so an unexpected error shows itself instead of being compared away. It does not look at
 * the error's message or code: the test asserts those.
 * @param fn - the code expected to throw
 * @param guard - the kind of error expected; without one any thrown value is returned
 * @returns the thrown value
 */
export function catchError(fn: () => unknown): unknown;
export function catchError<T>(fn: () => unknown, guard: ErrorGuard<T>): T;
export function catchError<T>(fn: () => unknown, guard?: ErrorGuard<T>): unknown {
  try {
    fn();
  } catch (error) {
    return checked(error, guard);
  }
  throw new Error("expected an error, but nothing was thrown");
}

/**
 * Awaits `work` and returns what it rejected with; the asynchronous {@link catchError}. It fails the test when
 * `work` resolves.
 * @param work - a promise, or a function returning one, expected to reject
 * @param guard - the kind of error expected; without one any rejection is returned
 * @returns the rejection value
 */
export async function catchErrorAsync(work: Promise<unknown> | (() => Promise<unknown>)): Promise<unknown>;
export async function catchErrorAsync<T>(
  work: Promise<unknown> | (() => Promise<unknown>),
  guard: ErrorGuard<T>,
): Promise<T>;
export async function catchErrorAsync<T>(
  work: Promise<unknown> | (() => Promise<unknown>),
  guard?: ErrorGuard<T>,
): Promise<unknown> {
  try {
    await (typeof work === "function" ? work() : work);
  } catch (error) {
    return checked(error, guard);
  }
  throw new Error("expected a rejection, but the promise resolved");
}

/**
 * The `code` property of what `fn` throws (a `SlashiError`'s stable code, or a Node error's `ENOENT`), or
 * `undefined` when it throws a value without one. It fails the test when `fn` returns normally.
 */
export function thrownCode(fn: () => unknown): string | undefined {
  return codeOf(catchError(fn));
}

/** The asynchronous {@link thrownCode}: the `code` of what `work` rejects with. */
export async function rejectionCode(
  work: Promise<unknown> | (() => Promise<unknown>),
): Promise<string | undefined> {
  return codeOf(await catchErrorAsync(work));
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}

function checked<T>(error: unknown, guard: ErrorGuard<T> | undefined): unknown {
  if (guard && !guard(error)) throw error;
  return error;
}
