/**
 * Who answers a consultation: the eligible agent with the highest score for the capability, lower
 * priority breaking a tie, then the agent id. The host's own runtime is excluded, except a
 * different, versioned model on it when the host's model is configured. No fallback. Pure.
 */
import type { Backend } from "../backends/index.ts";
import type { AgentConfig, Config } from "../config/types.ts";
import { hasVersion, sameModel } from "../config/model-id.ts";

export interface ConsultPick {
  agent: AgentConfig;
  score: number;
}

export type ConsultPlanError = { code: "no_eligible_agent" | "agent_not_eligible" | "unknown_agent"; message: string };

export interface Host {
  runtime: Backend;
  model?: string;
}

export function pickConsultAgent(
  config: Config,
  host: Host,
  capability: string,
  requested?: string,
): { ok: true; pick: ConsultPick } | { ok: false; error: ConsultPlanError } {
  const agents = Object.values(config.agents);
  if (requested !== undefined) return pickRequested(config, host, capability, requested);
  const eligible = agents
    .map((agent) => ({ agent, score: agent.scores[capability] ?? 0, why: ineligible(agent, host, capability) }))
    .filter((x) => x.why === undefined)
    .sort((a, b) => b.score - a.score || a.agent.priority - b.agent.priority || a.agent.id.localeCompare(b.agent.id));
  const best = eligible[0];
  if (!best) return { ok: false, error: { code: "no_eligible_agent", message: noneMessage(agents, host, capability) } };
  return { ok: true, pick: { agent: best.agent, score: best.score } };
}

function pickRequested(config: Config, host: Host, capability: string, id: string): { ok: true; pick: ConsultPick } | { ok: false; error: ConsultPlanError } {
  const agent = config.agents[id];
  if (!agent) return { ok: false, error: { code: "unknown_agent", message: `No agent "${id}" is configured. list_agents shows the ones that are.` } };
  const why = ineligible(agent, host, capability);
  if (why) return { ok: false, error: { code: "agent_not_eligible", message: `Agent "${id}" cannot take this consultation: ${why}.` } };
  return { ok: true, pick: { agent, score: agent.scores[capability] ?? 0 } };
}

/** Why an agent cannot answer, or undefined when it can. */
export function ineligible(agent: AgentConfig, host: Host, capability: string): string | undefined {
  if (!agent.enabled) return "disabled in config";
  if (agent.advisory) return "advisory entries never answer";
  if ((agent.scores[capability] ?? 0) <= 0) return `no score for "${capability}"`;
  return hostExclusion(agent, host);
}

/** Why the host's own identity rules the agent out (its runtime, unless a provably different model), or undefined. */
export function hostExclusion(agent: AgentConfig, host: Host): string | undefined {
  if (agent.backend !== host.runtime) return undefined;
  if (!host.model) return `it runs on the host's own runtime (${host.runtime}); set host.model to allow a different versioned model there`;
  if (!agent.model || !hasVersion(agent.model)) return "a model on the host's runtime must be versioned to prove it differs from the host";
  if (sameModel(agent.model, host.model)) return "it is the host's own model";
  return undefined;
}

function noneMessage(agents: AgentConfig[], host: Host, capability: string): string {
  if (agents.length === 0) return "No consult agents are configured. Add agents with scores to the config (orchestrate init).";
  const reasons = agents.map((a) => `${a.id}: ${ineligible(a, host, capability) ?? "eligible"}`).join("; ");
  return `No agent can answer a "${capability}" consultation from a ${host.runtime} host (${reasons}).`;
}
