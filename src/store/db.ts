/**
 * Opening the one SQLite file every orchestrate process on the machine shares: private modes set
 * before SQLite writes a byte, WAL so readers never block the writer, a busy timeout so several
 * servers queue instead of failing, and numbered migrations gated by `PRAGMA user_version`.
 */
import { Database } from "bun:sqlite";
import { chmodSync, closeSync, constants, fstatSync, fchmodSync, lstatSync, mkdirSync, openSync, statSync } from "node:fs";
import { basename, dirname } from "node:path";
import { log } from "../log.ts";
import { fail, ok, type Result } from "../result.ts";
import type { ContentPolicy } from "./content.ts";
import { createAskStore, type AskStore } from "./asks.ts";
import { createConsultationStore, type ConsultationStore } from "./consultations.ts";
import { createCooldownStore, type CooldownStore } from "./cooldowns.ts";
import { createQuotaStore, type QuotaStore } from "./quota.ts";
import { createJobStore, type JobStore } from "./jobs.ts";
import { MIGRATIONS, SCHEMA_VERSION } from "./migrations/index.ts";
import { createReviewStore, type ReviewStore } from "./reviews.ts";
import { createRunStore, type RunStore } from "./runs.ts";
import { APPLICATION_ID, hasSqliteHeader, ownershipOf } from "./ownership.ts";
import { corruptStore, isCorruption } from "./corrupt.ts";
import { createUsageStore, type UsageStore } from "./usage.ts";
import { createWorkflowStore, type WorkflowStore } from "./workflows.ts";
import { createBrowseStore, type BrowseStore } from "./browse/index.ts";
import { createSeriesStore, type SeriesStore } from "./series.ts";

export type StoreErrorCode = "store_unavailable" | "store_too_new" | "store_foreign" | "store_corrupt";

export interface OpenStoreOptions {
  /** store_full_content; false keeps metadata and routing only. Default true. */
  fullContent?: boolean;
  /** The dashboard's mode: no directory or file creation, no migrations, no writes. */
  readonly?: boolean;
}

export interface Store {
  db: Database;
  path: string;
  policy: ContentPolicy;
  runs: RunStore;
  cooldowns: CooldownStore;
  /** The last quota each execution identity reported, per window (migration 009). */
  quota: QuotaStore;
  consultations: ConsultationStore;
  jobs: JobStore;
  reviews: ReviewStore;
  workflows: WorkflowStore;
  usage: UsageStore;
  /** Seed 002's direct HTTP asks and their legs. */
  asks: AskStore;
  /** The dashboard's read-only listings and aggregates. */
  browse: BrowseStore;
  series: SeriesStore;
  close(): void;
}

export const BUSY_TIMEOUT_MS = 5000;

const UPGRADE_HINT = "Upgrade orchestrate (re-run install.sh, or rebuild it from a newer clone), or point ORCHESTRATE_DB at another file.";

export function openStore(path: string, opts: OpenStoreOptions = {}): Result<Store, StoreErrorCode> {
  const policy: ContentPolicy = { fullContent: opts.fullContent ?? true };
  let db: Database | undefined;
  // Absent is not a permissions problem: nothing has run yet, and the catch-all hint below would say otherwise.
  if (opts.readonly && !lstatSync(path, { throwIfNoEntry: false })) {
    return fail(
      "store_unavailable",
      `There is no orchestrate store at ${path} yet: nothing has run on this machine.`,
      "It is created by the first `orchestrate run`, consult or MCP session (and by `orchestrate dashboard`).",
    );
  }
  try {
    const foreign = opts.readonly ? undefined : refuseForeign(path);
    if (foreign) return foreign;
    db = opts.readonly ? openReadonly(path) : whileBusy(() => openWritable(path));
    const opened = db;
    const schema = opts.readonly ? checkReadonlySchema(db, path) : whileBusy(() => migrate(opened, path));
    if (!schema.ok) {
      db.close();
      return schema;
    }
    return ok(assemble(db, path, policy));
  } catch (error) {
    db?.close();
    const reason = error instanceof Error ? error.message : String(error);
    if (isCorruption(error)) return corruptStore(path, `SQLite: ${reason}`);
    return fail(
      "store_unavailable",
      `Cannot open the orchestrate store at ${path}: ${reason}`,
      "Check the path's permissions and free space, or set ORCHESTRATE_DB to another file.",
    );
  }
}

