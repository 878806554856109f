/**
 * Durable background jobs for long runs. The owning server process writes progress and a bounded,
 * redacted tail of the delegate's output; any process can read them, and a server that starts
 * after another died marks that server's jobs failed (`server_died`) with their output kept.
 */
import type { Database } from "bun:sqlite";
import { redact, redactDeep } from "../safety/redact.ts";
import { metaText, parseJson, storedJson, type ContentPolicy } from "./content.ts";
import { eraseRows } from "./erase.ts";
import { newId } from "./ids.ts";

export type JobKind = "route" | "consult" | "review" | "workflow_step" | "ask";
export type JobStatus = "running" | "ok" | "failed" | "cancelled";

/** Stored tail of partial output, in characters. */
export const PARTIAL_TAIL_CHARS = 64 * 1024;
/** An unterminated line is held in memory (not stored) up to this size, so a secret split across
 * two appends is redacted whole rather than as two harmless-looking halves. */
const HOLD_MAX_CHARS = 8 * 1024;
/** On append, this much of the stored tail is redacted again with the new text, so a PEM block
 * that arrived over several lines is caught once its END line lands. */
const REDACT_WINDOW_CHARS = 8 * 1024;
/** Jobs whose content this process keeps in memory under metadata-only storage. */
const LOCAL_JOBS_MAX = 64;

export interface CreateJobInput {
  id?: string;
  kind: JobKind;
  /** The tool arguments; stored redacted (and without content under metadata-only). */
  args: unknown;
  ownerPid?: number;
  /** Start time of the owner process (ms), so a reused pid is not mistaken for the owner. */
  ownerStartedAt: number;
  now?: number;
}

export interface FinishJobInput {
  status: Exclude<JobStatus, "running">;
  result?: unknown;
  errorCode?: string;
  errorMessage?: string;
  treeChanged?: boolean | null;
  now?: number;
}

export interface JobSummary {
  id: string;
  kind: JobKind;
  status: JobStatus;
  ownerPid: number;
  ownerStartedAt: number;
  args: unknown;
  progress: string | null;
  /** Total characters of partial output ever appended (the stored text is a bounded tail). */
  partialLength: number;
  errorCode: string | null;
  errorMessage: string | null;
  treeChanged: boolean | null;
  createdAt: number;
  updatedAt: number;
}

export interface JobRecord extends JobSummary {
  partialOutput: string | null;
  result: unknown;
}

/** `olderThan`: only jobs created before this time (ms). Running jobs are never bulk-deleted. */
export interface JobFilter {
  olderThan?: number;
}

export interface JobStore {
  create(input: CreateJobInput): string;
  appendPartial(id: string, text: string): void;
  setProgress(id: string, text: string, now?: number): void;
  /** false when the job is unknown or already finished (the first finish wins). */
  finish(id: string, input: FinishJobInput): boolean;
  get(id: string): JobRecord | undefined;
  list(opts?: { limit?: number; status?: JobStatus }): JobSummary[];
  /** Marks running jobs whose owner is dead as failed/server_died; returns their ids. */
  reconcileOrphans(isAlive: (pid: number, startedAt: number) => boolean, now?: number): string[];
  /** Writes any held-back partial line; called by Store.close(). */
  flush(): void;
  /** Finished jobs matching the filter. */
  count(filter?: JobFilter): number;
  /** One finished job; a job still running is left alone. */
  delete(id: string): "deleted" | "not_found" | "running";
  /** Every finished job matching the filter; returns how many went. */
  deleteAll(filter?: JobFilter): number;
}

interface JobRow {
  id: string;
  kind: JobKind;
  status: JobStatus;
  owner_pid: number;
  owner_started_at: number;
  args_json: string;
  progress: string | null;
  partial_output: string | null;
  partial_len: number;
  result_json: string | null;
  error_code: string | null;
  error_message: string | null;
  tree_changed: number | null;
  created_at: number;
  updated_at: number;
}

/** What this process knows beyond the file: held-back lines, and content under metadata-only. */
interface LocalJob {
  held: string;
  tail: string;
  result?: unknown;
}

const SUMMARY_COLUMNS = `id, kind, status, owner_pid, owner_started_at, args_json, progress, partial_len,
  error_code, error_message, tree_changed, created_at, updated_at`;

