/** orchestrate opens only databases it created: another program's file is left byte-identical. */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { openStore } from "../../src/store/db.ts";
import { APPLICATION_ID, ownershipOf } from "../../src/store/ownership.ts";
import init001 from "../../src/store/migrations/001_init.sql" with { type: "text" };
import { mustOpen, tmpDir, tmpStorePath } from "./tmp.ts";

function appId(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return db.query<{ application_id: number }, []>("PRAGMA application_id").get()?.application_id ?? -1;
  } finally {
    db.close();
  }
}

/** Orchestrator MCP's own database, as a seed-001 config's database_path names it. */
function foreignDb(): string {
  const path = join(tmpDir(), "orchestrator.db");
  const db = new Database(path, { create: true });
  db.run("CREATE TABLE consultations (id TEXT PRIMARY KEY, agent TEXT)");
  db.run("CREATE TABLE reviews (id TEXT PRIMARY KEY)");
  db.run("INSERT INTO consultations VALUES ('c1', 'codex')");
  db.close();
  return path;
}

describe("store ownership", () => {
  test("another program's database is refused and left byte-identical (mode and WAL files too)", () => {
    const path = foreignDb();
    const before = readFileSync(path);
    const modeBefore = statSync(path).mode;
    const opened = openStore(path);
    expect(opened.ok).toBe(false);
    if (!opened.ok) expect(opened.error.code).toBe("store_foreign");
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(statSync(path).mode).toBe(modeBefore);
    expect(existsSync(`${path}-wal`)).toBe(false);
    expect(existsSync(`${path}-shm`)).toBe(false);
  });

  test("a file that is not SQLite at all is foreign, never overwritten", () => {
    const path = join(tmpDir(), "notes.db");
    writeFileSync(path, "my notes, not a database\n".repeat(10));
    expect(ownershipOf(path)).toBe("foreign");
    expect(openStore(path).ok).toBe(false);
    expect(readFileSync(path, "utf8")).toStartWith("my notes");
  });

  test("a store orchestrate creates is marked with its application_id, and reopens as its own", () => {
    const path = tmpStorePath();
    mustOpen(path).close();
    expect(appId(path)).toBe(APPLICATION_ID);
    expect(ownershipOf(path)).toBe("ours");
    mustOpen(path).close();
  });

  test("a store from before the mark (exactly orchestrate's tables) is adopted and marked", () => {
    const path = tmpStorePath();
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const db = new Database(path, { create: true });
    db.run(init001);
    db.run("PRAGMA user_version = 1");
    db.close();
    expect(ownershipOf(path)).toBe("ours-unmarked");
    const store = mustOpen(path);
    expect(store.runs.startRun({ tool: "route", cwd: "/tmp", prompt: "x" })).toBeString();
    store.close();
    expect(appId(path)).toBe(APPLICATION_ID);
  });

  test("an unmarked database with version 1 but other tables is foreign", () => {
    const path = foreignDb();
    const db = new Database(path);
    db.run("PRAGMA user_version = 1");
    db.close();
    expect(ownershipOf(path)).toBe("foreign");
  });

  test("an empty file (or one with only SQLite's header page) is new", () => {
    const path = join(tmpDir(), "empty.db");
    writeFileSync(path, "");
    expect(ownershipOf(path)).toBe("new");
    const headerOnly = join(tmpDir(), "header.db");
    const db = new Database(headerOnly, { create: true });
    db.run("PRAGMA journal_mode = WAL");
    db.close();
    expect(ownershipOf(headerOnly)).toBe("new");
    mustOpen(headerOnly).close();
  });
});
