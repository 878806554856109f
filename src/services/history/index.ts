/**
 * History: list, show and delete what orchestrate stored (consultations, route runs, reviews, asks, jobs). Only
 * orchestrate's own rows go; every reply says so and names where each CLI keeps its own copy.
 */
import { fail, ok, type Result } from "../../result.ts";
import type { Store } from "../../store/db.ts";
import { adapters, BACKENDS } from "../../backends/index.ts";

export const HISTORY_KINDS = ["consultations", "runs", "reviews", "asks", "jobs", "all"] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

export interface HistoryCounts {
  consultations: number;
  runs: number;
  reviews: number;
  asks: number;
  jobs: number;
}

export interface DeletionReport {
  deleted: HistoryCounts;
  note: string;
}

/** Where each vendor CLI keeps its own transcripts (each backend says); deleting here never touches them. */
export const VENDOR_HISTORY: Readonly<Record<string, string>> = Object.fromEntries(BACKENDS.map((b) => [b, adapters[b].history]));

export const LOCAL_ONLY_NOTE = `This removed orchestrate's local rows only. The CLIs keep their own session history: ${Object.entries(VENDOR_HISTORY)
  .map(([cli, where]) => `${cli} in ${where}`)
  .join("; ")}. Delete those with each CLI's own tools.`;

const NONE: HistoryCounts = { consultations: 0, runs: 0, reviews: 0, asks: 0, jobs: 0 };

type Removed = Partial<Omit<HistoryCounts, "jobs">>;

/** Runs a delete and reports it; jobs are counted before and after, because deleting a
 * consultation, run or review also takes the finished jobs that delivered it. */
function measured(store: Store, remove: () => Removed): DeletionReport {
  const before = store.jobs.count();
  const removed = remove();
  return { deleted: { ...NONE, ...removed, jobs: before - store.jobs.count() }, note: LOCAL_ONLY_NOTE };
}

export function deleteConsultation(store: Store, id: string): Result<DeletionReport> {
  const report = measured(store, () => ({ consultations: store.consultations.delete(id) ? 1 : 0 }));
  if (report.deleted.consultations === 0)
    return fail(
      "not_found",
      `No consultation "${id}" is stored here.`,
      "It may already be deleted or pruned; `orchestrate history list` shows what is stored.",
    );
  return ok(report);
}

export function deleteRun(store: Store, id: string): Result<DeletionReport> {
  let outcome = "not_found";
  const report = measured(store, () => {
    outcome = store.runs.deleteRun(id);
    return { runs: outcome === "deleted" ? 1 : 0 };
  });
  if (outcome === "running")
    return fail("still_running", `Run ${id} is still running; it can be deleted once it ends.`, "Cancel it first (job_cancel), or wait for it to finish.");
  if (outcome === "not_found")
    return fail("not_found", `No run "${id}" is stored here.`, "It may already be deleted or pruned; `orchestrate history list` shows what is stored.");
  return ok(report);
}

/** One review with its reviewers' runs and findings; a review whose reviewers may be running stays. */
export function deleteReview(store: Store, id: string): Result<DeletionReport> {
  let outcome = "not_found";
  const report = measured(store, () => {
    outcome = store.reviews.delete(id);
    return { reviews: outcome === "deleted" ? 1 : 0 };
  });
  if (outcome === "running")
    return fail(
      "still_running",
      `Review ${id} is being approved or run; it can be deleted once it ends.`,
      "Cancel it first (review_cancel), or wait for it to finish.",
    );
  if (outcome === "not_found")
    return fail("not_found", `No review "${id}" is stored here.`, "It may already be deleted or pruned; `orchestrate history list` shows what is stored.");
  return ok(report);
}

/** One ask with its legs and usage row (an ask is stored once it ended, so none is ever running). */
export function deleteAsk(store: Store, id: string): Result<DeletionReport> {
  const report = measured(store, () => ({ asks: store.asks.delete(id) ? 1 : 0 }));
  if (report.deleted.asks === 0)
    return fail("not_found", `No ask "${id}" is stored here.`, "It may already be deleted or pruned; `orchestrate history list` shows what is stored.");
  return ok(report);
}

/** Deletes whichever record the id names: a consultation, a run, a review, an ask, or a job. */
export function deleteAny(store: Store, id: string): Result<DeletionReport> {
  const consultation = deleteConsultation(store, id);
  if (consultation.ok) return consultation;
  const ask = deleteAsk(store, id);
  if (ask.ok) return ask;
  const run = deleteRun(store, id);
  if (run.ok || run.error.code === "still_running") return run;
  const review = deleteReview(store, id);
  if (review.ok || review.error.code === "still_running") return review;
  const job = store.jobs.delete(id);
  if (job === "deleted") return ok({ deleted: { ...NONE, jobs: 1 }, note: LOCAL_ONLY_NOTE });
  if (job === "running") return fail("still_running", `Job ${id} is still running; it can be deleted once it ends.`, "Cancel it first with job_cancel.");
  return fail(
    "not_found",
    `Nothing with id "${id}" is stored here (no consultation, run, review, ask or job).`,
    "`orchestrate history list` shows what is stored.",
  );
}

/** What a delete of this kind would remove now. Running runs and jobs are never counted. */
export function countKind(store: Store, kind: HistoryKind, olderThan?: number): HistoryCounts {
  const filter = olderThan === undefined ? {} : { olderThan };
  return {
    consultations: includes(kind, "consultations") ? store.consultations.count(filter) : 0,
    runs: includes(kind, "runs") ? store.runs.countRuns(filter) : 0,
    reviews: includes(kind, "reviews") ? store.reviews.count(filter) : 0,
    asks: includes(kind, "asks") ? store.asks.count(filter) : 0,
    jobs: includes(kind, "jobs") ? store.jobs.count(filter) : 0,
  };
}

export function deleteKind(store: Store, kind: HistoryKind, olderThan?: number): DeletionReport {
  const filter = olderThan === undefined ? {} : { olderThan };
  return measured(store, () => {
    const consultations = includes(kind, "consultations") ? store.consultations.deleteAll(filter) : 0;
    const runs = includes(kind, "runs") ? store.runs.deleteRuns(filter) : 0;
    const reviews = includes(kind, "reviews") ? store.reviews.deleteAll(filter) : 0;
    const asks = includes(kind, "asks") ? store.asks.deleteAll(filter) : 0;
    if (includes(kind, "jobs")) store.jobs.deleteAll(filter);
    return { consultations, runs, reviews, asks };
  });
}

export function total(counts: HistoryCounts): number {
  return counts.consultations + counts.runs + counts.reviews + counts.asks + counts.jobs;
}

export function describeCounts(counts: HistoryCounts): string {
  return `${counts.consultations} consultation(s), ${counts.runs} run(s), ${counts.reviews} review(s), ${counts.asks} ask(s), ${counts.jobs} job(s)`;
}

function includes(kind: HistoryKind, part: Exclude<HistoryKind, "all">): boolean {
  return kind === "all" || kind === part;
}

/** Milliseconds since the epoch before which rows count as "older than N days". */
export function cutoffFor(olderThanDays: number, now: number): number {
  return now - olderThanDays * 86_400_000;
}