export function createJobStore(db: Database, policy: ContentPolicy): JobStore {
  const local = new Map<string, LocalJob>();

  function localJob(id: string): LocalJob {
    const found = local.get(id);
    if (found) return found;
    const fresh: LocalJob = { held: "", tail: "" };
    local.set(id, fresh);
    evictLocal(local);
    return fresh;
  }

  const writeChunk = db.transaction((id: string, chunk: string, now: number) => {
    const row = db.query<{ partial_output: string | null }, { id: string }>(`SELECT partial_output FROM jobs WHERE id = $id`).get({ id });
    if (!row) return;
    const tail = policy.fullContent ? appendRedacted(row.partial_output ?? "", chunk) : null;
    db.query(`UPDATE jobs SET partial_output = $tail, partial_len = partial_len + $added, updated_at = $now WHERE id = $id`).run({
      id,
      tail,
      added: chunk.length,
      now,
    });
  });

  function storeChunk(id: string, chunk: string): void {
    writeChunk.immediate(id, chunk, Date.now());
    // Metadata-only: the text never reaches the file, but this process can still show it.
    if (!policy.fullContent) localJob(id).tail = appendRedacted(localJob(id).tail, chunk);
  }

  function flushJob(id: string, job: LocalJob): void {
    if (job.held === "") return;
    const chunk = job.held;
    job.held = "";
    storeChunk(id, chunk);
  }

  return {
    create(input) {
      const now = input.now ?? Date.now();
      const id = input.id ?? newId(now);
      db.query(
        `INSERT INTO jobs (id, kind, status, owner_pid, owner_started_at, args_json, created_at, updated_at)
         VALUES ($id, $kind, 'running', $pid, $startedAt, $args, $now, $now)`,
      ).run({ id, kind: input.kind, pid: input.ownerPid ?? process.pid, startedAt: input.ownerStartedAt, args: storedJson(input.args, policy), now });
      return id;
    },

    appendPartial(id, text) {
      const job = localJob(id);
      const [now, hold] = splitHeld(job.held + text);
      job.held = hold;
      if (now !== "") storeChunk(id, now);
    },

    setProgress(id, text, now = Date.now()) {
      db.query(`UPDATE jobs SET progress = $progress, updated_at = $now WHERE id = $id`).run({ id, progress: metaText(text), now });
    },

    finish(id, input) {
      const job = local.get(id);
      if (job) flushJob(id, job);
      if (input.result !== undefined && !policy.fullContent) localJob(id).result = redactDeep(input.result);
      const changes = db
        .query(
          `UPDATE jobs SET status = $status, result_json = $result, error_code = $errorCode, error_message = $errorMessage,
             tree_changed = $treeChanged, updated_at = $now
           WHERE id = $id AND status = 'running'`,
        )
        .run({
          id,
          status: input.status,
          result: input.result === undefined ? null : storedJson(input.result, policy),
          errorCode: input.errorCode ?? null,
          errorMessage: metaText(input.errorMessage),
          treeChanged: input.treeChanged === undefined || input.treeChanged === null ? null : input.treeChanged ? 1 : 0,
          now: input.now ?? Date.now(),
        }).changes;
      return changes > 0;
    },

    get(id) {
      const row = db.query<JobRow, { id: string }>(`SELECT * FROM jobs WHERE id = $id`).get({ id });
      if (!row) return undefined;
      return withLocal(toRecord(row), local.get(id));
    },

    list({ limit = 50, status } = {}) {
      const rows =
        status === undefined
          ? db.query<JobRow, { limit: number }>(`SELECT ${SUMMARY_COLUMNS} FROM jobs ORDER BY created_at DESC, id DESC LIMIT $limit`).all({ limit })
          : db
              .query<JobRow, { limit: number; status: JobStatus }>(
                `SELECT ${SUMMARY_COLUMNS} FROM jobs WHERE status = $status ORDER BY created_at DESC, id DESC LIMIT $limit`,
              )
              .all({ limit, status });
      return rows.map(toSummary);
    },

    reconcileOrphans(isAlive, now = Date.now()) {
      const running = db
        .query<{ id: string; owner_pid: number; owner_started_at: number }, []>(`SELECT id, owner_pid, owner_started_at FROM jobs WHERE status = 'running'`)
        .all();
      const dead = running.filter((j) => !isAlive(j.owner_pid, j.owner_started_at));
      const mark = db.query(
        `UPDATE jobs SET status = 'failed', error_code = 'server_died', error_message = $message, updated_at = $now
         WHERE id = $id AND status = 'running'`,
      );
      const message = "The orchestrate server that owned this job exited before it finished; its partial output is kept. Start the work again.";
      return dead.filter((j) => mark.run({ id: j.id, message, now }).changes > 0).map((j) => j.id);
    },

    flush() {
      for (const [id, job] of local) flushJob(id, job);
    },

    count({ olderThan } = {}) {
      const row = db
        .query<{ n: number }, { cutoff: number | null }>(`SELECT count(*) AS n FROM jobs WHERE ${JOB_FINISHED_BEFORE}`)
        .get({ cutoff: olderThan ?? null });
      return row?.n ?? 0;
    },

    delete(id) {
      const row = db.query<{ status: JobStatus }, { id: string }>(`SELECT status FROM jobs WHERE id = $id`).get({ id });
      if (!row) return "not_found";
      if (row.status === "running") return "running";
      local.delete(id);
      return eraseRows(db, () => db.query(`DELETE FROM jobs WHERE id = $id AND status != 'running'`).run({ id }).changes) > 0 ? "deleted" : "not_found";
    },

    deleteAll({ olderThan } = {}) {
      const params = { cutoff: olderThan ?? null };
      const gone = db.query<{ id: string }, { cutoff: number | null }>(`SELECT id FROM jobs WHERE ${JOB_FINISHED_BEFORE}`).all(params);
      for (const { id } of gone) local.delete(id);
      return eraseRows(db, () => db.query(`DELETE FROM jobs WHERE ${JOB_FINISHED_BEFORE}`).run(params).changes);
    },
  };
}