function assemble(db: Database, path: string, policy: ContentPolicy): Store {
  const jobs = createJobStore(db, policy);
  let closed = false;
  return {
    db,
    path,
    policy,
    runs: createRunStore(db, policy),
    cooldowns: createCooldownStore(db),
    quota: createQuotaStore(db),
    consultations: createConsultationStore(db, policy),
    jobs,
    reviews: createReviewStore(db, policy),
    workflows: createWorkflowStore(db, policy),
    usage: createUsageStore(db),
    asks: createAskStore(db, policy),
    browse: createBrowseStore(db),
    series: createSeriesStore(db),
    close() {
      if (closed) return;
      closed = true;
      try {
        jobs.flush();
      } finally {
        db.close();
      }
    },
  };
}

/** Another program's database is never opened for writing: not even WAL mode, which rewrites its header. */
function refuseForeign(path: string): Result<never, StoreErrorCode> | undefined {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat?.isFile()) return undefined;
  // Another program's database is still SQLite; bytes without its header are a damaged store.
  if (!hasSqliteHeader(path)) return corruptStore(path, "it does not start with SQLite's header");
  if (ownershipOf(path) !== "foreign") return undefined;
  return fail(
    "store_foreign",
    `${path} is not an orchestrate store (it belongs to another program, perhaps Orchestrator MCP's database_path); orchestrate left it untouched.`,
    "Remove store.path / database_path from the config to use orchestrate's own store, or point it at a new file. `orchestrate import` converts the other program's config; its history stays in that program.",
  );
}

/**
 * Runs an opening step again while SQLite answers "database is locked" without waiting: several
 * servers opening one new store at once race to switch it to WAL and to migrate it, and some of
 * those lock conflicts return at once instead of going through busy_timeout. Bounded by the same
 * timeout; a lock still held past it is the error it was.
 */
function whileBusy<T>(step: () => T): T {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      return step();
    } catch (error) {
      if (!isBusy(error) || Date.now() > deadline) throw error;
      Bun.sleepSync(10 + Math.floor(Math.random() * 20));
    }
  }
}

function isBusy(error: unknown): boolean {
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
  return code.startsWith("SQLITE_BUSY") || (error instanceof Error && /database is locked/.test(error.message));
}

function openWritable(path: string): Database {
  prepareDir(dirname(path));
  prepareFile(path);
  const db = new Database(path, { readwrite: true, create: true, strict: true });
  try {
    // busy_timeout first, so switching to WAL waits for a sibling process instead of failing.
    db.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const mode = db.query<{ journal_mode: string }, []>("PRAGMA journal_mode = WAL").get();
    if (mode?.journal_mode.toLowerCase() !== "wal") throw new Error(`the file refused WAL mode (got ${mode?.journal_mode ?? "nothing"})`);
    db.run("PRAGMA synchronous = NORMAL");
    db.run("PRAGMA foreign_keys = ON");
    // For every write, not only deletes: an UPDATE frees the row's old copy (a prompt, partial
    // output), and without this that copy stays in the page's free space after the row is erased.
    db.run("PRAGMA secure_delete = ON");
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

function openReadonly(path: string): Database {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat?.isFile()) throw new Error("not a regular file");
  const db = new Database(path, { readonly: true, strict: true });
  db.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  return db;
}

/** 0700, created if missing. An existing looser directory is tightened only when it is ours by
 * name and owner; a custom ORCHESTRATE_DB in a shared folder is left alone (the file is 0600). */
function prepareDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = statSync(dir);
  if ((stat.mode & 0o077) === 0) return;
  if (basename(dir) === "orchestrate" && stat.uid === process.getuid?.()) {
    chmodSync(dir, 0o700);
    return;
  }
  log.warn(`orchestrate store directory ${dir} is readable by others (mode ${(stat.mode & 0o777).toString(8)}); the store file itself is 0600`);
}

