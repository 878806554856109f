/** The hint an advisory entry returns instead of spawning: nothing is sent anywhere. */
import type { Adapter } from "../../backends/contract.ts";
import type { AgentConfig } from "../../config/types.ts";

export function advisoryHint(adapter: Adapter, agent: AgentConfig): string {
  // The config refuses advisory for a backend without a hint, so the fallback is only a safety net.
  return adapter.advisoryHint?.(agent) ?? `Advisory entry "${agent.id}": handle this task with ${agent.backend} directly. Nothing was sent.`;
}
