/**
 * Takes a store back to what an older orchestrate left on disk, so migration tests start from a
 * real old schema. One undo per migration, newest first: a new migration without an entry here
 * fails every migration test with a message naming it (test/store/rewind.test.ts), instead of a
 * "table already exists" deep inside openStore.
 */
import type { Database } from "bun:sqlite";
import { SCHEMA_VERSION } from "../../src/store/migrations/index.ts";

const UNDO: Readonly<Record<number, string>> = {
  10: "ALTER TABLE usage DROP COLUMN cost_estimated",
  9: "DROP TABLE quota",
  8: "ALTER TABLE cooldowns DROP COLUMN heals",
  7: "DROP INDEX runs_status_started; DROP INDEX jobs_kind_created; DROP INDEX jobs_created; CREATE INDEX jobs_created ON jobs (created_at DESC)",
  6: "DROP TABLE ask_legs; DROP TABLE asks",
  5: "DROP TRIGGER usage_hourly_add; DROP TRIGGER usage_hourly_remove; DROP TABLE usage_hourly; DROP INDEX workflows_attention; DROP INDEX attempts_agent_created; DROP INDEX runs_id_started; ALTER TABLE usage DROP COLUMN tier",
};

/** The migrations this helper can undo; rewind.test.ts checks it covers every one above 4. */
export const UNDOABLE: readonly number[] = Object.keys(UNDO).map(Number);

/** Undo every migration above `version` on an open database and set its user_version. */
export function rewindSchema(db: Database, version: number): void {
  for (let v = SCHEMA_VERSION; v > version; v--) {
    const undo = UNDO[v];
    if (undo === undefined) throw new Error(`test/store/rewind.ts has no undo for migration ${v}: add one`);
    db.run(undo);
  }
  db.run(`PRAGMA user_version = ${version}`);
}
