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
  if (!agent.capabilities.includes(WEB_CAPABILITY))
    return {
      granted: false,
      why: `the config does not trust ${agent.id} with the web (add capabilities: [${WEB_CAPABILITY}] to it; web_search: true in an Orchestrator MCP config)`,
    };
  return { granted: true, tools: ability.tools };
}

export function webTurnLimit(rt: Runtime): number {
  return rt.config.consult.webTurnLimit ?? DEFAULT_WEB_TURN_LIMIT;
}

/** Seed 002's source object: what was relied on, where it is, and of which kind. */
export interface Source {
  title: string;
  locator: string;
  source_type: "model" | "document" | "web";
}

const URL_LIKE = /^https?:\/\//i;

/**
 * The answer's sources as seed 002 documents them ({title, locator, source_type}): what the model
 * cited, then what the stream shows it did on the web — each URL fetched, each query searched
 * (`web search: …`) — so the evidence is there even when the model cited nothing. A citation the
 * model made of a URL it fetched is not repeated. A cited URL is a web source; anything else is of
 * the call's mode (model knowledge, or the context document), located "internal" as in the seed.
 */
export function withWebSources(cited: readonly string[], calls: readonly WebCall[], mode: Source["source_type"]): Source[] {
  const out: Source[] = cited.map((c) =>
    URL_LIKE.test(c) ? { title: c, locator: c, source_type: "web" } : { title: c, locator: "internal", source_type: mode },
  );
  for (const call of calls) {
    if (!call.what) continue;
    const title = call.kind === "fetch" ? call.what : `web search: ${call.what}`;
    if (!out.some((s) => s.title === title)) out.push({ title, locator: call.what, source_type: "web" });
  }
  return out;
}
