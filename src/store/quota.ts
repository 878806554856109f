/**
 * The quota each execution identity last reported (docs/design.md, "Quota"), shared by every
 * orchestrate process on the machine like the cooldowns: one row per identity and window.
 */
import type { Database } from "bun:sqlite";

export type QuotaState = "ok" | "warning" | "exhausted";

export interface QuotaObservation {
  /** The vendor's name for the window ("five_hour", "primary", "individual", …). */
  window: string;
  state: QuotaState;
  usedPercent?: number;
  /** Epoch ms the window resets, when the vendor said. */
  resetsAt?: number;
  observedAt: number;
  /** Which signal it came from ("claude rate_limit_event", "codex rollout", …). */
  source: string;
}

export interface QuotaStore {
  /** Upsert per window; an older observation never replaces a newer one. */
  record(agentId: string, obs: QuotaObservation): void;
  /** Every window of the given identities, by identity. */
  byAgent(agentIds: readonly string[]): Map<string, QuotaObservation[]>;
}

interface Row {
  agent_id: string;
  window: string;
  state: QuotaState;
  used_percent: number | null;
  resets_at: number | null;
  observed_at: number;
  source: string;
}

export function createQuotaStore(db: Database): QuotaStore {
  return {
    record(agentId, obs) {
      db.query(
        `INSERT INTO quota (agent_id, window, state, used_percent, resets_at, observed_at, source)
         VALUES ($agentId, $window, $state, $used, $resets, $observed, $source)
         ON CONFLICT (agent_id, window) DO UPDATE SET state = excluded.state, used_percent = excluded.used_percent,
           resets_at = excluded.resets_at, observed_at = excluded.observed_at, source = excluded.source
         WHERE excluded.observed_at >= quota.observed_at`,
      ).run({
        agentId,
        window: obs.window,
        state: obs.state,
        used: obs.usedPercent ?? null,
        resets: obs.resetsAt === undefined ? null : Math.round(obs.resetsAt),
        observed: obs.observedAt,
        source: obs.source,
      });
    },

    byAgent(agentIds) {
      const out = new Map<string, QuotaObservation[]>();
      if (agentIds.length === 0) return out;
      const rows = db.query<Row, string[]>(`SELECT * FROM quota WHERE agent_id IN (${agentIds.map(() => "?").join(", ")})`).all(...agentIds);
      for (const r of rows) {
        const obs: QuotaObservation = {
          window: r.window,
          state: r.state,
          observedAt: r.observed_at,
          source: r.source,
          ...(r.used_percent !== null ? { usedPercent: r.used_percent } : {}),
          ...(r.resets_at !== null ? { resetsAt: r.resets_at } : {}),
        };
        out.set(r.agent_id, [...(out.get(r.agent_id) ?? []), obs]);
      }
      return out;
    },
  };
}
