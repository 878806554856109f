/**
 * What the load-aware parts of an ask read about a capability's deployments: the legs this process
 * has in flight (no other process's are visible — the history holds only finished asks), and from
 * the history every process shares, the last minute's requests and tokens (rpm/tpm and the `usage`
 * strategy) and the recent latency of answered legs (the `latency` strategy).
 */
import type { AskDeployment } from "../../config/types.ts";
import type { LoadFacts } from "../../routing/ask-plan.ts";
import type { Runtime } from "../shared/runtime.ts";
import { deploymentKey } from "./cooling.ts";
import { hostOf } from "./trail.ts";
import { forgetAtServerEnd } from "../../lifetime.ts";

const MINUTE_MS = 60_000;
/** Latency is averaged over a longer window than rate limits: a quiet minute should not forget it. */
const LATENCY_WINDOW_MS = 15 * MINUTE_MS;

const inFlight = new Map<string, number>();
forgetAtServerEnd(() => inFlight.clear());

/** Counts a leg as in flight until the returned function is called. */
export function startLeg(d: AskDeployment): () => void {
  const key = deploymentKey(d);
  inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
  return () => {
    const left = (inFlight.get(key) ?? 1) - 1;
    if (left > 0) inFlight.set(key, left);
    else inFlight.delete(key);
  };
}

export interface DeploymentMinute extends LoadFacts {
  /** Legs in the last minute, this process's in-flight ones included. */
  requests: number;
}

/** One read of the history for all of a capability's deployments. */
export function loadOf(rt: Runtime, deployments: readonly AskDeployment[]): (d: AskDeployment) => DeploymentMinute {
  const now = rt.now();
  const needsHistory = deployments.some((d) => d.rpm !== undefined || d.tpm !== undefined);
  const minute = needsHistory || deployments.length > 1 ? rt.store.asks.recentLoad(now - MINUTE_MS) : [];
  const latency = deployments.length > 1 ? rt.store.asks.recentLoad(now - LATENCY_WINDOW_MS) : [];
  const find = <T extends { model: string; host: string | null }>(rows: readonly T[], d: AskDeployment) =>
    rows.find((r) => r.model === d.model && r.host === hostOf(d.endpoint.url));
  return (d) => {
    const flying = inFlight.get(deploymentKey(d)) ?? 0;
    const recent = find(minute, d);
    const slow = find(latency, d)?.meanLatencyMs;
    return {
      inFlight: flying,
      requests: (recent?.requests ?? 0) + flying,
      tokens: recent?.tokens ?? 0,
      ...(slow !== null && slow !== undefined ? { meanLatencyMs: slow } : {}),
    };
  };
}
