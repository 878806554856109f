/** The hint an advisory entry returns instead of spawning: nothing is sent anywhere. */
import type { AgentConfig } from "../config/types.ts";

export function advisoryHint(agent: AgentConfig): string {
  if (agent.backend === "claude") {
    const model = agent.model ? ` (model ${agent.model})` : "";
    return `Advisory entry "${agent.id}": spawn a subagent yourself${model} for this task instead of delegating through orchestrate. Nothing was sent.`;
  }
  if (agent.backend === "codex") {
    return `Advisory entry "${agent.id}": use the Codex MCP server directly for this task (codex mcp-server). Nothing was sent.`;
  }
  return `Advisory entry "${agent.id}": handle this task with ${agent.backend} directly. Nothing was sent.`;
}
