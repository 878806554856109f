/**
 * `ask` with `dry_run: true`: the request checked at the same boundary as a real ask, then the
 * deployments it could go to — the capability's own, then its fallbacks' — each with an estimated
 * cost for this prompt. Nothing is sent, and nothing is recorded: no provider heard of it.
 */
import type { AskDeployment } from "../../config/types.ts";
import type { Result } from "../../result.ts";
import type { Runtime } from "../shared/runtime.ts";
import { estimateCost, priceOf, type CostEstimate, type PriceQuote } from "../shared/price.ts";
import { coolingUntil } from "./cooling.ts";
import { deploymentQuota } from "./quota.ts";
import { checkRequest, type AskRequest, type CheckedRequest } from "./request.ts";

export interface AskDryRun {
  capability: string;
  strategy: string;
  deployments: {
    capability: string;
    id: string;
    model: string;
    fallback: boolean;
    cooling_until: string | null;
    /** Its last reported quota, while a window is in force: an exhausted one is skipped until its reset. */
    quota?: string;
    cost: CostEstimate;
  }[];
}

export async function askDryRun(rt: Runtime, req: AskRequest): Promise<Result<AskDryRun>> {
  const checked = await checkRequest(rt.config.ask, req);
  if (!checked.ok) return checked;
  const { capability } = checked.value;
  const chars = conversationChars(checked.value);
  const capabilities = [capability, ...capability.fallbacks.flatMap((name) => rt.config.ask.capabilities[name] ?? [])];
  const now = rt.now();
  const deployments: AskDryRun["deployments"] = [];
  for (const [i, c] of capabilities.entries()) {
    const cooling = coolingUntil(rt, c.deployments, now);
    const quota = deploymentQuota(rt, c.deployments, now);
    for (const d of c.deployments) {
      const until = cooling.get(d);
      const line = quota.get(d);
      const outputLimit = Math.min(checked.value.maxOutputTokens, d.maxOutputTokens ?? Number.POSITIVE_INFINITY);
      deployments.push({
        capability: c.name,
        id: d.id,
        model: d.model,
        fallback: i > 0,
        cooling_until: until !== undefined ? new Date(until).toISOString() : null,
        ...(line ? { quota: line } : {}),
        cost: estimateCost(await deploymentPrice(rt, d), chars, outputLimit),
      });
    }
  }
  return { ok: true, value: { capability: capability.name, strategy: capability.strategy, deployments } };
}

/** The deployment's own pricing (its model_info), then the config's prices:, then the catalog. */
async function deploymentPrice(rt: Runtime, d: AskDeployment): Promise<PriceQuote | undefined> {
  if (d.pricing) return { price: d.pricing, source: "config" };
  return priceOf(rt.config, d.model);
}

/** What the provider is sent: the system text and every message, as characters. */
function conversationChars(checked: CheckedRequest): number {
  const { system, messages } = checked.conversation;
  return (system?.length ?? 0) + messages.reduce((n, m) => n + (typeof m.content === "string" ? m.content.length : JSON.stringify(m.content).length), 0);
}
