/**
 * Durable jobs. Every long call runs as a job: its progress and partial output go to the store as
 * they happen, so a client that gave up (request timeout), a second server process, or a restart
 * can still see it. A job owned by this process can be awaited and cancelled here; one owned by a
 * process that died is reconciled to `failed` (server_died) with its partial output.
 */
import type { JobKind, JobRecord } from "../store/jobs.ts";
import type { Runtime } from "./runtime.ts";

/** job_wait never blocks longer than this: under the 60 s default request timeout of MCP clients. */
export const WAIT_CEILING_SEC = 50;
const PROGRESS_WRITE_MS = 1000;
/** Partial output is written in batches: one transaction (and one redaction pass) per flush. */
const OUTPUT_FLUSH_MS = 500;

export interface JobOutcome {
  ok: boolean;
  status: "ok" | "failed" | "cancelled";
  result: Record<string, unknown>;
  errorCode?: string;
  errorMessage?: string;
  treeChanged?: boolean | null;
}

export interface JobHooks {
  signal: AbortSignal;
  onProgress: (message: string) => void;
  onOutput: (text: string) => void;
}

interface LiveJob {
  abort: AbortController;
  done: Promise<JobOutcome>;
  progress?: (message: string) => void;
}

const live = new Map<string, LiveJob>();
export const processStartedAt = Date.now();

export function startJob(rt: Runtime, kind: JobKind, args: unknown, work: (hooks: JobHooks) => Promise<JobOutcome>): { id: string; done: Promise<JobOutcome> } {
  const id = rt.store.jobs.create({ kind, args, ownerPid: process.pid, ownerStartedAt: processStartedAt });
  const abort = new AbortController();
  const entry: LiveJob = { abort, done: Promise.resolve(placeholder) };
  let lastWrite = 0;
  const output = batchedWriter((text) => rt.store.jobs.appendPartial(id, text));
  const hooks: JobHooks = {
    signal: abort.signal,
    onProgress: (message) => {
      entry.progress?.(message);
      const now = Date.now();
      if (now - lastWrite < PROGRESS_WRITE_MS) return;
      lastWrite = now;
      rt.store.jobs.setProgress(id, message, now);
    },
    onOutput: output.write,
  };
  // Started on the next microtask, so the caller can follow the job before its first progress.
  entry.done = Promise.resolve()
    .then(() => work(hooks))
    .catch((error: unknown): JobOutcome => ({ ok: false, status: "failed", result: {}, errorCode: "internal_error", errorMessage: String(error) }))
    .then((outcome) => {
      output.flush();
      rt.store.jobs.finish(id, { status: outcome.status, result: outcome.result, ...(outcome.errorCode ? { errorCode: outcome.errorCode } : {}), ...(outcome.errorMessage ? { errorMessage: outcome.errorMessage } : {}), treeChanged: outcome.treeChanged ?? null });
      live.delete(id);
      return outcome;
    });
  live.set(id, entry);
  return { id, done: entry.done };
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

const placeholder: JobOutcome = { ok: false, status: "failed", result: {} };

/** Routes a live job's progress to a waiting caller (job_wait with a progress token). */
export function followJob(id: string, progress: ((message: string) => void) | undefined): void {
  const entry = live.get(id);
  if (entry) entry.progress = progress;
}

export type JobView = Pick<JobRecord, "id" | "kind" | "status" | "progress" | "partialOutput" | "errorCode" | "errorMessage" | "treeChanged" | "createdAt" | "updatedAt"> & { result: unknown; ownedHere: boolean };

export function jobView(rt: Runtime, id: string): JobView | undefined {
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
export async function waitJob(rt: Runtime, id: string, waitSec: number, signal: AbortSignal): Promise<JobView | undefined> {
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

/** Marks jobs and runs left `running` by a dead server process as failed. */
export function reconcileOrphans(rt: Runtime): string[] {
  const alive = (pid: number) => {
    if (pid === process.pid) return true;
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  rt.store.runs.reconcileOrphans(alive);
  return rt.store.jobs.reconcileOrphans((pid) => alive(pid));
}
