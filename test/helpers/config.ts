import type { AgentConfig, Config } from "../../src/config/types.ts";
import { zeroConfig } from "../../src/config/defaults.ts";

const PROVIDERS: Record<string, string> = { codex: "openai", claude: "anthropic", grok: "xai", gemini: "google", copilot: "github" };

/** A resolved agent for pure tests; opencode's provider comes from its model prefix. */
export function agent(id: string, backend: AgentConfig["backend"], extra: Partial<AgentConfig> = {}): AgentConfig {
  const model = extra.model ?? (backend === "opencode" ? "deepseek/v4" : "m-1");
  const prefix = model.split("/")[0] ?? "";
  const provider = backend === "opencode" ? prefix : (PROVIDERS[backend] ?? backend);
  return {
    id,
    backend,
    model,
    provider,
    aggregator: prefix === "openrouter" || prefix === "github-copilot",
    advisory: false,
    capabilities: [],
    scores: {},
    priority: 100,
    enabled: true,
    env: {},
    limits: {},
    options: {},
    ...extra,
  };
}

export function configWith(agents: AgentConfig[], patch: Partial<Config> = {}): Config {
  return { ...zeroConfig(), agents: Object.fromEntries(agents.map((a) => [a.id, a])), ...patch };
}
