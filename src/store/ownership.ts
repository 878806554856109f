/**
 * Whether a database file is orchestrate's own, decided from its bytes before SQLite opens it for
 * writing: switching a file to WAL, or migrating it, rewrites its header, so another program's
 * database (a seed-001 config names Orchestrator MCP's own `database_path`) must be recognised
 * first and left byte-identical. orchestrate marks every store it creates with
 * `PRAGMA application_id`; stores from before the mark are recognised by their exact table set.
 */
import { Database } from "bun:sqlite";
import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** "ORCH": the application_id of every store orchestrate creates. */
export const APPLICATION_ID = 0x4f524348;

/** The tables of migration 001: a pre-mark orchestrate store has exactly these. */
const OWN_TABLES = ["attempts", "consultations", "cooldowns", "jobs", "runs", "turns", "usage"];
const MAGIC = "SQLite format 3\0";

export type Ownership = "new" | "ours" | "ours-unmarked" | "foreign";

interface Header {
  pages: number;
  userVersion: number;
  applicationId: number;
}

export function ownershipOf(path: string): Ownership {
  const header = readHeader(path);
  if (header === "empty") return "new";
  if (header === "not-sqlite") return "foreign";
  if (header.applicationId === APPLICATION_ID) return "ours";
  if (header.applicationId !== 0) return "foreign";
  // Only the header page, version 0: a file orchestrate created and never got to migrate.
  if (header.userVersion === 0 && header.pages <= 1) return "new";
  if (header.userVersion === 0) return "foreign";
  return hasOnlyOwnTables(path) ? "ours-unmarked" : "foreign";
}

/** An empty file (a store not yet written) or one that starts with SQLite's magic. */
export function hasSqliteHeader(path: string): boolean {
  return readHeader(path) !== "not-sqlite";
}

function readHeader(path: string): Header | "empty" | "not-sqlite" {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(100);
    const read = readSync(fd, buf, 0, 100, 0);
    if (read === 0) return "empty";
    if (read < 100 || buf.toString("latin1", 0, 16) !== MAGIC) return "not-sqlite";
    return { pages: buf.readUInt32BE(28), userVersion: buf.readUInt32BE(60), applicationId: buf.readUInt32BE(68) };
  } finally {
    closeSync(fd);
  }
}

/** Reads the schema from a private copy, so not even a lock or a -shm file touches the original. */
function hasOnlyOwnTables(path: string): boolean {
  const dir = mkdtempSync(join(tmpdir(), "orchestrate-probe-"));
  try {
    const copy = join(dir, "probe.db");
    copyFileSync(path, copy);
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
    const db = new Database(copy, { readwrite: true, strict: true });
    try {
      const names = db
        .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .all()
        .map((r) => r.name);
      return names.length === OWN_TABLES.length && names.every((n, i) => n === OWN_TABLES[i]);
    } finally {
      db.close();
    }
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface StoreChoice {
  path: string;
  /** Set when the configured file belonged to another program and orchestrate's own store is used instead. */
  notice?: string;
}

/** The configured store path, unless it holds another program's database: then orchestrate's own. */
export function chooseStorePath(configured: string | undefined, ownDefault: string): StoreChoice {
  if (configured === undefined || configured === ownDefault) return { path: ownDefault };
  const exists = existsSync(configured);
  if (!exists || ownershipOf(configured) !== "foreign") return { path: configured };
  return {
    path: ownDefault,
    notice: `${configured} (store.path / database_path) holds another program's database — perhaps Orchestrator MCP's — so orchestrate left it byte-identical and keeps its history in ${ownDefault}. Remove the key or point it at a new file to silence this; \`orchestrate import\` converts that program's config, its history stays with it.`,
  };
}
