/**
 * What the history keeps of each leg of an ask: the capability and deployment it went to (model
 * and base-URL host only — never the key, its variable's value, a path or a query), how it ended,
 * the HTTP status, how long it took and how many earlier tries the deployment had in this request.
 */
import type { AskDeployment } from "../../config/types.ts";
import type { AskLegInput } from "../../store/asks.ts";
import type { Leg } from "./leg.ts";

export type LegEntry = AskLegInput;

export interface LegFacts {
  capability: string;
  deployment: AskDeployment;
  leg: Leg;
  began: number;
  ended: number;
  retry: number;
}

export function legEntry(f: LegFacts): LegEntry {
  const r = f.leg.result;
  const base = {
    capability: f.capability,
    model: f.deployment.model,
    host: hostOf(f.deployment.endpoint.url),
    statusCode: f.leg.status ?? null,
    latencyMs: f.ended - f.began,
    retry: f.retry,
    endedAt: f.ended,
  };
  switch (r.kind) {
    case "answer":
      return { ...base, outcome: "ok" };
    case "non_answer":
      return { ...base, outcome: "non_answer", errorCode: r.why };
    case "failed":
      return { ...base, outcome: "failed", errorCode: r.failure, ...(r.unsent ? { statusCode: null } : {}) };
    default:
      return { ...base, outcome: "cancelled" };
  }
}

/** host[:port] of a base URL: what identifies the provider, without userinfo, path or query. */
export function hostOf(url: string): string | null {
  try {
    return new URL(url).host || null;
  } catch {
    return null;
  }
}
