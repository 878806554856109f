/** Token, cost and latency rows, one per attempt, consultation turn, reviewer's run or ask, and per-agent summaries. */
import type { Database } from "bun:sqlite";
import type { Usage } from "../backends/contract.ts";

export interface UsageRow {
  source: "attempt" | "turn" | "review" | "ask";
  /**
   * Run id for attempts, consultation id for turns, review id for a reviewer's run, ask id for an
   * ask (agent_id = the capability, backend = "http", model = the served model, tier NULL).
   */
  refId: string;
  /** Attempt or turn number; a reviewer's place in its review; 1 for an ask (one row per ask). */
  refN: number;
  agentId: string;
  backend: string;
  model?: string | null;
  usage?: Usage | undefined;
  /** `usage.costUsd` was estimated from the model's price, not reported by the CLI (migration 010). */
  costEstimated?: boolean;
  latencyMs: number;
  createdAt: number;
}

export interface AgentUsageSummary {
  agentId: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** Sum over the calls whose CLI reported a cost; null when none did. */
  costUsd: number | null;
  costReportedCalls: number;
  latencyMsTotal: number;
  latencyMsAvg: number;
}

export interface UsageStore {
  record(row: UsageRow): void;
  summary(opts?: { since?: number }): AgentUsageSummary[];
}

/**
 * Shared by runs.ts and consultations.ts so a usage row is written in the same transaction. An
 * attempt's row carries its run's tier (migration 005), so plots per tier read no join; the
 * usage_hourly trigger rolls the row into its hour.
 */
export function insertUsage(db: Database, row: UsageRow): void {
  const u = row.usage ?? {};
  db.query(
    `INSERT INTO usage (source, ref_id, ref_n, agent_id, backend, model, input_tokens, output_tokens,
       cached_input_tokens, cost_usd, latency_ms, created_at, tier, cost_estimated)
     VALUES ($source, $refId, $refN, $agentId, $backend, $model, $input, $output, $cached, $cost, $latency, $createdAt,
       CASE WHEN $source = 'attempt' THEN (SELECT tier FROM runs WHERE id = $refId) END, $estimated)`,
  ).run({
    source: row.source,
    refId: row.refId,
    refN: row.refN,
    agentId: row.agentId,
    backend: row.backend,
    model: row.model ?? null,
    input: u.inputTokens ?? null,
    output: u.outputTokens ?? null,
    cached: u.cachedInputTokens ?? null,
    cost: u.costUsd ?? null,
    latency: Math.round(row.latencyMs),
    createdAt: row.createdAt,
    estimated: row.costEstimated === true && u.costUsd !== undefined ? 1 : 0,
  });
}

interface SummaryRow {
  agent_id: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens: number;
  cost_usd: number | null;
  cost_calls: number;
  latency_total: number;
}

export function createUsageStore(db: Database): UsageStore {
  return {
    record: (row) => insertUsage(db, row),
    summary({ since = 0 } = {}) {
      const rows = db
        .query<SummaryRow, { since: number }>(
          `SELECT agent_id, count(*) AS calls,
             coalesce(sum(input_tokens), 0) AS input_tokens,
             coalesce(sum(output_tokens), 0) AS output_tokens,
             coalesce(sum(cached_input_tokens), 0) AS cached_input_tokens,
             sum(cost_usd) AS cost_usd, count(cost_usd) AS cost_calls,
             coalesce(sum(latency_ms), 0) AS latency_total
           FROM usage WHERE created_at >= $since GROUP BY agent_id ORDER BY agent_id`,
        )
        .all({ since });
      return rows.map((r) => ({
        agentId: r.agent_id,
        calls: r.calls,
        inputTokens: r.input_tokens,
        outputTokens: r.output_tokens,
        cachedInputTokens: r.cached_input_tokens,
        costUsd: r.cost_usd,
        costReportedCalls: r.cost_calls,
        latencyMsTotal: r.latency_total,
        latencyMsAvg: r.calls === 0 ? 0 : Math.round(r.latency_total / r.calls),
      }));
    },
  };
}