/** Create the file 0600 before SQLite touches it (SQLite would use 0644 & ~umask); WAL and SHM
 * files inherit the database file's mode. A symlink or a file owned by someone else is refused. */
function prepareFile(path: string): void {
  const existing = lstatSync(path, { throwIfNoEntry: false });
  if (existing?.isSymbolicLink()) throw new Error("the store path is a symlink; point ORCHESTRATE_DB at the real file");
  if (existing && !existing.isFile()) throw new Error("the store path is not a regular file");
  const fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  try {
    const stat = fstatSync(fd);
    const uid = process.getuid?.();
    if (uid !== undefined && stat.uid !== uid) throw new Error(`the store file is owned by uid ${stat.uid}, not you`);
    if ((stat.mode & 0o077) !== 0) fchmodSync(fd, 0o600);
  } finally {
    closeSync(fd);
  }
  for (const side of [`${path}-wal`, `${path}-shm`]) tightenSideFile(side);
}

function tightenSideFile(path: string): void {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat?.isFile() || (stat.mode & 0o077) === 0 || stat.uid !== process.getuid?.()) return;
  chmodSync(path, 0o600);
}

function applicationId(db: Database): number {
  return db.query<{ application_id: number }, []>("PRAGMA application_id").get()?.application_id ?? 0;
}

function userVersion(db: Database): number {
  return db.query<{ user_version: number }, []>("PRAGMA user_version").get()?.user_version ?? 0;
}

function tooNew(path: string, found: number): Result<never, StoreErrorCode> {
  return fail(
    "store_too_new",
    `The store at ${path} was written by a newer orchestrate (schema ${found}; this binary knows up to ${SCHEMA_VERSION}). Upgrade orchestrate to use it.`,
    UPGRADE_HINT,
  );
}

/**
 * Apply pending migrations in one IMMEDIATE transaction: the write lock is taken before the
 * version is re-read, so when two servers start at once the second sees the first's result and
 * applies nothing.
 */
function migrate(db: Database, path: string): Result<void, StoreErrorCode> {
  const seen = userVersion(db);
  if (seen > SCHEMA_VERSION) return tooNew(path, seen);
  // A store from before the mark (its tables checked by ownershipOf) is marked on first sight.
  if (seen === SCHEMA_VERSION) {
    if (applicationId(db) !== APPLICATION_ID) db.run(`PRAGMA application_id = ${APPLICATION_ID}`);
    return ok(undefined);
  }
  const apply = db.transaction((): number => {
    const current = userVersion(db);
    if (current >= SCHEMA_VERSION) return current;
    for (const m of MIGRATIONS) if (m.version > current) db.run(m.sql);
    db.run(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.run(`PRAGMA application_id = ${APPLICATION_ID}`);
    log.debug(`orchestrate store ${path}: migrated schema ${current} → ${SCHEMA_VERSION}`);
    return SCHEMA_VERSION;
  });
  const version = apply.immediate();
  return version > SCHEMA_VERSION ? tooNew(path, version) : ok(undefined);
}

function checkReadonlySchema(db: Database, path: string): Result<void, StoreErrorCode> {
  const version = userVersion(db);
  if (version > SCHEMA_VERSION) return tooNew(path, version);
  if (version < SCHEMA_VERSION) {
    return fail(
      "store_unavailable",
      `The store at ${path} is at schema ${version}; this orchestrate needs ${SCHEMA_VERSION}.`,
      "Start the orchestrate server once (it migrates the store), then retry.",
    );
  }
  return ok(undefined);
}
