/**
 * Claims and limits are per transport: an agent driven over ACP is judged by its ACP profile's
 * declarations, never by its headless driver's proofs (docs/acp.md, "Claims per transport").
 */
import type { Adapter, DrivenFacts } from "./contract.ts";

/** Which facts apply: the ACP profile's for `transport: acp` (and ACP-only backends), else the headless ones. */
export function drivenFacts(adapter: Pick<Adapter, "acp" | "writes" | "traits">, transport: "acp" | "cli" | undefined): DrivenFacts {
  const acp = adapter.acp && (transport === "acp" || adapter.acp.only === true) ? adapter.acp : undefined;
  return acp ? { writes: acp.writes, traits: acp.traits } : { writes: adapter.writes, traits: adapter.traits };
}

/** How a refusal names the runtime: "copilot over ACP" where the transport decided it, else the backend. */
export function drivenName(adapter: Pick<Adapter, "acp">, agent: { backend: string; transport?: "acp" }): string {
  return agent.transport === "acp" && !adapter.acp?.only ? `${agent.backend} over ACP` : agent.backend;
}
