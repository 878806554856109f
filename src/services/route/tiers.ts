/** list_tiers and router_dry_run: read-only views of the routing, sending nothing anywhere. */
import { CLI_BACKENDS } from "../../backends/index.ts";
import { TIERS, type Tier } from "../../config/types.ts";
import { planRoute } from "../../routing/plan.ts";
import { resolveCommand } from "../../process/resolve.ts";
import { checkCwd } from "../../safety/roots.ts";
import type { Result } from "../../result.ts";
import type { Runtime } from "../shared/runtime.ts";
import { coolingByAgent, signedInAgain } from "../shared/cooling.ts";
import { quotaByAgent, quotaSummaries } from "../shared/quota.ts";
import { agentEstimate, type CostEstimate } from "../shared/price.ts";

export interface TierListing {
  tiers: Record<Tier, boolean>;
  capabilities: string[];
  cooling: Tier[];
  installed: string[];
  /** Per tier, the quota of each entry whose CLI reported a window still in force, in tier order (as list_agents words it). */
  quota: Partial<Record<Tier, string[]>>;
}

/**
 * Presence only: never model ids, agent ids, candidate counts or the config path. The quota lines
 * name no entry; only entries with a reported window have one.
 */
export function listTiers(rt: Runtime): TierListing {
  const now = rt.now();
  const cooling = coolingByAgent(rt, now);
  const tiers = Object.fromEntries(TIERS.map((t) => [t, rt.config.tiers[t] !== null])) as Record<Tier, boolean>;
  const coolingTiers = TIERS.filter((t) => (rt.config.tiers[t] ?? []).some((id) => (cooling.get(id)?.until ?? 0) > now));
  const installed = CLI_BACKENDS.filter((b) => resolveCommand(b, { env: rt.env, homeDirs: rt.adapters[b].installDirs }) !== undefined);
  return { tiers, capabilities: Object.keys(rt.config.capabilitySlots).sort(), cooling: coolingTiers, installed, quota: tierQuota(rt) };
}

function tierQuota(rt: Runtime): Partial<Record<Tier, string[]>> {
  const lines = quotaSummaries(rt);
  const out: Partial<Record<Tier, string[]>> = {};
  for (const tier of TIERS) {
    const shown = (rt.config.tiers[tier] ?? []).flatMap((id) => lines.get(id) ?? []);
    if (shown.length > 0) out[tier] = shown;
  }
  return out;
}

export interface DryRunRequest {
  cwd: string;
  tier: Tier;
  caps?: string[];
  timeoutSec?: number;
  /** The prompt a route would send, counted for the cost estimate (nothing is sent). */
  prompt?: string;
}

export interface DryRun {
  recipients: {
    n: number;
    agent: string;
    tier: Tier;
    backend: string;
    model?: string;
    provider: string;
    advisory: boolean;
    crossesProvider: boolean;
    budgetSec: number;
    /** Absent for an advisory entry: it sends nothing. */
    cost?: CostEstimate;
  }[];
  decisions: { agent: string; tier: Tier; decision: "include" | "skip"; reason: string }[];
  crossings: string[];
  budget: { totalSec: number; reserveSec: number; perAttemptSec: number[] };
}

/**
 * The plan a real route would take now, healing included (services/route/index.ts planHealed): an
 * auth cooldown whose sign-in probe says signed in again is left out of the cooling, not cleared.
 */
export async function dryRun(rt: Runtime, req: DryRunRequest): Promise<Result<DryRun>> {
  const cwd = checkCwd(req.cwd, rt.roots);
  if (!cwd.ok) return cwd;
  const now = rt.now();
  const cooling = coolingByAgent(rt, now);
  for (const id of await signedInAgain(rt, [...cooling.keys()])) cooling.delete(id);
  const planned = planRoute(
    { tier: req.tier, caps: req.caps ?? [], ...(req.timeoutSec ? { timeoutSec: req.timeoutSec } : {}) },
    rt.config,
    cooling,
    now,
    quotaByAgent(rt),
  );
  if (!planned.ok) return { ok: false, error: planned.error };
  const { plan } = planned;
  const costs = await Promise.all(plan.candidates.map((c) => (c.agent.advisory ? undefined : agentEstimate(rt.config, c.agent, (req.prompt ?? "").length))));
  const recipients = plan.candidates.map((c, i) => ({
    n: i + 1,
    agent: c.agent.id,
    tier: c.tier,
    backend: c.agent.backend,
    ...(c.agent.model ? { model: c.agent.model } : {}),
    provider: c.agent.provider,
    advisory: c.agent.advisory,
    crossesProvider: c.crossesProvider,
    budgetSec: plan.budget.perAttemptSec[i] ?? 0,
    ...(costs[i] ? { cost: costs[i] } : {}),
  }));
  const crossings = plan.candidates
    .filter((c) => c.crossesProvider)
    .map((c) => `${c.agent.id}: ${plan.homeProvider} → ${c.agent.provider}${c.agent.aggregator ? " (aggregator)" : ""}`);
  const decisions = plan.decisions.map((d) => ({ agent: d.agentId, tier: d.tier, decision: d.decision, reason: d.reason }));
  return { ok: true, value: { recipients, decisions, crossings, budget: plan.budget } };
}
