/**
 * Per-agent cooldowns after an unavailable failure. They live in the shared file so every
 * orchestrate server on the machine (one per MCP client) skips an agent another one found down.
 */
import type { Database } from "bun:sqlite";

export type CooldownClass = "auth" | "capacity" | "transport" | "not_installed";

export interface Cooldown {
  until: number;
  cls: CooldownClass;
  /** An auth cooldown the CLI's sign-in probe may lift (it said "signed out" when armed: migration 008). */
  heals: boolean;
}

export interface CooldownStore {
  /** Upsert; an existing later expiry wins so a short TTL never shortens a long one. */
  arm(agentId: string, cls: CooldownClass, untilMs: number, now?: number, heals?: boolean): void;
  /** Cooldowns still in force at `now`, by agent id. */
  active(now?: number): Map<string, Cooldown>;
  clear(agentId: string): void;
  /** Every cooldown still in force (agents and ask deployments alike); how many there were. */
  clearAll(now?: number): number;
}

export function createCooldownStore(db: Database): CooldownStore {
  return {
    arm(agentId, cls, untilMs, now = Date.now(), heals = false) {
      db.query(
        `INSERT INTO cooldowns (agent_id, cls, until_ms, armed_at, heals) VALUES ($agentId, $cls, $until, $now, $heals)
         ON CONFLICT (agent_id) DO UPDATE SET cls = excluded.cls, until_ms = excluded.until_ms, armed_at = excluded.armed_at, heals = excluded.heals
         WHERE excluded.until_ms > cooldowns.until_ms`,
      ).run({ agentId, cls, until: Math.round(untilMs), now, heals: heals ? 1 : 0 });
    },

    active(now = Date.now()) {
      const rows = db
        .query<{ agent_id: string; cls: CooldownClass; until_ms: number; heals: number }, { now: number }>(
          `SELECT agent_id, cls, until_ms, heals FROM cooldowns WHERE until_ms > $now`,
        )
        .all({ now });
      return new Map(rows.map((r) => [r.agent_id, { until: r.until_ms, cls: r.cls, heals: r.heals === 1 }]));
    },

    clear(agentId) {
      db.query(`DELETE FROM cooldowns WHERE agent_id = $agentId`).run({ agentId });
    },

    clearAll(now = Date.now()) {
      return db.query(`DELETE FROM cooldowns WHERE until_ms > $now`).run({ now }).changes;
    },
  };
}
