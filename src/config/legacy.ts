/**
 * The config files of the tools orchestrate replaces, read unchanged (README "Coming from …"):
 * - mcp-router `config.json` (seed 000) is already a subset of the unified format; it is only
 *   recognised, so `source.legacy` can say so.
 * - Orchestrator MCP `config.yaml` (seed 001: one top-level `consult:` block) is converted to the
 *   unified shape; keys orchestrate has no use for yet are reported, never silently dropped.
 */
import type { Backend } from "../backends/index.ts";
import { errorLine, joinPath } from "./format-errors.ts";
import type { Env } from "./paths.ts";
import { seedShapeOf } from "./seed-shape.ts";
import type { OrchestratorAgentFile, OrchestratorFile, UnifiedFile } from "./schema.ts";

/** orchestrator-mcp: seed 002's file (capabilities + LiteLLM's model_list), converted in legacy-ask.ts. */
export type LegacyFormat = "mcp-router" | "orchestrator" | "orchestrator-mcp";

const MCP_ROUTER_KEYS = ["tiers", "capabilities", "fallbacks", "allowCrossProviderFallback"];

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Which older tool wrote this file, judged by its shape alone. */
export function detectLegacy(raw: Record<string, unknown>, format: "yaml" | "json"): LegacyFormat | undefined {
  const seed = seedShapeOf(raw);
  if (seed) return seed;
  const keys = Object.keys(raw);
  if (format === "json" && keys.length > 0 && keys.every((k) => MCP_ROUTER_KEYS.includes(k))) return "mcp-router";
  return undefined;
}

/** Keys of an Orchestrator file that orchestrate reads but does not act on (yet). */
const IGNORED_CONSULT_KEYS = ["protocol_version"] as const;
const IGNORED_AGENT_KEYS = ["reasoning_effort"] as const;

export interface Converted {
  file: UnifiedFile;
  /** Dotted paths of keys that were accepted but have no effect. */
  ignored: string[];
  errors: string[];
}

type UnifiedAgent = NonNullable<UnifiedFile["agents"]>[string];

/** Orchestrator's experimental `antigravity` runtime drove the Antigravity CLI, which is orchestrate's `agy`. */
function backendOf(runtime: OrchestratorAgentFile["runtime"]): Backend {
  return runtime === "antigravity" ? "agy" : runtime;
}

function convertAgent(id: string, agent: OrchestratorAgentFile, out: Converted): UnifiedAgent {
  for (const key of IGNORED_AGENT_KEYS) if (agent[key] !== undefined) out.ignored.push(`consult.agents.${id}.${key}`);
  return {
    backend: backendOf(agent.runtime),
    model: agent.model,
    ...(agent.command !== undefined ? { command: agent.command } : {}),
    ...(agent.priority !== undefined ? { priority: agent.priority } : {}),
    ...(agent.enabled !== undefined ? { enabled: agent.enabled } : {}),
    ...(agent.scores !== undefined ? { scores: agent.scores } : {}),
    ...(agent.execution_modes !== undefined ? { executionModes: agent.execution_modes } : {}),
    // web_search is an ability the agent was trusted with: it becomes a capability consult can filter on.
    ...(agent.web_search ? { capabilities: ["web_search"] } : {}),
  };
}

function convertHost(file: OrchestratorFile, env: Env, out: Converted): UnifiedFile["host"] {
  const host = file.consult.host;
  if (!host) return undefined;
  // Orchestrator took the runtime from ORCHESTRATOR_HOST_RUNTIME and only asserted it in the file.
  const runtime = host.runtime ?? env.ORCHESTRATE_HOST_RUNTIME ?? env.ORCHESTRATOR_HOST_RUNTIME;
  if (runtime === undefined) {
    if (host.model !== undefined)
      out.errors.push(
        errorLine("consult.host.runtime", "missing: host.model needs the host's runtime", "add runtime: claude, or whichever client runs orchestrate"),
      );
    return undefined;
  }
  return { runtime: runtime as Backend, ...(host.model !== undefined ? { model: host.model } : {}) };
}

export function convertOrchestrator(file: OrchestratorFile, env: Env): Converted {
  const out: Converted = { file: {}, ignored: [], errors: [] };
  const c = file.consult;
  for (const key of IGNORED_CONSULT_KEYS) if (c[key] !== undefined) out.ignored.push(`consult.${key}`);
  // `orchestrate dashboard` reads consult.dashboard.editable (dashboard/start.ts); it starts on its own command, so enabled does nothing.
  if (typeof c.dashboard === "object" && c.dashboard !== null)
    for (const key of Object.keys(c.dashboard)) if (key !== "editable") out.ignored.push(`consult.dashboard.${key}`);
  const agents: Record<string, UnifiedAgent> = {};
  for (const [id, agent] of Object.entries(c.agents ?? {})) {
    agents[id] = convertAgent(id, agent, out);
  }
  const host = convertHost(file, env, out);
  out.file = {
    agents,
    ...(host ? { host } : {}),
    // consult.review and consult.workflow are the same blocks in both formats: carried over as written.
    ...(c.timeout_s !== undefined || c.web_turn_limit !== undefined || c.review !== undefined || c.workflow !== undefined
      ? {
          consult: {
            ...(c.timeout_s !== undefined ? { timeoutSec: c.timeout_s } : {}),
            ...(c.web_turn_limit !== undefined ? { webTurnLimit: c.web_turn_limit } : {}),
            ...(c.review !== undefined ? { review: c.review } : {}),
            ...(c.workflow !== undefined ? { workflow: c.workflow } : {}),
          },
        }
      : {}),
    ...(c.database_path !== undefined || c.store_full_content !== undefined
      ? {
          store: {
            ...(c.database_path !== undefined ? { path: c.database_path } : {}),
            ...(c.store_full_content !== undefined ? { fullContent: c.store_full_content } : {}),
          },
        }
      : {}),
  };
  return out;
}

/** Error paths for a converted Orchestrator file, named as the person wrote them. */
export function orchestratorPath(parts: readonly PropertyKey[]): string {
  const [head, id, key] = parts;
  if (head === "agents" && key === "backend") return `consult.agents.${String(id)}.runtime`;
  if (head === "agents" && key === "capabilities") return `consult.agents.${String(id)}.web_search`;
  if (head === "store" && id === "path") return "consult.database_path";
  if (head === "store" && id === "fullContent") return "consult.store_full_content";
  if (head === "consult" && id === "timeoutSec") return "consult.timeout_s";
  if (head === "consult" && id === "webTurnLimit") return "consult.web_turn_limit";
  if (head === "consult" && (id === "review" || id === "workflow")) return joinPath(parts);
  if (head === "agents" && key === "executionModes") return joinPath(["consult", "agents", String(id), "execution_modes", ...parts.slice(3)]);
  return joinPath(["consult", ...parts]);
}
