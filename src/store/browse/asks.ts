/**
 * The dashboard's ask listing: newest first, filtered by status and capability, paged by keyset on
 * the asks_*_created indexes (migration 006). An ask's detail reads store/asks.ts.
 */
import type { Database } from "bun:sqlite";
import type { AskStatus } from "../asks.ts";
import { beforeBound, clampLimit, paged, type Page, type Params } from "./paging.ts";

export const ASK_STATUSES: readonly AskStatus[] = ["ok", "failed"];

export interface AskListFilter {
  status?: AskStatus;
  capability?: string;
  /** The previous page's `next`: undefined for page 1. */
  before?: string | undefined;
  limit?: number;
}

export interface AskListRow {
  id: string;
  capability: string;
  status: AskStatus;
  errorCode: string | null;
  model: string | null;
  fallbackUsed: boolean;
  latencyMs: number;
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
  legs: number;
  promptHead: string | null;
  promptLength: number;
  createdAt: number;
}

interface AskListSql {
  id: string;
  capability: string;
  status: AskStatus;
  error_code: string | null;
  model: string | null;
  fallback_used: number;
  latency_ms: number;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
  legs: number;
  prompt_head: string | null;
  prompt_len: number;
  created_at: number;
}

/**
 * The listing's SQL for one filter: only the conditions that filter appear, so the planner picks
 * asks_status_created or asks_capability_created when one is given (a "$x IS NULL OR" form is
 * planned once for every value and always walks asks_created). Fixed fragments only; values are
 * bound. Exported for the test that reads its query plans.
 */
export function askListSql(filter: Pick<AskListFilter, "status" | "capability">): string {
  const where = [
    ...(filter.status ? ["a.status = $status"] : []),
    ...(filter.capability ? ["a.capability = $capability"] : []),
    beforeBound("asks", "a", "created_at"),
  ];
  return `SELECT a.id, a.capability, a.status, a.error_code, a.model, a.fallback_used, a.latency_ms, a.input_tokens, a.output_tokens,
    a.cost_usd, (SELECT count(*) FROM ask_legs l WHERE l.ask_id = a.id) AS legs, substr(a.prompt, 1, $head) AS prompt_head,
    a.prompt_len, a.created_at
  FROM asks a WHERE ${where.join(" AND ")}
  ORDER BY a.created_at DESC, a.id DESC LIMIT $limit`;
}

export function listAsks(db: Database, filter: AskListFilter, headChars: number): Page<AskListRow> {
  const limit = clampLimit(filter.limit);
  const params: Params = {
    before: filter.before ?? null,
    limit: limit + 1,
    head: headChars,
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.capability ? { capability: filter.capability } : {}),
  };
  const rows = db.query<AskListSql, Params>(askListSql(filter)).all(params);
  return paged(rows, limit, toRow, (r) => r.id);
}

function toRow(r: AskListSql): AskListRow {
  return {
    id: r.id,
    capability: r.capability,
    status: r.status,
    errorCode: r.error_code,
    model: r.model,
    fallbackUsed: r.fallback_used === 1,
    latencyMs: r.latency_ms,
    inputTokens: r.input_tokens,
    outputTokens: r.output_tokens,
    costUsd: r.cost_usd,
    legs: r.legs,
    promptHead: r.prompt_head,
    promptLength: r.prompt_len,
    createdAt: r.created_at,
  };
}