const JOB_FINISHED_BEFORE = `status != 'running' AND ($cutoff IS NULL OR created_at < $cutoff)`;

/**
 * Deletes finished jobs whose arguments or result name one of the records `idsSql` selects (a
 * consultation id at `$.consultation_id`, a run id at `$.runId`): a job row carries the same prompt
 * and answer, so deleting the record must take it too. Called inside the caller's transaction.
 */
export function removeJobsNaming(
  db: Database,
  jsonPath: "$.consultation_id" | "$.runId" | "$.review_id",
  idsSql: string,
  params: Record<string, string | number | null>,
): number {
  const ref = (column: string) => `CASE WHEN json_valid(${column}) THEN json_extract(${column}, '${jsonPath}') END`;
  return db.query(`DELETE FROM jobs WHERE status != 'running' AND (${ref("result_json")} IN (${idsSql}) OR ${ref("args_json")} IN (${idsSql}))`).run(params)
    .changes;
}

/** [text to store now, text to hold]: complete lines go now; an unterminated line waits. */
function splitHeld(text: string): [string, string] {
  const cut = text.lastIndexOf("\n") + 1;
  if (cut > 0) return [text.slice(0, cut), text.slice(cut)];
  if (text.length > HOLD_MAX_CHARS) return [text, ""];
  return ["", text];
}

/** Append to an already-redacted tail, re-redacting the seam, and keep the bounded tail. */
function appendRedacted(tail: string, chunk: string): string {
  const keep = tail.slice(0, Math.max(0, tail.length - REDACT_WINDOW_CHARS));
  const seam = tail.slice(keep.length);
  return (keep + redact(seam + chunk)).slice(-PARTIAL_TAIL_CHARS);
}

function evictLocal(local: Map<string, LocalJob>): void {
  for (const id of local.keys()) {
    if (local.size <= LOCAL_JOBS_MAX) return;
    local.delete(id);
  }
}

function withLocal(record: JobRecord, job: LocalJob | undefined): JobRecord {
  if (!job) return record;
  const stored = record.partialOutput ?? job.tail;
  const held = job.held === "" ? "" : redact(job.held);
  const partial = stored + held;
  return {
    ...record,
    partialOutput: partial === "" ? record.partialOutput : partial.slice(-PARTIAL_TAIL_CHARS),
    result: job.result ?? record.result,
  };
}

function toSummary(r: JobRow): JobSummary {
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    ownerPid: r.owner_pid,
    ownerStartedAt: r.owner_started_at,
    args: parseJson(r.args_json),
    progress: r.progress,
    partialLength: r.partial_len,
    errorCode: r.error_code,
    errorMessage: r.error_message,
    treeChanged: r.tree_changed === null ? null : r.tree_changed === 1,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toRecord(r: JobRow): JobRecord {
  return { ...toSummary(r), partialOutput: r.partial_output, result: parseJson(r.result_json) };
}
