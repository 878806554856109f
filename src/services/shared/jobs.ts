/**
 * Durable jobs. Every long call runs as a job: its progress and partial output go to the store as
 * they happen, so a client that gave up (request timeout), a second server process, or a restart
 * can still see it. A job owned by this process can be awaited and cancelled here; one owned by a
 * process that died is reconciled to `failed` (server_died) with its partial output.
 *
 * This module knows the store and nothing above it: what a kind of job runs is services/jobs/kinds.ts,
 * and how its result reads as a tool answer is the MCP layer's (mcp/jobs/shaped.ts).
 */
import type { JobKind, JobRecord } from "../../store/jobs.ts";
import { ownerAlive } from "../../process/start-time.ts";
import { endOrphanGroups } from "../../process/group-records.ts";
import type { Store } from "../../store/db.ts";
import type { Result } from "../../result.ts";
import { log } from "../../log.ts";

/** All a job needs of the runtime (structural, so this module does not import services/shared/runtime.ts). */
export interface JobsRuntime {
  store: Pick<Store, "jobs" | "runs">;
}

/** job_wait never blocks longer than this: under the 60 s default request timeout of MCP clients. */
export const WAIT_CEILING_SEC = 50;
const PROGRESS_WRITE_MS = 1000;
/** Partial output is written in batches: one transaction (and one redaction pass) per flush. */
const OUTPUT_FLUSH_MS = 500;

/** How a finished piece of work is recorded: its status, and its error for the job row. */
export interface JobVerdict {
  status: "ok" | "failed" | "cancelled";
  errorCode?: string;
  errorMessage?: string;
  treeChanged?: boolean | null;
}

export interface JobWork<R> {
  kind: JobKind;
  /** The request, stored (redacted) with the job. */
  args: unknown;
  run: (hooks: JobHooks) => Promise<R>;
  verdict: (result: R) => JobVerdict;
  /**
   * Scrubs the stored copies of the args and the result beyond the store's shape-based redaction:
   * an ask's deployment keys are replaced by value, whatever their shape (services/ask/record.ts).
   */
  stored?: (json: string) => string;
}

/** A value as it is stored: through the kind's own scrub, when it has one. */
function storedCopy(value: unknown, stored: ((json: string) => string) | undefined): unknown {
  return stored ? JSON.parse(stored(JSON.stringify(value ?? null))) : value;
}

/** A job's end as its starter sees it: the work's own result, or why the work threw. */
export type JobEnd<R> = Result<R>;

export interface JobHooks {
  signal: AbortSignal;
  onProgress: (message: string) => void;
  onOutput: (text: string) => void;
}

interface LiveJob {
  abort: AbortController;
  done: Promise<unknown>;
  progress?: ((message: string) => void) | undefined;
}

const live = new Map<string, LiveJob>();
export const processStartedAt = Date.now();

export function startJob<R>(rt: JobsRuntime, work: JobWork<R>): { id: string; done: Promise<JobEnd<R>> } {
  const id = rt.store.jobs.create({ kind: work.kind, args: storedCopy(work.args, work.stored), ownerPid: process.pid, ownerStartedAt: processStartedAt });
  const abort = new AbortController();
  const entry: LiveJob = { abort, done: Promise.resolve() };
  let lastWrite = 0;
  const output = batchedWriter((text) => storeQuietly(id, () => rt.store.jobs.appendPartial(id, text)));
  const hooks: JobHooks = {
    signal: abort.signal,
    onProgress: (message) => {
      entry.progress?.(message);
      const now = Date.now();
      if (now - lastWrite < PROGRESS_WRITE_MS) return;
      lastWrite = now;
      storeQuietly(id, () => rt.store.jobs.setProgress(id, message, now));
    },
    onOutput: output.write,
  };
  // Started on the next microtask, so the caller can follow the job before its first progress.
  const done = Promise.resolve()
    .then(() => work.run(hooks))
    .then(
      (value): JobEnd<R> => ({ ok: true, value }),
      (error: unknown): JobEnd<R> => ({ ok: false, error: { code: "internal_error", message: String(error) } }),
    )
    .then((end) => {
      finishRow(rt, id, () => (output.flush(), finishing(end, work.verdict, work.stored)));
      live.delete(id);
      return end;
    });
  entry.done = done;
  live.set(id, entry);
  return { id, done };
}

