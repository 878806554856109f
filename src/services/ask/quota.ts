/**
 * Quota per deployment (docs/design.md, "Quota"): the windows a provider's rate-limit headers
 * reported are stored under the deployment's identity (cooling.ts deploymentKey), in the one quota
 * table every orchestrate process shares; a deployment whose window is exhausted until a time to
 * come is skipped before anything is sent, like a cooling one, and the reply says until when.
 */
import type { QuotaEvent } from "../../backends/events.ts";
import type { AskDeployment } from "../../config/types.ts";
import { describeQuota, quotaSummary, quotaVerdict } from "../../routing/quota.ts";
import { quotaObservations, recordQuotaUnder } from "../shared/quota.ts";
import type { Runtime } from "../shared/runtime.ts";
import { deploymentKey } from "./cooling.ts";

export function recordDeploymentQuota(rt: Runtime, d: AskDeployment, events: readonly QuotaEvent[] | undefined): void {
  if (!events?.length) return;
  recordQuotaUnder(rt, deploymentKey(d), quotaObservations(events, rt.now()));
}

/** The deployments among these whose quota is exhausted now: until when, and why in words. */
export function quotaSpent(rt: Runtime, deployments: readonly AskDeployment[], now: number): Map<AskDeployment, { until: number; why: string }> {
  const windows = rt.store.quota.byAgent(deployments.map(deploymentKey));
  const out = new Map<AskDeployment, { until: number; why: string }>();
  for (const d of deployments) {
    const verdict = quotaVerdict(windows.get(deploymentKey(d)) ?? [], rt.config.defaults.quotaWarnPercent, now);
    if (verdict?.kind === "exhausted") out.set(d, { until: verdict.until, why: `quota_exhausted: ${describeQuota(verdict, now)}` });
  }
  return out;
}

/** One line per deployment with a window in force ("exhausted: requests …", "ok: tokens 12 % used …"). */
export function deploymentQuota(rt: Runtime, deployments: readonly AskDeployment[], now: number): Map<AskDeployment, string> {
  const windows = rt.store.quota.byAgent(deployments.map(deploymentKey));
  const out = new Map<AskDeployment, string>();
  for (const d of deployments) {
    const line = quotaSummary(windows.get(deploymentKey(d)) ?? [], rt.config.defaults.quotaWarnPercent, now);
    if (line) out.set(d, line);
  }
  return out;
}
