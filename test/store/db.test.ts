import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { openStore } from "../../src/store/db.ts";
import { SCHEMA_VERSION } from "../../src/store/migrations/index.ts";
import { mustOpen, tmpDir, tmpStorePath } from "./tmp.ts";

const mode = (p: string) => statSync(p).mode & 0o777;

describe("openStore: files and modes", () => {
  test("creates the directory 0700 and the file (and WAL/SHM) 0600", () => {
    const path = tmpStorePath();
    const store = mustOpen(path);
    store.runs.startRun({ tool: "route", cwd: "/tmp", prompt: "hi" }); // forces the WAL to exist
    expect(mode(dirname(path))).toBe(0o700);
    expect(mode(path)).toBe(0o600);
    expect(mode(`${path}-wal`)).toBe(0o600);
    expect(mode(`${path}-shm`)).toBe(0o600);
    store.close();
  });

  test("file mode is 0600 even under a permissive umask", () => {
    const old = process.umask(0);
    try {
      const path = tmpStorePath();
      mustOpen(path).close();
      expect(mode(path)).toBe(0o600);
      expect(mode(dirname(path))).toBe(0o700);
    } finally {
      process.umask(old);
    }
  });

  test("tightens an existing loose orchestrate/ directory and file", () => {
    const dir = join(tmpDir(), "orchestrate");
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const path = join(dir, "orchestrate.db");
    writeFileSync(path, "", { mode: 0o644 });
    chmodSync(path, 0o644);
    mustOpen(path).close();
    expect(mode(dir)).toBe(0o700);
    expect(mode(path)).toBe(0o600);
  });

  test("refuses a symlinked store file", () => {
    const dir = tmpDir();
    const real = join(dir, "real.db");
    mustOpen(real).close();
    const link = join(dir, "link.db");
    symlinkSync(real, link);
    const opened = openStore(link);
    expect(opened.ok).toBe(false);
    if (!opened.ok) expect(opened.error.code).toBe("store_unavailable");
  });

  test("an unusable path is store_unavailable, not a throw", () => {
    const dir = tmpDir();
    writeFileSync(join(dir, "file"), "");
    const opened = openStore(join(dir, "file", "sub", "x.db"));
    expect(opened.ok).toBe(false);
    if (!opened.ok) {
      expect(opened.error.code).toBe("store_unavailable");
      expect(opened.error.message).toContain("x.db");
    }
  });
});

describe("openStore: pragmas and migrations", () => {
  test("WAL, busy timeout, synchronous NORMAL, foreign keys", () => {
    const store = mustOpen(tmpStorePath());
    const get = (sql: string) => Object.values(store.db.query(sql).get() as Record<string, unknown>)[0];
    expect(get("PRAGMA journal_mode")).toBe("wal");
    expect(get("PRAGMA busy_timeout")).toBe(5000);
    expect(get("PRAGMA synchronous")).toBe(1);
    expect(get("PRAGMA foreign_keys")).toBe(1);
    store.close();
  });

  test("migrations are idempotent and data survives reopening", () => {
    const path = tmpStorePath();
    const first = mustOpen(path);
    const id = first.runs.startRun({ tool: "route", cwd: "/tmp", prompt: "keep me" });
    first.close();
    const second = mustOpen(path);
    const version = second.db.query<{ user_version: number }, []>("PRAGMA user_version").get();
    expect(version?.user_version).toBe(SCHEMA_VERSION);
    expect(second.runs.getRun(id)?.prompt).toBe("keep me");
    second.close();
    mustOpen(path).close();
  });

  test("a database newer than the binary is store_too_new and says to upgrade", () => {
    const path = tmpStorePath();
    mustOpen(path).close();
    const raw = new Database(path);
    raw.run(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    for (const readonly of [false, true]) {
      const opened = openStore(path, { readonly });
      expect(opened.ok).toBe(false);
      if (opened.ok) continue;
      expect(opened.error.code).toBe("store_too_new");
      expect(opened.error.message).toContain("Upgrade orchestrate");
    }
  });

  test("readonly: reads, refuses writes, and does not create a missing store", () => {
    const path = tmpStorePath();
    const missing = openStore(path, { readonly: true });
    expect(missing.ok).toBe(false);
    const writer = mustOpen(path);
    const id = writer.runs.startRun({ tool: "route", cwd: "/tmp", prompt: "p" });
    const reader = mustOpen(path, { readonly: true });
    expect(reader.runs.getRun(id)?.status).toBe("running");
    expect(() => reader.runs.startRun({ tool: "route", cwd: "/tmp", prompt: "x" })).toThrow();
    reader.close();
    writer.close();
    // After the last writer closed (WAL checkpointed and removed), the dashboard can still read.
    const later = mustOpen(path, { readonly: true });
    expect(later.runs.getRun(id)?.prompt).toBe("p");
    later.close();
  });
});
