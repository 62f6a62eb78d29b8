/**
 * Holding audit writes back until the caller knows the work counted. A long-lived process that answers on
 * behalf of another (the CLI's decision service) runs a request inside {@link holdAuditWrites}: every
 * {@link AuditLog.append} made during it is kept instead of written, and is written only when the caller
 * commits. When the requester gave up and answers by itself instead, the held records are dropped, so the
 * log holds each decision once.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** A write kept for later. */
type HeldWrite = () => Promise<unknown>;

const store = new AsyncLocalStorage<HeldWrite[]>();

/** The writes held by the request this code runs for, or `undefined` when writes go straight to the log. */
export function heldAuditWrites(): HeldWrite[] | undefined {
  return store.getStore();
}

/** What {@link holdAuditWrites} hands back: the work's result and the held writes. */
export interface HeldAudit<T> {
  /** What the work returned. */
  result: T;
  /** How many audit records are held. */
  readonly count: number;
  /** Writes the held records, in the order they were appended (each write's failure is its own, as before). */
  commit(): Promise<void>;
}

/**
 * Runs `work` with its audit appends held back (they report success to the work and are written on commit).
 * Not committing drops them.
 */
export async function holdAuditWrites<T>(work: () => Promise<T>): Promise<HeldAudit<T>> {
  const held: HeldWrite[] = [];
  const result = await store.run(held, work);
  return {
    result,
    get count() {
      return held.length;
    },
    async commit() {
      for (const write of held.splice(0)) await write();
    },
  };
}
