/**
 * Deleting history so that it is gone from the file, not only from queries: SQLite leaves freed
 * pages (and old WAL frames) holding the deleted text unless told otherwise, so deletes run with
 * `secure_delete` on (freed content is zeroed) and end with a best-effort WAL checkpoint.
 */
import type { Database } from "bun:sqlite";

/** Runs `remove` in one IMMEDIATE transaction with secure_delete on; returns what it returned. */
export function eraseRows<T>(db: Database, remove: () => T): T {
  db.run("PRAGMA secure_delete = ON");
  try {
    return db.transaction(remove).immediate();
  } finally {
    db.run("PRAGMA secure_delete = OFF");
    checkpoint(db);
  }
}

/** TRUNCATE empties the WAL when no other process is reading; otherwise the frames are reused later. */
function checkpoint(db: Database): void {
  try {
    db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  } catch {
    // Another server holds the file busy; its next checkpoint overwrites the frames.
  }
}

