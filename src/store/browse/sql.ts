/**
 * The SQL of the run, consultation and job listings, one statement per filter combination: only
 * the conditions a filter names appear, so the planner searches that filter's (filter, time, id)
 * index (migration 007) from the page's bound. Fixed fragments only; every value is bound.
 * Exported for the tests that read their query plans.
 */
import { beforeBound, whereAll } from "./paging.ts";

/** Which of a listing's filters are given (their values are bound, never spliced in). */
type Given<K extends string> = Partial<Record<K, string>>;

/** A condition when the filter names its value, none otherwise. */
const when = (value: string | undefined, condition: string): string[] => (value ? [condition] : []);

/**
 * Status, tool and tier search their runs_*_started index. The agent filter has no column on runs:
 * it checks attempts by their primary key on the walk down from the bound (a handful of lookups per
 * row shown, whatever the depth).
 */
export function runListSql(filter: Given<"status" | "tool" | "tier" | "agent">): string {
  const where = [
    ...when(filter.status, "r.status = $status"),
    ...when(filter.tool, "r.tool = $tool"),
    ...when(filter.tier, "r.tier = $tier"),
    ...when(filter.agent, "EXISTS (SELECT 1 FROM attempts a WHERE a.run_id = r.id AND a.agent_id = $agent)"),
    beforeBound("runs", "r", "started_at"),
  ];
  return `SELECT r.id, r.tool, r.tier, r.status, r.served_by, r.error_code, substr(r.prompt, 1, $head) AS prompt_head,
    r.prompt_len, r.started_at, r.ended_at,
    (SELECT count(*) FROM attempts a WHERE a.run_id = r.id AND a.outcome != 'skipped') AS attempts,
    (SELECT max(a.fell_back) FROM attempts a WHERE a.run_id = r.id) AS fell_back
  FROM runs r ${whereAll(where)}
  ORDER BY r.started_at DESC, r.id DESC LIMIT $limit`;
}

/** Consultations page by last activity (updated_at), as the listing always has. */
export function consultationListSql(filter: Given<"agent" | "status">): string {
  const where = [...when(filter.agent, "c.agent_id = $agent"), ...when(filter.status, "c.status = $status"), beforeBound("consultations", "c", "updated_at")];
  return `SELECT c.id, c.agent_id, c.backend, c.model, c.status, c.created_at, c.updated_at,
    (SELECT count(*) FROM turns t WHERE t.consultation_id = c.id) AS turns,
    l.model_verified AS last_verification, l.error_code AS last_error, l.latency_ms AS last_latency,
    substr(f.prompt, 1, $head) AS prompt_head
  FROM consultations c
  LEFT JOIN turns l ON l.consultation_id = c.id AND l.n = (SELECT max(n) FROM turns t WHERE t.consultation_id = c.id)
  LEFT JOIN turns f ON f.consultation_id = c.id AND f.n = 1
  ${whereAll(where)}
  ORDER BY c.updated_at DESC, c.id DESC LIMIT $limit`;
}

/** `refSql` reads what each kind of job delivered (browse.ts owns the kinds' keys). */
export function jobListSql(filter: Given<"status" | "kind">, refSql: string): string {
  const where = [...when(filter.status, "j.status = $status"), ...when(filter.kind, "j.kind = $kind"), beforeBound("jobs", "j", "created_at")];
  return `SELECT j.id, j.kind, j.status, j.progress, j.error_code, j.created_at, j.updated_at, ${refSql} AS ref
  FROM jobs j ${whereAll(where)}
  ORDER BY j.created_at DESC, j.id DESC LIMIT $limit`;
}
