/**
 * Deleting history so that it is gone from the file, not only from queries: SQLite leaves freed
 * pages (and old WAL frames) holding the deleted text unless told otherwise. The writing connection
 * runs with `secure_delete` on from the moment it opens (store/db.ts), so every freed copy — of a
 * deleted row, and of each earlier version an UPDATE replaced — is zeroed; a delete is one
 * IMMEDIATE transaction, then a best-effort WAL checkpoint empties the WAL of the old frames.
 */
import type { Database } from "bun:sqlite";

/** Runs `remove` in one IMMEDIATE transaction (secure_delete is on for the connection); returns what it returned. */
export function eraseRows<T>(db: Database, remove: () => T): T {
  db.run("PRAGMA secure_delete = ON");
  try {
    return db.transaction(remove).immediate();
  } finally {
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
