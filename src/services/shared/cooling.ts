/**
 * Cooldowns follow the agent, not the slot: they are stored under the agent's execution identity
 * (backend, the command that really runs, model, provider), so renaming an entry or reordering a
 * tier keeps its cooldown, and a different agent moved into a cooling slot is not skipped for it.
 * Rows written by the older slot-keyed scheme ("light.1") match no identity and simply expire.
 */
import type { AgentConfig } from "../../config/types.ts";
import type { FailureClass } from "../../backends/contract.ts";
import { resolveCommand } from "../../process/resolve.ts";
import { cooldownClass, cooldownUntil } from "../../routing/cooldown.ts";
import type { Cooling } from "../../routing/plan.ts";
import type { Runtime } from "./runtime.ts";

/**
 * The key a cooldown is stored under. The resolved path, so two names for one binary are one
 * agent; and a digest of the agent's own env, because two entries on one CLI and model with
 * different homes (CODEX_HOME, …) are two accounts with their own limits. Only the digest is
 * stored: an env value may be a secret.
 */
export function agentIdentityKey(rt: Pick<Runtime, "env" | "adapters">, agent: AgentConfig): string {
  const name = agent.command ?? agent.backend;
  const command = resolveCommand(name, { env: { ...rt.env, ...agent.env }, homeDirs: rt.adapters[agent.backend].installDirs })?.path ?? name;
  const env = Object.entries(agent.env).sort(([a], [b]) => a.localeCompare(b));
  const envDigest = env.length === 0 ? "" : new Bun.CryptoHasher("sha256").update(JSON.stringify(env)).digest("hex").slice(0, 16);
  return JSON.stringify(["agent", agent.backend, command, agent.model ?? "", agent.provider, envDigest]);
}

/** The cooldowns in force now, by the agent ids of the current config. */
export function coolingByAgent(rt: Runtime, now: number): Map<string, Cooling> {
  const active = rt.store.cooldowns.active(now);
  const out = new Map<string, Cooling>();
  if (active.size === 0) return out;
  for (const agent of Object.values(rt.config.agents)) {
    const hit = active.get(agentIdentityKey(rt, agent));
    if (hit) out.set(agent.id, hit);
  }
  return out;
}

/**
 * After an unavailable failure, every orchestrate process on the machine skips this agent for a
 * while: the class's TTL, or the provider's announced wait when that is longer. A TTL of 0 turns
 * the class's cooldowns off (config.example.yaml), and a retry-after does not turn them back on.
 */
export function armCooldown(rt: Runtime, agent: AgentConfig, failure: FailureClass | undefined, retryAfterSec?: number): void {
  const cls = failure ? cooldownClass(failure) : undefined;
  if (!cls) return;
  const now = rt.now();
  const ttl = cooldownUntil(cls, rt.config.cooldowns, now);
  const until = retryAfterSec !== undefined && ttl > now ? Math.max(ttl, now + retryAfterSec * 1000) : ttl;
  rt.store.cooldowns.arm(agentIdentityKey(rt, agent), cls, until, now);
}
