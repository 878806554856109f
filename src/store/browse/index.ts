/**
 * Read-only listings for the dashboard: runs, consultations, jobs, workflows, asks and reviews with filters, newest first,
 * paged by keyset (the last row's sort key), so page 1 and page 1000 cost the same over a big
 * history. Every query walks an index in its ORDER BY and stops at LIMIT; filters only thin it.
 */
import type { Database } from "bun:sqlite";
import type { RunStatus, RunTool } from "../runs.ts";
import type { ConsultationStatus, ModelVerification } from "../consultations.ts";
import type { JobKind, JobStatus } from "../jobs.ts";
import { clampLimit, filterParams, paged, type Page, type Params } from "./paging.ts";
import { consultationListSql, jobListSql, runListSql } from "./sql.ts";
import { listAsks, type AskListFilter, type AskListRow } from "./asks.ts";
import { listReviews, type ReviewListFilter, type ReviewListRow } from "./reviews.ts";
import { countNeedingAttention, listWorkflows, type WorkflowListFilter, type WorkflowListRow } from "./workflows.ts";

export type { Page } from "./paging.ts";
export { WORKFLOW_STATUSES, type WorkflowListFilter, type WorkflowListRow } from "./workflows.ts";
export { ASK_STATUSES, type AskListFilter, type AskListRow } from "./asks.ts";
export type { ReviewListFilter, ReviewListRow } from "./reviews.ts";

/** How much of a prompt a listing shows; the detail page shows all of it. */
export const HEAD_CHARS = 140;

/**
 * Every job kind, checked against the store's JobKind by the compiler (a kind added there fails
 * to compile here until it is listed), with the key of its result or arguments that names what
 * the job delivered: a run, a consultation, a review, a workflow.
 */
const JOB_REFS: { [K in JobKind]: { from: "result" | "args"; key: string } } = {
  route: { from: "result", key: "runId" },
  consult: { from: "result", key: "consultation_id" },
  review: { from: "args", key: "review_id" },
  workflow_step: { from: "args", key: "workflow_id" },
  ask: { from: "result", key: "ask_id" },
};

const isJobKind = (k: string): k is JobKind => k in JOB_REFS;

/** What a job delivered or worked on, read from a job record the way the listing's SQL reads it. */
export function jobRef(kind: JobKind, args: unknown, result: unknown): string | null {
  const ref = JOB_REFS[kind];
  const source = ref.from === "args" ? args : result;
  if (typeof source !== "object" || source === null) return null;
  const value = Object.entries(source).find(([k]) => k === ref.key)?.[1];
  return typeof value === "string" ? value : null;
}

/** The store's job kinds, in JobKind's order. */
export const JOB_KIND_VALUES: readonly JobKind[] = Object.keys(JOB_REFS).filter(isJobKind);

export interface RunListFilter {
  status?: RunStatus;
  tool?: RunTool;
  tier?: string;
  /** Runs in which this agent made an attempt (served or not). */
  agent?: string;
  /** The previous page's `next`: undefined for page 1. */
  before?: string | undefined;
  limit?: number;
}

export interface RunListRow {
  id: string;
  tool: RunTool;
  tier: string | null;
  status: RunStatus;
  servedBy: string | null;
  errorCode: string | null;
  promptHead: string | null;
  promptLength: number;
  startedAt: number;
  endedAt: number | null;
  attempts: number;
  fellBack: boolean;
}

export interface ConsultationListFilter {
  agent?: string;
  status?: ConsultationStatus;
  /** The previous page's `next`: undefined for page 1. */
  before?: string | undefined;
  limit?: number;
}

export interface ConsultationListRow {
  id: string;
  agentId: string;
  backend: string;
  model: string | null;
  status: ConsultationStatus;
  createdAt: number;
  updatedAt: number;
  turns: number;
  /** The last turn's, when there is one. */
  lastVerification: ModelVerification | null;
  lastError: string | null;
  lastLatencyMs: number | null;
  promptHead: string | null;
}

export interface JobListFilter {
  status?: JobStatus;
  kind?: JobKind;
  /** The previous page's `next`: undefined for page 1. */
  before?: string | undefined;
  limit?: number;
}

export interface JobListRow {
  id: string;
  kind: JobKind;
  status: JobStatus;
  progress: string | null;
  errorCode: string | null;
  createdAt: number;
  updatedAt: number;
  /** What the job delivered or worked on, when it names one: a run, consultation, review or workflow id. */
  ref: string | null;
}

