/**
 * The doctor's view of seed 002's ask: each configured capability with its deployments — model,
 * base-URL host, whether the key variable it names is set (never the value, never the full URL) —
 * and the ones cooling down now, read from the store the servers share (opened read-only; an
 * absent or unusable store just means no cooldown is known).
 */
import { lstatSync } from "node:fs";
import type { AskConfig, AskStrategy } from "../config/types.ts";
import { deploymentKey } from "../services/ask/cooling.ts";
import { hostOf } from "../services/ask/trail.ts";
import type { Cooldown } from "../store/cooldowns.ts";
import type { QuotaObservation } from "../store/quota.ts";
import { openStore } from "../store/db.ts";

export interface AskDeploymentReport {
  id: string;
  model: string;
  host: string | null;
  /** The variable the key is read from; undefined = the deployment sends no key. */
  keyEnv?: string;
  keySet: boolean;
  /** When it comes back, ms since the epoch, if it is cooling now. */
  coolingUntil?: number;
}

export interface AskCapabilityReport {
  name: string;
  strategy: AskStrategy;
  fallbacks: string[];
  deployments: AskDeploymentReport[];
}

export function askReport(ask: AskConfig, env: Record<string, string | undefined>, cooling: ReadonlyMap<string, Cooldown>): AskCapabilityReport[] {
  const capabilities = Object.values(ask.capabilities);
  if (capabilities.length === 0) return [];
  return capabilities.map((c) => ({
    name: c.name,
    strategy: c.strategy,
    fallbacks: c.fallbacks,
    deployments: c.deployments.map((d) => {
      const until = cooling.get(deploymentKey(d))?.until;
      return {
        id: d.id,
        model: d.model,
        host: hostOf(d.endpoint.url),
        ...(d.keyEnv !== undefined ? { keyEnv: d.keyEnv } : {}),
        keySet: d.keyEnv === undefined || Boolean(env[d.keyEnv]),
        ...(until !== undefined ? { coolingUntil: until } : {}),
      };
    }),
  }));
}

/** Every cooldown in force, by its stored key; an absent or unusable store knows none. */
export function activeCooldowns(path: string, now: number): Map<string, Cooldown> {
  if (!lstatSync(path, { throwIfNoEntry: false })?.isFile()) return new Map();
  const opened = openStore(path, { readonly: true });
  if (!opened.ok) return new Map();
  try {
    return opened.value.cooldowns.active(now);
  } catch {
    return new Map();
  } finally {
    opened.value.close();
  }
}

/** Each identity's quota windows, read-only from the shared store (services/shared/quota.ts writes them). */
export function storedQuota(path: string, keys: readonly string[]): Map<string, QuotaObservation[]> {
  if (keys.length === 0 || !lstatSync(path, { throwIfNoEntry: false })?.isFile()) return new Map();
  const opened = openStore(path, { readonly: true });
  if (!opened.ok) return new Map();
  try {
    return opened.value.quota.byAgent(keys);
  } catch {
    return new Map();
  } finally {
    opened.value.close();
  }
}

/** Problems worth a hint: a key variable the server's environment does not set. */
export function askProblems(report: AskCapabilityReport[]): { problem: string; hint: string; blocks: boolean }[] {
  return report.flatMap((c) =>
    c.deployments
      .filter((d) => !d.keySet)
      .map((d) => ({
        problem: `ask ${c.name}/${d.id}: ${d.keyEnv ?? "its key variable"} is not set`,
        hint: `set ${d.keyEnv ?? "the variable"} in the environment the server runs with (the MCP client's env block for orchestrate); until then this deployment is skipped`,
        blocks: true,
      })),
  );
}
