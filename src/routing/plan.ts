/**
 * The route planner: tier entries → caps filter → minus disabled, cooling and quota-exhausted agents,
 * quota-warned ones moved after the rest of their tier → the tier's fallback chain → cross-provider gate → budget split. Pure: config, cooldowns and the clock come
 * in as arguments, so every decision is table-tested and `router_dry_run` shows exactly what `route`
 * would do.
 */
import type { AgentConfig, Config, Tier } from "../config/types.ts";
import { splitBudget, type BudgetSplit } from "./budget.ts";
import { describeQuota, quotaVerdict, type QuotaVerdict, type QuotaWindow } from "./quota.ts";

export interface Cooling {
  until: number;
}

export interface PlanRequest {
  tier: Tier;
  caps: string[];
  timeoutSec?: number;
}

export interface Candidate {
  agent: AgentConfig;
  /** The tier whose list supplied this agent (differs from the request after a fallback hop). */
  tier: Tier;
  via: "tier" | "capability-slot" | "fallback";
  /** A hop to another provider (or through an aggregator) than the tier's first entry. */
  crossesProvider: boolean;
  /** Which rule let this candidate receive the prompt (quoted by the notice and the dry run). */
  consent: Consent;
}

/**
 * `home-entry`: the requested tier's own first entry — what the person configured first needs no
 * consent, even when it is an aggregator; `same-provider`: no provider is crossed;
 * `allowCrossProviderFallback`: the config's consent to cross. Nothing else lets a prompt out.
 */
export type Consent = "home-entry" | "same-provider" | "allowCrossProviderFallback";

/**
 * Every entry considered, with why it was included (and under which consent rule) or skipped.
 * `quota` marks what the entry's quota did to it: skipped as exhausted, or deferred behind the
 * tier's other entries at its warning state; `text` is the reason's quota part.
 */
export type Decision = { agentId: string; tier: Tier; reason: string; quota?: { effect: "skipped" | "deferred"; text: string } } & (
  | { decision: "include"; consent: Consent }
  | { decision: "skip" }
);

export interface Plan {
  candidates: Candidate[];
  decisions: Decision[];
  /** The provider the request is meant for: that of the requested tier's first entry. */
  homeProvider?: string;
  budget: BudgetSplit;
}

export type PlanError =
  | { code: "tier_unconfigured"; message: string }
  | { code: "no_candidates"; message: string }
  | { code: "invalid_timeout"; message: string };

export const TIMEOUT_MIN_SEC = 30;
export const TIMEOUT_MAX_SEC = 3600;

/** A failed plan keeps its decisions (every entry skipped, and why): the route service re-checks auth cooldowns from them. */
/** `quota`: each agent's reported windows by agent id (services/shared/quota.ts); none known is none. */
export function planRoute(
  req: PlanRequest,
  config: Config,
  cooling: ReadonlyMap<string, Cooling>,
  now: number,
  quota: ReadonlyMap<string, readonly QuotaWindow[]> = new Map(),
): { ok: true; plan: Plan } | { ok: false; error: PlanError; decisions?: Decision[] } {
  const timeoutSec = req.timeoutSec ?? config.defaults.timeoutSec;
  if (!Number.isFinite(timeoutSec) || timeoutSec < TIMEOUT_MIN_SEC || timeoutSec > TIMEOUT_MAX_SEC) {
    return {
      ok: false,
      error: { code: "invalid_timeout", message: `timeoutSec must be between ${TIMEOUT_MIN_SEC} and ${TIMEOUT_MAX_SEC} (got ${timeoutSec}).` },
    };
  }
  if (config.tiers[req.tier] === null && !config.fallbacks[req.tier]) {
    return {
      ok: false,
      error: {
        code: "tier_unconfigured",
        message: `Tier "${req.tier}" is not configured. Add it under tiers.${req.tier} in the config (orchestrate init), then restart the client.`,
      },
    };
  }
  const decisions: Decision[] = [];
  const candidates: Candidate[] = [];
  const homeAgent = tierAgents(req.tier, req.caps, config, "tier")[0]?.agent;
  const home = homeAgent?.provider;
  const verdicts = quotaVerdicts(config, quota, now);
  for (const [tier, via] of tierChain(req.tier, config)) {
    for (const agent of warnedLast(tierAgents(tier, req.caps, config, via), verdicts)) {
      const isHome = agent.agent.id === homeAgent?.id && agent.via !== "fallback";
      const decision = decide(
        { agent: agent.agent, tier, via: agent.via, isHome, quota: verdicts.get(agent.agent.id) },
        candidates,
        home,
        config,
        cooling,
        now,
      );
      decisions.push(decision);
      if (decision.decision === "include") candidates.push({ ...agent, tier, crossesProvider: crosses(agent.agent, home), consent: decision.consent });
    }
  }
  if (candidates.length === 0) {
    return { ok: false, error: { code: "no_candidates", message: noCandidateMessage(req, decisions) }, decisions };
  }
  return {
    ok: true,
    plan: {
      candidates,
      decisions,
      ...(home ? { homeProvider: home } : {}),
      budget: splitBudget(
        timeoutSec,
        candidates.map((c) => c.agent.limits.maxWallSec),
      ),
    },
  };
}

function quotaVerdicts(config: Config, quota: ReadonlyMap<string, readonly QuotaWindow[]>, now: number): Map<string, QuotaVerdict> {
  const out = new Map<string, QuotaVerdict>();
  for (const [id, windows] of quota) {
    const verdict = quotaVerdict(windows, config.defaults.quotaWarnPercent, now);
    if (verdict) out.set(id, verdict);
  }
  return out;
}

/**
 * A tier-local reordering: entries whose quota is at its warning state go after the tier's other
 * entries, in their configured order. Consent is still decided per entry against the tier's own
 * first entry (decide), so a warned home entry never lets the next one cross a provider unasked.
 */
