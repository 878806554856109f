/**
 * The dashboard's workflow listing: newest activity first, filtered by status, paged by keyset on
 * the workflows_*updated indexes (migration 007), and the overview's count of workflows needing
 * attention (a partial index, migration 005). A workflow's detail reads store/workflows.ts.
 */
import type { Database } from "bun:sqlite";
import { beforeBound, clampLimit, filterParams, paged, whereAll, type Page, type Params } from "./paging.ts";
import type { WorkflowStatus } from "../workflows.ts";

export const WORKFLOW_STATUSES: readonly WorkflowStatus[] = ["active", "needs_attention", "completed", "failed", "cancelled"];

export interface WorkflowListFilter {
  status?: WorkflowStatus;
  /** The previous page's `next`: undefined for page 1. */
  before?: string | undefined;
  limit?: number;
}

export interface WorkflowListRow {
  id: string;
  status: WorkflowStatus;
  goalHead: string;
  workdir: string;
  round: number;
  /** Steps that were planned and not superseded (cancelled plans are left out). */
  steps: number;
  failedSteps: number;
  /** The latest step that ran or is running, with its status. */
  lastStep: { step: string; status: string } | null;
  createdAt: number;
  updatedAt: number;
}

interface WorkflowListSql {
  id: string;
  status: WorkflowStatus;
  goal_head: string;
  workdir: string;
  round: number;
  steps: number;
  failed_steps: number;
  last_step: string | null;
  last_status: string | null;
  created_at: number;
  updated_at: number;
}

/** One statement per filter: a status searches workflows_status_updated from the bound (migration 007). Exported for the query-plan test. */
export function workflowListSql(filter: Pick<WorkflowListFilter, "status">): string {
  const where = [...(filter.status ? ["w.status = $status"] : []), beforeBound("workflows", "w", "updated_at")];
  // Step columns walk the (workflow_id, seq) unique index: a handful of rows per workflow.
  return `SELECT w.id, w.status, substr(w.goal, 1, $head) AS goal_head, w.workdir, w.round, w.created_at, w.updated_at,
    (SELECT count(*) FROM workflow_steps s WHERE s.workflow_id = w.id AND s.status != 'cancelled') AS steps,
    (SELECT count(*) FROM workflow_steps s WHERE s.workflow_id = w.id AND s.status = 'failed') AS failed_steps,
    l.step AS last_step, l.status AS last_status
  FROM workflows w
  LEFT JOIN workflow_steps l ON l.workflow_id = w.id AND l.seq = (
    SELECT max(seq) FROM workflow_steps s WHERE s.workflow_id = w.id AND s.status NOT IN ('planned', 'cancelled'))
  ${whereAll(where)}
  ORDER BY w.updated_at DESC, w.id DESC LIMIT $limit`;
}

export function listWorkflows(db: Database, filter: WorkflowListFilter, headChars: number): Page<WorkflowListRow> {
  const limit = clampLimit(filter.limit);
  const params: Params = { ...filterParams({ status: filter.status }), before: filter.before ?? null, limit: limit + 1, head: headChars };
  const rows = db.query<WorkflowListSql, Params>(workflowListSql(filter)).all(params);
  return paged(rows, limit, toRow, (r) => r.id);
}

export function countNeedingAttention(db: Database): number {
  return db.query<{ n: number }, []>(`SELECT count(*) AS n FROM workflows WHERE status = 'needs_attention'`).get()?.n ?? 0;
}

function toRow(r: WorkflowListSql): WorkflowListRow {
  return {
    id: r.id,
    status: r.status,
    goalHead: r.goal_head,
    workdir: r.workdir,
    round: r.round,
    steps: r.steps,
    failedSteps: r.failed_steps,
    lastStep: r.last_step && r.last_status ? { step: r.last_step, status: r.last_status } : null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
