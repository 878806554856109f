/**
 * The fields of Orchestrator MCP's consult envelope (its consult/contract.py ConsultResponse) that
 * orchestrate's own envelope does not name: capability_requested, source_mode_used, route, and
 * usage in snake_case. Added beside orchestrate's fields — none of either is renamed — so a caller
 * written against the seed reads the envelope it knows.
 */
import type { Usage } from "../../backends/contract.ts";
import type { AgentConfig } from "../../config/types.ts";
import type { SourceMode } from "../answer/envelope.ts";

/** The seed's source_mode words; orchestrate's own two are context_only and model_knowledge. */
export type SeedSourceMode = "auto" | "document" | "context" | "model" | "web";
export type AnySourceMode = SourceMode | SeedSourceMode;

export interface SeedRoute {
  agent_id: string;
  runtime: string;
  model: string | null;
  capability_score: number;
  priority: number;
  explicitly_selected: boolean;
}

export interface SeedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  cost_usd?: number;
}

/**
 * The mode a consultation runs in. The seed's `auto` is document with context and model without;
 * no mode at all keeps orchestrate's default, model_knowledge. `web` is web mode (answer/web.ts).
 */
export function sourceModeOf(mode: AnySourceMode | undefined, context: string | undefined): SourceMode {
  switch (mode) {
    case "web":
      return "web";
    case "document":
    case "context":
    case "context_only":
      return "context_only";
    case "auto":
      return context !== undefined && context.trim() !== "" ? "context_only" : "model_knowledge";
    default:
      return "model_knowledge";
  }
}

export function seedSourceMode(mode: SourceMode): "document" | "model" | "web" {
  return mode === "context_only" ? "document" : mode === "web" ? "web" : "model";
}

export function seedRoute(agent: AgentConfig, capability: string, explicitly: boolean): SeedRoute {
  return {
    agent_id: agent.id,
    runtime: agent.backend,
    model: agent.model ?? null,
    capability_score: agent.scores[capability] ?? 0,
    priority: agent.priority,
    explicitly_selected: explicitly,
  };
}

/** orchestrate's usage with the seed's snake_case keys beside it (cached input is part of the prompt). */
export function withSeedUsage(usage: Usage): Usage & Partial<SeedUsage> {
  if (usage.inputTokens === undefined && usage.outputTokens === undefined) return usage;
  const prompt = usage.inputTokens ?? 0;
  const completion = usage.outputTokens ?? 0;
  return {
    ...usage,
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    ...(usage.costUsd !== undefined ? { cost_usd: usage.costUsd } : {}),
  };
}
