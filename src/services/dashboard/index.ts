/**
 * What the dashboard needs from below, composed once: the config through the hardened loader, the
 * store opened read-only (no migrate, no write; created empty only when absent), and per agent its cooldown by execution
 * identity — the same lookup route uses, so the page and the router never disagree.
 */
import { existsSync } from "node:fs";
import { adapters } from "../../backends/index.ts";
import { loadConfig } from "../../config/load.ts";
import type { AgentConfig, Tier } from "../../config/types.ts";
import { TIERS } from "../../config/types.ts";
import type { Result } from "../../result.ts";
import { resolveRoots } from "../../safety/roots.ts";
import { openStore } from "../../store/db.ts";
import { chooseStorePath } from "../../store/ownership.ts";
import { defaultStorePath } from "../../store/paths.ts";
import type { Cooldown } from "../../store/cooldowns.ts";
import { cooldownsByAgent } from "../shared/cooling.ts";
import { quotaByAgent } from "../shared/quota.ts";
import { quotaHeadline, type QuotaHeadline } from "../../routing/quota.ts";
import type { Runtime } from "../shared/runtime.ts";

export async function openReadonlyRuntime(env: Record<string, string | undefined>, configPath?: string): Promise<Result<Runtime>> {
  const config = await loadConfig({ env, ...(configPath ? { path: configPath } : {}) });
  if (!config.ok) return config;
  const path = chooseStorePath(config.value.store.path, defaultStorePath(env)).path;
  const created = createIfMissing(path, config.value.store.fullContent);
  if (!created.ok) return created;
  const store = openStore(path, { readonly: true, fullContent: config.value.store.fullContent });
  if (!store.ok) return store;
  return { ok: true, value: { env, config: config.value, store: store.value, adapters, roots: resolveRoots(env, config.value), now: Date.now } };
}

/**
 * A fresh machine has no store until something runs. The dashboard creates the empty one the first
 * server would (private modes, migrations) and then reads it read-only like any other, so it starts
 * with empty pages, and the live view picks up the first run without a restart.
 */
function createIfMissing(path: string, fullContent: boolean): Result<void> {
  if (existsSync(path)) return { ok: true, value: undefined };
  const made = openStore(path, { fullContent });
  if (!made.ok) return made;
  made.value.close();
  return { ok: true, value: undefined };
}

export interface AgentStatus {
  agent: AgentConfig;
  /** Tiers (and capability slots) that list this agent. */
  tiers: Tier[];
  slots: string[];
  cooldown?: Cooldown;
  /** The window that speaks for its reported quota, as the router reads it (docs/design.md, "Quota"). */
  quota?: QuotaHeadline;
}

export type { QuotaHeadline };

export function agentStatuses(rt: Runtime): AgentStatus[] {
  // The router's own lookups, with the class (auth, capacity, …) for the page.
  const now = rt.now();
  const cooling = cooldownsByAgent(rt, now);
  const quota = quotaByAgent(rt);
  return Object.values(rt.config.agents).map((agent) => {
    const cooldown = cooling.get(agent.id);
    const headline = quotaHeadline(quota.get(agent.id) ?? [], rt.config.defaults.quotaWarnPercent, now);
    return {
      agent,
      tiers: TIERS.filter((t) => rt.config.tiers[t]?.includes(agent.id)),
      slots: Object.entries(rt.config.capabilitySlots).flatMap(([slot, ids]) => (ids.includes(agent.id) ? [slot] : [])),
      ...(cooldown ? { cooldown } : {}),
      ...(headline ? { quota: headline } : {}),
    };
  });
}
