/**
 * Cooldowns follow the agent, not the slot: they are stored under the agent's execution identity
 * (backend, the command that really runs, model, provider), so renaming an entry or reordering a
 * tier keeps its cooldown, and a different agent moved into a cooling slot is not skipped for it.
 * Rows written by the older slot-keyed scheme ("light.1") match no identity and simply expire.
 */
import type { AgentConfig } from "../../config/types.ts";
import type { FailureClass, Readiness } from "../../backends/contract.ts";
import { resolveCommand } from "../../process/resolve.ts";
import { cooldownClass, cooldownUntil } from "../../routing/cooldown.ts";
import type { Cooling } from "../../routing/plan.ts";
import type { Runtime } from "./runtime.ts";
import type { Cooldown } from "../../store/cooldowns.ts";
import { readinessOf } from "../../runner/readiness.ts";
import { variantOf, variantTraits } from "../../runner/variant.ts";
import { log } from "../../log.ts";

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

/**
 * The cooldowns in force now, by the agent ids of the current config, with their class: the one
 * lookup the router, `orchestrate cooldowns` and the dashboard read (the doctor reads the same key).
 */
export function cooldownsByAgent(rt: Runtime, now: number): Map<string, Cooldown> {
  const active = rt.store.cooldowns.active(now);
  const out = new Map<string, Cooldown>();
  if (active.size === 0) return out;
  for (const agent of Object.values(rt.config.agents)) {
    const hit = active.get(agentIdentityKey(rt, agent));
    if (hit) out.set(agent.id, hit);
  }
  return out;
}

export function coolingByAgent(rt: Runtime, now: number): Map<string, Cooling> {
  return cooldownsByAgent(rt, now);
}

/**
 * An auth cooldown outlives the sign-in that ends it (30 minutes by default), so before the router
 * skips an agent for one it asks the CLI's own cheap sign-in probe again (`codex login status`, …;
 * fresh, not the readiness cache): signed in now → the cooldown is cleared, and the clearing is
 * logged and returned for the caller to show. Only a cooldown that same probe armed as "signed out"
 * (probeSaysSignedOut) heals; a CLI with no such probe keeps cooling.
 */
export async function healAuthCooldowns(rt: Runtime, agentIds: readonly string[]): Promise<string[]> {
  const healed = await signedInAgain(rt, agentIds);
  for (const id of healed) {
    const agent = rt.config.agents[id];
    if (agent) rt.store.cooldowns.clear(agentIdentityKey(rt, agent));
    log.info(`${id}: signed in again; its auth cooldown was cleared`);
  }
  return healed;
}

/**
 * The agents among these whose healing auth cooldown the fresh sign-in probe would clear; nothing
 * is cleared (the dry run shows the real run's decision with it, and changes nothing).
 */
export async function signedInAgain(rt: Runtime, agentIds: readonly string[]): Promise<string[]> {
  const cooling = cooldownsByAgent(rt, rt.now());
  const ready: string[] = [];
  for (const id of new Set(agentIds)) {
    const agent = rt.config.agents[id];
    const cooldown = cooling.get(id);
    if (!agent || cooldown?.cls !== "auth" || !cooldown.heals) continue;
    if ((await signInProbe(rt, agent)) === "ready") ready.push(id);
  }
  return ready;
}

async function signInProbe(rt: Runtime, agent: AgentConfig): Promise<Readiness> {
  const adapter = rt.adapters[agent.backend];
  const env = { ...rt.env, ...agent.env };
  const command = resolveCommand(agent.command ?? agent.backend, { env, homeDirs: adapter.installDirs });
  if (!command) return "unknown";
  const traits = variantTraits(adapter, await variantOf(adapter, command.path, env));
  return readinessOf(adapter, command.path, env, { probes: traits.probes, fresh: true });
}

/** `orchestrate cooldowns clear [AGENT]`: one agent's cooldown, or every one in force; how many were cleared. */
export function clearCooldowns(rt: Runtime, agentId?: string): number {
  if (agentId === undefined) return rt.store.cooldowns.clearAll(rt.now());
  const agent = rt.config.agents[agentId];
  if (!agent || !cooldownsByAgent(rt, rt.now()).has(agentId)) return 0;
  rt.store.cooldowns.clear(agentIdentityKey(rt, agent));
  return 1;
}

/**
 * After an unavailable failure, every orchestrate process on the machine skips this agent for a
 * while: the class's TTL, or the provider's announced wait when that is longer. A TTL of 0 turns
 * the class's cooldowns off (config.example.yaml), and a retry-after does not turn them back on.
 * A capacity failure whose vendor named when the exhausted quota resets (`quotaResetAt`, epoch
 * ms) cools exactly until then, not for the class's fixed time (docs/design.md, "Quota").
 */
export function armCooldown(
  rt: Runtime,
  agent: AgentConfig,
  failure: FailureClass | undefined,
  retryAfterSec?: number,
  heals = false,
  quotaResetAt?: number,
): void {
  const cls = failure ? cooldownClass(failure) : undefined;
  if (!cls) return;
  const now = rt.now();
  const ttl = cooldownUntil(cls, rt.config.cooldowns, now);
  const vendorReset = cls === "capacity" && quotaResetAt !== undefined && quotaResetAt > now && ttl > now ? quotaResetAt : undefined;
  const until = vendorReset ?? (retryAfterSec !== undefined && ttl > now ? Math.max(ttl, now + retryAfterSec * 1000) : ttl);
  rt.store.cooldowns.arm(agentIdentityKey(rt, agent), cls, until, now, heals && cls === "auth");
}

/**
 * Whether the CLI's own sign-in probe says "signed out" right after an auth failure: a refusal
 * before launch was that probe's verdict; after a run it is asked once, fresh. Only then may a
 * later "signed in" from it lift the cooldown (healAuthCooldowns): a probe that says "ready" while
 * the provider refuses the key would otherwise clear every cooldown it gets.
 */
export async function probeSaysSignedOut(rt: Runtime, agent: AgentConfig, spawned: boolean): Promise<boolean> {
  if (!spawned) return true;
  return (await signInProbe(rt, agent)) === "not_ready";
}
