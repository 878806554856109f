/**
 * Aggregates over time for the dashboard's plots and summary cards: usage (calls, tokens, cost,
 * latency) per bucket per agent / tier / backend, and fallback and failure rates. Every query is
 * bounded by a `since` on an indexed time column, so a window costs what it holds, not the history;
 * usage reads the hourly rollup (migration 005), so a 90-day window costs its hours, not its calls.
 */
import type { Database } from "bun:sqlite";

export const SERIES_DIMENSIONS = ["agent", "tier", "backend"] as const;
export type SeriesDimension = (typeof SERIES_DIMENSIONS)[number];

export interface Window {
  /** Inclusive lower bound, ms since the epoch. */
  since: number;
}

export interface BucketedWindow extends Window {
  bucketMs: number;
}

export interface UsagePoint {
  /** Start of the bucket, ms. */
  bucket: number;
  key: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** null when no call in the bucket reported a cost. */
  costUsd: number | null;
  latencyMsAvg: number;
}

export interface RatePoint {
  bucket: number;
  runs: number;
  failed: number;
  fellBack: number;
}

export interface AgentRate {
  agentId: string;
  /**
   * Attempts that ran, consultation turns, and asks that called a provider (agent = the ask's
   * capability, as on its usage row; a refusal that sent nothing is no call).
   */
  calls: number;
  failures: number;
}

export interface WindowTotals {
  runs: number;
  failed: number;
  fellBack: number;
  consultations: number;
  calls: number;
  costUsd: number | null;
  running: number;
}

export interface SeriesStore {
  usage(opts: BucketedWindow & { by: SeriesDimension }): UsagePoint[];
  rates(opts: BucketedWindow): RatePoint[];
  agentRates(opts: Window): AgentRate[];
  totals(opts: Window): WindowTotals;
  /** Per key, the calls whose cost was estimated from a price rather than reported (migration 010). */
  estimatedCost(opts: Window & { by: SeriesDimension }): EstimatedCost[];
}

export interface EstimatedCost {
  key: string;
  calls: number;
  costUsd: number;
}

const HOUR_MS = 3_600_000;

/**
 * Consult turns and asks have no tier: each is its own series ('consult', 'ask'; an ask's usage
 * row keeps tier NULL, migration 006). One expression for usage rows and usage_hourly rows alike
 * (migration 005: both carry source, agent, backend and the run's tier).
 */
const KEY_SQL: Record<SeriesDimension, string> = {
  agent: "agent_id",
  backend: "backend",
  tier: "CASE WHEN source = 'turn' THEN 'consult' WHEN source = 'ask' THEN 'ask' ELSE coalesce(nullif(tier, ''), 'none') END",
};

/**
 * Whole hours come from the rollup, the window's partial first hour from the usage rows. A bucket
 * that is not a whole number of hours would split rollup rows, so it reads the usage rows only.
 */
function usageSql(by: SeriesDimension): string {
  return `SELECT (hour / $bucket) * $bucket AS bucket, ${KEY_SQL[by]} AS key, sum(calls) AS calls,
       sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens,
       sum(cost_usd) AS cost_usd, sum(latency_ms) * 1.0 / sum(calls) AS latency_avg
     FROM (
       SELECT hour, source, agent_id, backend, tier, calls, input_tokens, output_tokens, cost_usd, latency_ms
         FROM usage_hourly WHERE hour >= $whole
       UNION ALL
       SELECT created_at, source, agent_id, backend, coalesce(tier, ''), 1, coalesce(input_tokens, 0), coalesce(output_tokens, 0), cost_usd, latency_ms
         FROM usage WHERE created_at >= $since AND created_at < $whole
     )
     GROUP BY bucket, key ORDER BY bucket, key`;
}

function firstWholeHour(since: number, bucketMs: number): number {
  return bucketMs % HOUR_MS === 0 ? Math.ceil(since / HOUR_MS) * HOUR_MS : Number.MAX_SAFE_INTEGER;
}

interface UsageSql {
  bucket: number;
  key: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
  latency_avg: number;
}

type Params = Record<string, number>;