export interface BrowseStore {
  runs(filter?: RunListFilter): Page<RunListRow>;
  consultations(filter?: ConsultationListFilter): Page<ConsultationListRow>;
  jobs(filter?: JobListFilter): Page<JobListRow>;
  workflows(filter?: WorkflowListFilter): Page<WorkflowListRow>;
  asks(filter?: AskListFilter): Page<AskListRow>;
  reviews(filter?: ReviewListFilter): Page<ReviewListRow>;
  /** Workflows that stopped at their round cap or on a failure the host must look at. */
  workflowsNeedingAttention(): number;
  /** Changes whenever another connection commits: the live view's cheap "anything new?" probe. */
  dataVersion(): number;
}

interface RunListSql {
  id: string;
  tool: RunTool;
  tier: string | null;
  status: RunStatus;
  served_by: string | null;
  error_code: string | null;
  prompt_head: string | null;
  prompt_len: number;
  started_at: number;
  ended_at: number | null;
  attempts: number;
  fell_back: number | null;
}

interface ConsultationListSql {
  id: string;
  agent_id: string;
  backend: string;
  model: string | null;
  status: ConsultationStatus;
  created_at: number;
  updated_at: number;
  turns: number;
  last_verification: ModelVerification | null;
  last_error: string | null;
  last_latency: number | null;
  prompt_head: string | null;
}

interface JobListSql {
  id: string;
  kind: JobKind;
  status: JobStatus;
  progress: string | null;
  error_code: string | null;
  created_at: number;
  updated_at: number;
  ref: string | null;
}

/** One CASE over the kinds (exported for the test that reads the job listing's query plans): each reads its own key, from the result or from the arguments. */
export const REF_SQL = `CASE ${Object.entries(JOB_REFS)
  .map(([kind, ref]) => `WHEN j.kind = '${kind}' AND json_valid(j.${ref.from}_json) THEN json_extract(j.${ref.from}_json, '$.${ref.key}')`)
  .join(" ")} END`;

export function createBrowseStore(db: Database): BrowseStore {
  return {
    runs(filter = {}) {
      const limit = clampLimit(filter.limit);
      const params: Params = {
        ...filterParams({ status: filter.status, tool: filter.tool, tier: filter.tier, agent: filter.agent }),
        before: filter.before ?? null,
        limit: limit + 1,
        head: HEAD_CHARS,
      };
      const rows = db.query<RunListSql, Params>(runListSql(filter)).all(params);
      return paged(rows, limit, toRunRow, (r) => r.id);
    },

    consultations(filter = {}) {
      const limit = clampLimit(filter.limit);
      const params: Params = {
        ...filterParams({ agent: filter.agent, status: filter.status }),
        before: filter.before ?? null,
        limit: limit + 1,
        head: HEAD_CHARS,
      };
      const rows = db.query<ConsultationListSql, Params>(consultationListSql(filter)).all(params);
      return paged(rows, limit, toConsultationRow, (r) => r.id);
    },

    jobs(filter = {}) {
      const limit = clampLimit(filter.limit);
      const params: Params = { ...filterParams({ status: filter.status, kind: filter.kind }), before: filter.before ?? null, limit: limit + 1 };
      const rows = db.query<JobListSql, Params>(jobListSql(filter, REF_SQL)).all(params);
      return paged(rows, limit, toJobRow, (r) => r.id);
    },

    workflows: (filter = {}) => listWorkflows(db, filter, HEAD_CHARS),
    asks: (filter = {}) => listAsks(db, filter, HEAD_CHARS),
    reviews: (filter = {}) => listReviews(db, filter),
    workflowsNeedingAttention: () => countNeedingAttention(db),

    dataVersion() {
      return db.query<{ data_version: number }, []>("PRAGMA data_version").get()?.data_version ?? 0;
    },
  };
}

function toRunRow(r: RunListSql): RunListRow {
  return {
    id: r.id,
    tool: r.tool,
    tier: r.tier,
    status: r.status,
    servedBy: r.served_by,
    errorCode: r.error_code,
    promptHead: r.prompt_head,
    promptLength: r.prompt_len,
    startedAt: r.started_at,
    endedAt: r.ended_at,
    attempts: r.attempts,
    fellBack: r.fell_back === 1,
  };
}

function toConsultationRow(r: ConsultationListSql): ConsultationListRow {
  return {
    id: r.id,
    agentId: r.agent_id,
    backend: r.backend,
    model: r.model,
    status: r.status,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    turns: r.turns,
    lastVerification: r.last_verification,
    lastError: r.last_error,
    lastLatencyMs: r.last_latency,
    promptHead: r.prompt_head,
  };
}

function toJobRow(r: JobListSql): JobListRow {
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    progress: r.progress,
    errorCode: r.error_code,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    ref: r.ref,
  };
}
