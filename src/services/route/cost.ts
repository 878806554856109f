/**
 * Cost on a route: the price each planned agent is held to when its CLI reports tokens but no
 * cost, the maxCostUsd check that reads it, and the reply's word that a cost was estimated
 * (docs/cost.md).
 */
import { costIsEstimated, unenforceableLimits } from "../../config/resolve-agent.ts";
import type { AgentConfig, AgentLimits } from "../../config/types.ts";
import type { Plan } from "../../routing/plan.ts";
import type { Failure } from "../../result.ts";
import type { CostOf } from "../../runner/guards.ts";
import type { Runtime } from "../shared/runtime.ts";
import { priceOf, type PriceSource } from "../shared/price.ts";
import { costOfUsage } from "../../config/prices.ts";

export interface Estimator {
  costOf: CostOf;
  source: PriceSource;
}

/** For each planned agent whose CLI reports no cost: its price, when the config or the catalog has one. */
export async function estimatorsFor(rt: Runtime, plan: Plan): Promise<Map<string, Estimator>> {
  const out = new Map<string, Estimator>();
  for (const { agent } of plan.candidates) {
    if (agent.advisory || !costIsEstimated(agent) || out.has(agent.id)) continue;
    const quote = await priceOf(rt.config, agent.model, agent.provider);
    if (quote) out.set(agent.id, { costOf: (usage) => costOfUsage(quote.price, usage), source: quote.source });
  }
  return out;
}

/**
 * A per-call limit some planned recipient could never enforce (it reports no such figure, or no
 * cost and its model has no price; the agent's own maxCostUsd too, which the config accepted
 * before any price was read): refused before anything is sent.
 */
export function callLimitProblem(plan: Plan, limits: AgentLimits | undefined, estimators: ReadonlyMap<string, Estimator>): Failure | undefined {
  const problems = [
    ...new Set(
      plan.candidates.flatMap((c) => {
        const checked = { ...(c.agent.limits.maxCostUsd !== undefined ? { maxCostUsd: c.agent.limits.maxCostUsd } : {}), ...(limits ?? {}) };
        return unenforceableLimits(c.agent, checked, estimators.has(c.agent.id)).map((p) => `${c.agent.id}: ${p.message}`);
      }),
    ),
  ];
  if (problems.length === 0) return undefined;
  return {
    code: "limit_unenforceable",
    message: `Nothing was sent: ${problems.join("; ")}.`,
    hint: "Drop that limit from the call (maxWallSec and stallSec work on every backend), give the model a price (prices: in the config), or route to a tier whose agents report the figure.",
  };
}

/** The reply's word on an estimated cost: where the price came from, and whether a maxCostUsd was held to it. */
export function costNotice(agent: AgentConfig, estimator: Estimator | undefined, estimated: boolean): string | undefined {
  if (!estimator || !estimated) return undefined;
  const from = estimator.source === "config" ? "the config's prices:" : "the bundled price catalog";
  const limit = agent.limits.maxCostUsd !== undefined ? ` maxCostUsd ${agent.limits.maxCostUsd} was enforced on this estimate.` : "";
  return `${agent.backend} reports tokens but no cost: the cost shown is estimated from ${from} for ${agent.model ?? "its model"} (API-equivalent, not a bill).${limit}`;
}