/** Progress and partial output are best-effort: a store that refuses them must not end the work. */
function storeQuietly(id: string, write: () => void): void {
  try {
    write();
  } catch (error) {
    log.warn(`job ${id}: the store refused a progress write (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** Between tries to finish a job row the store refused (disk full, read-only): until it takes it. */
const FINISH_RETRY_MS = 2000;

/**
 * Writes the job row's end. When the store refuses (disk full after the delegate ran), the answer
 * in hand still goes back to the caller, and the row is finished as soon as the store takes writes
 * again, so it is never left running; if this server dies first, the next one reconciles it.
 */
function finishRow(rt: JobsRuntime, id: string, row: () => Parameters<JobsRuntime["store"]["jobs"]["finish"]>[1]): void {
  let record: Parameters<JobsRuntime["store"]["jobs"]["finish"]>[1] | undefined;
  const attempt = (): boolean => {
    try {
      record ??= row();
      rt.store.jobs.finish(id, record);
      return true;
    } catch (error) {
      log.error(`job ${id}: the store refused its end (${error instanceof Error ? error.message : String(error)}); retrying every ${FINISH_RETRY_MS / 1000} s`);
      return false;
    }
  };
  if (attempt()) return;
  const timer = setInterval(() => {
    if (attempt()) clearInterval(timer);
  }, FINISH_RETRY_MS);
  timer.unref();
}

/** The job row's end: the verdict on the result, or a failure with nothing to show when the work threw. */
function finishing<R>(end: JobEnd<R>, verdict: (result: R) => JobVerdict, stored: ((json: string) => string) | undefined) {
  if (!end.ok) return { status: "failed" as const, result: {}, errorCode: end.error.code, errorMessage: end.error.message, treeChanged: null };
  const v = verdict(end.value);
  return {
    status: v.status,
    result: storedCopy(end.value, stored),
    ...(v.errorCode ? { errorCode: v.errorCode } : {}),
    ...(v.errorMessage ? { errorMessage: v.errorMessage } : {}),
    treeChanged: v.treeChanged ?? null,
  };
}

/** Collects text and writes it at most every OUTPUT_FLUSH_MS; flush() writes what is pending now. */
function batchedWriter(write: (text: string) => void): { write: (text: string) => void; flush: () => void } {
  let pending = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!pending) return;
    const text = pending;
    pending = "";
    write(text);
  };
  return {
    write: (text) => {
      pending += text;
      timer ??= setTimeout(flush, OUTPUT_FLUSH_MS);
    },
    flush,
  };
}

/** Routes a live job's progress to a waiting caller (job_wait with a progress token). */
export function followJob(id: string, progress: ((message: string) => void) | undefined): void {
  const entry = live.get(id);
  if (entry) entry.progress = progress;
}

export type JobView = Pick<
  JobRecord,
  "id" | "kind" | "status" | "progress" | "partialOutput" | "errorCode" | "errorMessage" | "treeChanged" | "createdAt" | "updatedAt"
> & { result: unknown; ownedHere: boolean };

export function jobView(rt: JobsRuntime, id: string): JobView | undefined {
  const job = rt.store.jobs.get(id);
  if (!job) return undefined;
  return {
    id: job.id,
    kind: job.kind,
    status: job.status,
    progress: job.progress,
    partialOutput: job.partialOutput,
    errorCode: job.errorCode,
    errorMessage: job.errorMessage,
    treeChanged: job.treeChanged,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    result: job.result,
    ownedHere: live.has(id),
  };
}

/** Waits up to waitSec for the job to end; a job owned by another process is polled in the store. */
export async function waitJob(rt: JobsRuntime, id: string, waitSec: number, signal: AbortSignal): Promise<JobView | undefined> {
  const deadline = Date.now() + Math.min(waitSec, WAIT_CEILING_SEC) * 1000;
  const entry = live.get(id);
  if (entry) {
    await Promise.race([entry.done, sleepUntil(deadline, signal)]);
    return jobView(rt, id);
  }
  for (;;) {
    const view = jobView(rt, id);
    if (!view || view.status !== "running" || Date.now() >= deadline || signal.aborted) return view;
    await sleepUntil(Math.min(deadline, Date.now() + 250), signal);
  }
}

export function cancelJob(id: string, reason = "cancelled"): boolean {
  const entry = live.get(id);
  if (!entry) return false;
  entry.abort.abort(reason);
  return true;
}

/** Cancels every job of this process (transport close, shutdown) and waits for their records. */
export async function cancelAllJobs(reason: string, maxWaitMs = 5000): Promise<void> {
  const pending = [...live.values()];
  for (const entry of pending) entry.abort.abort(reason);
  await Promise.race([Promise.all(pending.map((e) => e.done)), Bun.sleep(maxWaitMs)]);
}

function sleepUntil(deadline: number, signal: AbortSignal): Promise<void> {
  const ms = Math.max(0, deadline - Date.now());
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * Marks jobs and runs left `running` by a dead server process as failed — after ending any process
 * group that server left running, so "the server died" is never said while its agent still writes.
 */
export function reconcileOrphans(rt: JobsRuntime): string[] {
  // By pid *and* start time: after a reboot a stranger may hold the owner's pid.
  const alive = (pid: number, startedAt: number) => pid === process.pid || ownerAlive(pid, startedAt);
  endOrphanGroups(alive);
  rt.store.runs.reconcileOrphans(alive);
  return rt.store.jobs.reconcileOrphans(alive);
}