function warnedLast<T extends { agent: AgentConfig }>(entries: T[], verdicts: ReadonlyMap<string, QuotaVerdict>): T[] {
  const warned = (e: T) => verdicts.get(e.agent.id)?.kind === "warning";
  return [...entries.filter((e) => !warned(e)), ...entries.filter(warned)];
}

/** The requested tier, then each fallback hop in order; a cycle stops at the first repeat. */
function tierChain(start: Tier, config: Config): [Tier, Candidate["via"]][] {
  const chain: [Tier, Candidate["via"]][] = [[start, "tier"]];
  const seen = new Set<Tier>([start]);
  let next = config.fallbacks[start];
  while (next && !seen.has(next)) {
    chain.push([next, "fallback"]);
    seen.add(next);
    next = config.fallbacks[next];
  }
  return chain;
}

/** Entries of a tier that have every requested capability; else the capability slots serving them. */
function tierAgents(tier: Tier, caps: string[], config: Config, via: Candidate["via"]): { agent: AgentConfig; via: Candidate["via"] }[] {
  const listed = (config.tiers[tier] ?? []).map((id) => config.agents[id]).filter((a): a is AgentConfig => a !== undefined);
  if (caps.length === 0) return listed.map((agent) => ({ agent, via }));
  const capable = listed.filter((agent) => hasCaps(agent, caps));
  if (capable.length > 0 || via === "fallback") return capable.map((agent) => ({ agent, via }));
  return slotAgents(caps, config).map((agent) => ({ agent, via: "capability-slot" as const }));
}

function slotAgents(caps: string[], config: Config): AgentConfig[] {
  const ids = new Set<string>();
  for (const cap of caps) for (const id of config.capabilitySlots[cap] ?? []) ids.add(id);
  return [...ids]
    .map((id) => config.agents[id])
    .filter((a): a is AgentConfig => a !== undefined)
    .filter((agent) => caps.every((cap) => agent.capabilities.includes(cap) || (config.capabilitySlots[cap] ?? []).includes(agent.id)));
}

function hasCaps(agent: AgentConfig, caps: string[]): boolean {
  return caps.every((cap) => agent.capabilities.includes(cap));
}

/** A hop to another provider, or through an aggregator, ships the prompt somewhere new. */
function crosses(agent: AgentConfig, home: string | undefined): boolean {
  if (home === undefined) return false;
  return agent.aggregator || agent.provider !== home;
}

interface Entry {
  agent: AgentConfig;
  tier: Tier;
  via: Candidate["via"];
  /** The requested tier's own first entry (by id, whether or not it is cooling). */
  isHome: boolean;
  quota: QuotaVerdict | undefined;
}

/**
 * Consent is checked on every candidate, not on "whichever is chosen first": when the first entry
 * is cooling or disabled, the next one on another provider still needs allowCrossProviderFallback.
 */
function decide(entry: Entry, chosen: Candidate[], home: string | undefined, config: Config, cooling: ReadonlyMap<string, Cooling>, now: number): Decision {
  const { agent, tier, via } = entry;
  const skip = (reason: string): Decision => ({ agentId: agent.id, tier, decision: "skip", reason });
  if (chosen.some((c) => c.agent.id === agent.id)) return skip("already planned earlier in the chain");
  if (!agent.enabled) return skip("disabled in config");
  // Before the cooldown: a quota failure's cooldown ends at the same reset, and this says why.
  if (entry.quota?.kind === "exhausted") {
    const text = `quota_exhausted: ${describeQuota(entry.quota, now)}`;
    return { ...skip(text), quota: { effect: "skipped", text } };
  }
  const cool = cooling.get(agent.id);
  if (cool && cool.until > now)
    return skip(`cooling down (unavailable) until ${new Date(cool.until).toISOString().slice(11, 19)} UTC (${Math.ceil((cool.until - now) / 1000)} s)`);
  const crossing = crosses(agent, home);
  if (crossing && !entry.isHome && !config.allowCrossProviderFallback) {
    return skip(
      `would cross from provider ${home} to ${agent.provider}${agent.aggregator ? " (aggregator)" : ""}; set allowCrossProviderFallback: true to allow`,
    );
  }
  const consent: Consent = entry.isHome ? "home-entry" : crossing ? "allowCrossProviderFallback" : "same-provider";
  const base = { agentId: agent.id, tier, decision: "include" as const, consent };
  if (entry.quota?.kind !== "warning") return { ...base, reason: reasonFor(via, crossing, consent) };
  const text = `quota_warning: ${describeQuota(entry.quota, now)}`;
  return { ...base, reason: `${reasonFor(via, crossing, consent)}; ${text}, so it goes after the tier's other entries`, quota: { effect: "deferred", text } };
}

function reasonFor(via: Candidate["via"], crossing: boolean, consent: Consent): string {
  const base = via === "tier" ? "tier entry" : via === "fallback" ? "fallback tier entry" : "capability slot";
  if (!crossing) return base;
  if (consent === "home-entry")
    return `${base}; the tier's own first entry (an aggregator counts as another provider, but what you configured first needs no consent)`;
  return `${base}; crosses provider (allowed by allowCrossProviderFallback)`;
}

function noCandidateMessage(req: PlanRequest, decisions: Decision[]): string {
  const capsText = req.caps.length > 0 ? ` with caps [${req.caps.join(", ")}]` : "";
  if (decisions.length === 0) return `No configured agent can serve tier "${req.tier}"${capsText}. Add one in the config or a capability slot.`;
  const why = decisions.map((d) => `${d.agentId}: ${d.reason}`).join("; ");
  return `No agent is available for tier "${req.tier}"${capsText} (${why}).`;
}
