/**
 * Quota follows the execution identity, like cooldowns (services/shared/cooling.ts): what an
 * attempt's stream reported is stored under the agent's identity key, and the router reads it back
 * by the current config's agent ids (docs/design.md, "Quota").
 */
import type { AgentEvent, QuotaEvent } from "../../backends/contract.ts";
import type { AgentConfig } from "../../config/types.ts";
import { quotaSummary, type QuotaWindow } from "../../routing/quota.ts";
import type { QuotaObservation } from "../../store/quota.ts";
import { agentIdentityKey } from "./cooling.ts";
import type { Runtime } from "./runtime.ts";

/** The quota windows an attempt's events reported, as observations at `now` (relative resets resolved). */
export function quotaObservations(events: readonly AgentEvent[], now: number): QuotaObservation[] {
  return events
    .filter((e): e is QuotaEvent => e.kind === "quota")
    .map((e) => {
      const resetsAt = e.resetsAt ?? (e.resetsInSec !== undefined ? now + e.resetsInSec * 1000 : undefined);
      return {
        window: e.window,
        state: e.state,
        observedAt: now,
        source: e.source,
        ...(e.usedPercent !== undefined ? { usedPercent: e.usedPercent } : {}),
        ...(resetsAt !== undefined ? { resetsAt } : {}),
      };
    });
}

export function recordQuota(rt: Runtime, agent: AgentConfig, observations: readonly QuotaObservation[]): void {
  if (observations.length === 0) return;
  recordQuotaUnder(rt, agentIdentityKey(rt, agent), observations);
}

/** Under any identity key: an agent's, or an ask deployment's (services/ask/quota.ts). */
export function recordQuotaUnder(rt: Runtime, key: string, observations: readonly QuotaObservation[]): void {
  for (const obs of observations) rt.store.quota.record(key, obs);
}

/** When an exhausted window resets, the latest of them: a quota failure cools until then. */
export function exhaustedUntil(observations: readonly QuotaObservation[], now: number): number | undefined {
  const resets = observations.filter((o) => o.state === "exhausted" && o.resetsAt !== undefined && o.resetsAt > now).map((o) => o.resetsAt as number);
  return resets.length > 0 ? Math.max(...resets) : undefined;
}

/** Every known window per agent id of the current config. */
export function quotaByAgent(rt: Runtime): Map<string, (QuotaWindow & Pick<QuotaObservation, "observedAt" | "source">)[]> {
  const agents = Object.values(rt.config.agents);
  const keys = new Map(agents.map((a) => [a.id, agentIdentityKey(rt, a)]));
  const rows = rt.store.quota.byAgent([...new Set(keys.values())]);
  const out = new Map<string, (QuotaWindow & Pick<QuotaObservation, "observedAt" | "source">)[]>();
  for (const [id, key] of keys) {
    const windows = rows.get(key);
    if (windows) out.set(id, windows);
  }
  return out;
}

/** One line per agent with a window still in force (routing/quota.ts quotaSummary), for list_agents. */
export function quotaSummaries(rt: Runtime): Map<string, string> {
  const now = rt.now();
  const out = new Map<string, string>();
  for (const [id, windows] of quotaByAgent(rt)) {
    const line = quotaSummary(windows, rt.config.defaults.quotaWarnPercent, now);
    if (line) out.set(id, line);
  }
  return out;
}