export function createSeriesStore(db: Database): SeriesStore {
  return {
    usage({ since, bucketMs, by }) {
      return db
        .query<UsageSql, Params>(usageSql(by))
        .all({ since, bucket: bucketMs, whole: firstWholeHour(since, bucketMs) })
        .map((r) => ({
          bucket: r.bucket,
          key: r.key,
          calls: r.calls,
          inputTokens: r.input_tokens,
          outputTokens: r.output_tokens,
          costUsd: r.cost_usd,
          latencyMsAvg: Math.round(r.latency_avg),
        }));
    },

    rates({ since, bucketMs }) {
      // Runs and failures: one covering-index range count per bucket (migration 003), walked in
      // index order, instead of sorting every run of the window into a GROUP BY. The fallback
      // count reads only the attempts that fell back.
      const params = { since, bucket: bucketMs };
      const runs = db
        .query<{ bucket: number; runs: number; failed: number }, Params>(
          `WITH RECURSIVE b(lo) AS (
             SELECT ((SELECT min(started_at) FROM runs WHERE started_at >= $since) / $bucket) * $bucket
             UNION ALL SELECT lo + $bucket FROM b WHERE lo + $bucket <= (SELECT max(started_at) FROM runs)
           )
           SELECT bucket, runs, failed FROM (
             SELECT lo AS bucket,
               (SELECT count(*) FROM runs WHERE started_at >= max(lo, $since) AND started_at < lo + $bucket) AS runs,
               (SELECT count(*) FROM runs WHERE started_at >= max(lo, $since) AND started_at < lo + $bucket AND status = 'failed') AS failed
             FROM b WHERE lo IS NOT NULL
           ) WHERE runs > 0 ORDER BY bucket`,
        )
        .all(params);
      const fell = db
        .query<{ bucket: number; n: number }, Params>(
          `SELECT (r.started_at / $bucket) * $bucket AS bucket, count(DISTINCT a.run_id) AS n
           FROM attempts a INDEXED BY attempts_fell_back JOIN runs r ON r.id = a.run_id
           WHERE a.fell_back = 1 AND a.created_at >= $since AND r.started_at >= $since GROUP BY bucket`,
        )
        .all(params);
      const fellBy = new Map(fell.map((f) => [f.bucket, f.n]));
      return runs.map((r) => ({ bucket: r.bucket, runs: r.runs, failed: r.failed, fellBack: fellBy.get(r.bucket) ?? 0 }));
    },

    agentRates({ since }) {
      const rows = db
        .query<{ agent_id: string; calls: number; failures: number }, Params>(
          // Attempts: the agents found by a loose scan of attempts_agent_created (migration 005),
          // then one range count per agent, so a 90-day window sorts nothing.
          `WITH RECURSIVE ag(id) AS (
             SELECT min(agent_id) FROM attempts
             UNION ALL SELECT (SELECT min(agent_id) FROM attempts WHERE agent_id > ag.id) FROM ag WHERE ag.id IS NOT NULL
           )
           SELECT agent_id, sum(calls) AS calls, sum(failures) AS failures FROM (
             SELECT agent_id, calls, failures FROM (
               SELECT id AS agent_id,
                 (SELECT count(*) FROM attempts WHERE agent_id = ag.id AND created_at >= $since AND outcome != 'skipped') AS calls,
                 (SELECT count(*) FROM attempts WHERE agent_id = ag.id AND created_at >= $since AND outcome NOT IN ('ok', 'skipped')) AS failures
               FROM ag WHERE id IS NOT NULL
             ) WHERE calls > 0
             UNION ALL
             SELECT c.agent_id, count(*) AS calls, sum(t.error_code IS NOT NULL) AS failures
               FROM consultations c JOIN turns t ON t.consultation_id = c.id
               WHERE c.updated_at >= $since AND t.created_at >= $since GROUP BY c.agent_id
             UNION ALL
             SELECT a.capability, count(*) AS calls, sum(a.status = 'failed') AS failures
               FROM asks a WHERE a.created_at >= $since AND EXISTS (SELECT 1 FROM ask_legs l WHERE l.ask_id = a.id) GROUP BY a.capability
           ) GROUP BY agent_id ORDER BY agent_id`,
        )
        .all({ since });
      return rows.map((r) => ({ agentId: r.agent_id, calls: r.calls, failures: r.failures }));
    },

    estimatedCost({ since, by }) {
      return db
        .query<{ key: string; calls: number; cost: number }, Params>(
          `SELECT ${KEY_SQL[by]} AS key, count(*) AS calls, sum(cost_usd) AS cost FROM usage
           WHERE created_at >= $since AND cost_estimated = 1 GROUP BY key ORDER BY key`,
        )
        .all({ since })
        .map((r) => ({ key: r.key, calls: r.calls, costUsd: r.cost }));
    },

    totals({ since }) {
      const runs = db
        .query<{ runs: number; failed: number | null }, Params>(
          `SELECT count(*) AS runs, sum(status = 'failed') AS failed FROM runs WHERE started_at >= $since`,
        )
        .get({ since });
      const fell = db
        .query<{ n: number }, Params>(
          `SELECT count(DISTINCT a.run_id) AS n FROM attempts a INDEXED BY attempts_fell_back JOIN runs r ON r.id = a.run_id
           WHERE a.fell_back = 1 AND a.created_at >= $since AND r.started_at >= $since`,
        )
        .get({ since });
      const usage = db
        .query<{ calls: number; cost: number | null }, Params>(`SELECT count(*) AS calls, sum(cost_usd) AS cost FROM usage WHERE created_at >= $since`)
        .get({ since });
      const consultations = db.query<{ n: number }, Params>(`SELECT count(*) AS n FROM consultations WHERE updated_at >= $since`).get({ since });
      // The partial index runs_running holds only running rows.
      const running = db.query<{ n: number }, []>(`SELECT count(*) AS n FROM runs WHERE status = 'running'`).get();
      return {
        runs: runs?.runs ?? 0,
        failed: runs?.failed ?? 0,
        fellBack: fell?.n ?? 0,
        consultations: consultations?.n ?? 0,
        calls: usage?.calls ?? 0,
        costUsd: usage?.cost ?? null,
        running: running?.n ?? 0,
      };
    },
  };
}
