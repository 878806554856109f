/**
 * Per-deployment cooldowns, in the store's one cooldowns table shared by every orchestrate process
 * (no migration: the key is a JSON array whose first element, "deployment", can never equal an
 * agent key's "agent"). A deployment is keyed by what makes it one rate-limit bucket — format,
 * endpoint URL, model and the key's variable — not by its capability or position, so the same
 * endpoint listed under two capabilities cools once, and reordering a list keeps its cooldowns.
 */
import type { DeploymentFailure } from "../../backends/http/classify.ts";
import type { AskDeployment } from "../../config/types.ts";
import type { CooldownClass } from "../../store/cooldowns.ts";
import type { Runtime } from "../shared/runtime.ts";
import { forgetAtServerEnd } from "../../lifetime.ts";

export function deploymentKey(d: AskDeployment): string {
  return JSON.stringify(["deployment", d.endpoint.wire, d.endpoint.url, d.apiModel, d.keyEnv ?? ""]);
}

/** Why a deployment is skipped: its class, for a message; never "auth" vs "capacity" to a caller. */
const CLASS_OF: Record<DeploymentFailure | "timeout", CooldownClass | undefined> = {
  auth: "auth",
  rate_limited: "capacity",
  server: "capacity",
  transport: "transport",
  timeout: "transport",
  misconfigured: "not_installed",
  // A request this deployment refused says nothing about its health.
  bad_request: undefined,
  context_window: undefined,
};

const MINUTE_MS = 60_000;
/** Failure times per deployment in this process, for allowed_fails (LiteLLM counts them per minute). */
const recentFailures = new Map<string, number[]>();
forgetAtServerEnd(() => recentFailures.clear());

/** Whether this failure is past the deployment's allowance for the minute; a rate limit always is. */
function pastAllowance(key: string, failure: DeploymentFailure | "timeout", allowed: number, now: number): boolean {
  const times = (recentFailures.get(key) ?? []).filter((t) => now - t < MINUTE_MS);
  times.push(now);
  recentFailures.set(key, times);
  return failure === "rate_limited" || times.length > allowed;
}

/** Cooling deployments among `deployments`, with when each comes back. */
export function coolingUntil(rt: Runtime, deployments: readonly AskDeployment[], now: number): Map<AskDeployment, number> {
  const active = rt.store.cooldowns.active(now);
  const out = new Map<AskDeployment, number>();
  if (active.size === 0) return out;
  for (const d of deployments) {
    const hit = active.get(deploymentKey(d));
    if (hit) out.set(d, hit.until);
  }
  return out;
}

/**
 * After a failure: skipped by every process for cooldownSec, or the provider's retry-after when
 * longer — once the deployment has failed more than allowedFails times this minute (a rate limit
 * cools at once, as in LiteLLM).
 */
export function coolDown(rt: Runtime, d: AskDeployment, failure: DeploymentFailure | "timeout", retryAfterMs: number | undefined): void {
  const cls = CLASS_OF[failure];
  const sec = rt.config.ask.cooldownSec;
  if (!cls || sec === 0) return;
  const now = rt.now();
  const key = deploymentKey(d);
  if (!pastAllowance(key, failure, rt.config.ask.allowedFails, now)) return;
  rt.store.cooldowns.arm(key, cls, Math.max(now + sec * 1000, now + (retryAfterMs ?? 0)), now);
}
