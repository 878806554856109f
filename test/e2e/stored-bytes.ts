/** What a store holds, for tests that prove a secret never reached it: every table, and the raw file bytes. */
import { Database } from "bun:sqlite";
import { existsSync, readFileSync } from "node:fs";

/** Every table's rows as text, plus the raw bytes of the file and its WAL/SHM after a checkpoint. */
export function everythingStored(dbPath: string): { rows: string; bytes: string } {
  const db = new Database(dbPath);
  db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  const tables = db.query<{ name: string }, []>(`SELECT name FROM sqlite_master WHERE type = 'table'`).all();
  const rows = tables.map((t) => JSON.stringify(db.query(`SELECT * FROM "${t.name}"`).all())).join("\n");
  db.close();
  const bytes = [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]
    .filter(existsSync)
    .map((p) => readFileSync(p).toString("latin1"))
    .join("\n");
  return { rows, bytes };
}
