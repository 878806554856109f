/**
 * A damaged store file. SQLite says SQLITE_CORRUPT ("database disk image is malformed") or
 * SQLITE_NOTADB; a file at the store path without SQLite's header is no database at all. Each was
 * reported as something it is not — a permissions problem, another program's database, an internal
 * error — which sent the person to the wrong fix. No imports: the MCP layer checks a thrown error
 * with this on its error path without loading the store.
 */
import { fail, type Failure } from "../result.ts";

/** True for SQLite's own word that the file is damaged or not a database. */
export function isCorruption(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CORRUPT" || code === "SQLITE_NOTADB" || (typeof code === "string" && code.startsWith("SQLITE_CORRUPT_"));
}

/** What the person is told: which file, that orchestrate wrote nothing to it, and how to go on. */
export function corruptStore(path: string | undefined, detail: string): { ok: false; error: Failure<"store_corrupt"> } {
  const where = path ? `The orchestrate store at ${path}` : "The orchestrate store";
  const file = path ?? "the store file (`orchestrate check` shows its path)";
  return fail(
    "store_corrupt",
    `${where} is damaged (${detail}). orchestrate did not write to it.`,
    `Move ${file} aside together with its -wal and -shm files (orchestrate then starts a new store), or set ORCHESTRATE_DB to another file; \`sqlite3 <old file> .recover\` may save the old rows.`,
  );
}
