/**
 * Whether an answer-only run may use the web (seed 001's web mode): only when the config trusts the
 * agent with it (`capabilities: [web_search]`, what an Orchestrator MCP agent's `web_search: true`
 * becomes in config/legacy.ts) and its backend can be given its own web tools (Adapter.web). Both
 * sides are named when the answer is no, so the person knows which one to change.
 */
import type { AgentConfig } from "../../config/types.ts";
import type { Runtime } from "../shared/runtime.ts";
import type { WebCall } from "./turn.ts";

/** The capability an agent entry carries when the operator trusts it with the web. */
export const WEB_CAPABILITY = "web_search";

/** Orchestrator MCP's own default web_turn_limit (its config reference), when the config names none. */
export const DEFAULT_WEB_TURN_LIMIT = 8;

export type WebGrant = { granted: true; tools: string } | { granted: false; why: string };

export function webGrant(rt: Runtime, agent: AgentConfig): WebGrant {
  const ability = rt.adapters[agent.backend].web;
  if (!ability) return { granted: false, why: `${agent.id}'s CLI (${agent.backend}) cannot be given web tools in an answer-only run` };
  if (!agent.capabilities.includes(WEB_CAPABILITY)) return { granted: false, why: `the config does not trust ${agent.id} with the web (add capabilities: [${WEB_CAPABILITY}] to it; web_search: true in an Orchestrator MCP config)` };
  return { granted: true, tools: ability.tools };
}

export function webTurnLimit(rt: Runtime): number {
  return rt.config.consult.webTurnLimit ?? DEFAULT_WEB_TURN_LIMIT;
}

/**
 * The answer's sources: what the model cited, then what the stream shows it did on the web — each
 * URL fetched, each query searched (`web search: …`) — so the evidence is there even when the
 * model cited nothing. A citation the model made of a URL it fetched is not repeated.
 */
export function withWebSources(cited: readonly string[], calls: readonly WebCall[]): string[] {
  const out = [...cited];
  for (const call of calls) {
    if (!call.what) continue;
    const entry = call.kind === "fetch" ? call.what : `web search: ${call.what}`;
    if (!out.includes(entry)) out.push(entry);
  }
  return out;
}
