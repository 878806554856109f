/**
 * History writes made after the work ran (a delegate answered, a provider replied): a store that
 * refuses them (disk full, read-only file) must not cost the caller the answer in hand, and must not
 * leave a row `running`. One call's writes go through one ledger: a write the store refuses is kept,
 * with every write after it, in order, and retried until the store takes them; the caller is told
 * `store_unavailable` in a notice beside the answer (docs/design.md, "Secrets and the store").
 */
import { log } from "../../log.ts";

/** Between tries of writes the store refused: until it takes them. */
const RETRY_MS = 2000;

export interface StoreLedger {
  /** Runs the write now, or queues it behind an earlier refused one; never throws. */
  write(write: () => void): void;
  /** The first refusal, when there was one. */
  lost(): string | undefined;
  /** `store_unavailable: …` for the caller, when a write was refused; undefined otherwise. */
  notice(): string | undefined;
}

/** A ledger for one call; `label` names it in the stderr log (e.g. "consult 01J…"). */
export function storeLedger(label: string): StoreLedger {
  const queue: (() => void)[] = [];
  let first: string | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  const drain = (): void => {
    while (queue.length > 0) {
      try {
        (queue[0] as () => void)();
      } catch {
        return;
      }
      queue.shift();
    }
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  return {
    write: (write) => {
      if (queue.length > 0) {
        queue.push(write);
        return;
      }
      try {
        write();
      } catch (error) {
        const reason = storeReason(error);
        first ??= reason;
        log.error(`${label}: the history store could not be written: ${reason}; retrying every ${RETRY_MS / 1000} s`);
        queue.push(write);
        timer = setInterval(drain, RETRY_MS);
        timer.unref();
      }
    },
    lost: () => first,
    notice: () => (first === undefined ? undefined : storeNotice(first)),
  };
}

export function storeNotice(reason: string): string {
  return `store_unavailable: the history store could not be written (${reason}); this answer is here but not yet in the history, and its record may show as running until the store takes writes again.`;
}

/** The SQLite code (SQLITE_FULL, SQLITE_READONLY, …) and message of a store error. */
export function storeReason(error: unknown): string {
  const code = sqliteCode(error);
  return `${code ? `${code}: ` : ""}${error instanceof Error ? error.message : String(error)}`;
}

/** True for an error SQLite raised (bun:sqlite's SQLiteError carries a SQLITE_* code). */
export function isStoreError(error: unknown): boolean {
  return sqliteCode(error) !== undefined || (error instanceof Error && error.name === "SQLiteError");
}

function sqliteCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error) || typeof error.code !== "string") return undefined;
  return error.code.startsWith("SQLITE_") ? error.code : undefined;
}
