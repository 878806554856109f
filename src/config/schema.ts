/**
 * The config file schemas as one arktype scope of named, closed types (`"+": "reject"`), so a
 * typo is an error, not a silently ignored key. Structural checks only; the rules between fields
 * (backend-only options, provider derivation, references) live in resolve.ts.
 *
 * This module imports arktype (~130 ms): only ever import it dynamically (see validate.ts).
 */
import { scope, type } from "arktype";
import { AGENT_OPTION_DEFS, BACKENDS } from "../backends/index.ts";
import { TIERS } from "./types.ts";
import {
  AskCapabilityDef,
  AskDef,
  AskDeploymentDef,
  AskFileDef,
  AskLimitsDef,
  LiteDeploymentDef,
  LiteLimitsDef,
  LiteModelInfoDef,
  LiteParamsDef,
  LiteRouterDef,
} from "./ask/defs.ts";
import { formatIssues, type SchemaIssue } from "./format-errors.ts";

const BACKEND = "Backend" as const;
const TIER = type.enumerated(...TIERS);

const LimitsDef = {
  "+": "reject",
  "maxWallSec?": "number > 0",
  "maxTurns?": "number.integer > 0",
  "maxTokens?": "number.integer > 0",
  "maxCostUsd?": "number > 0",
  "stallSec?": "number > 0",
} as const;

const AgentDef = {
  "+": "reject",
  backend: BACKEND,
  "model?": "string > 0",
  "provider?": "string > 0",
  /** An executable, or (an ACP agent's launch) the executable and its arguments. */
  "command?": "string > 0 | (string > 0)[] > 0",
  /** acp: drive the agent over the Agent Client Protocol instead of its headless mode. */
  "transport?": "'cli' | 'acp'",
  /** ACP session mode ids per orchestrate mode. */
  "modes?": "AcpModes",
  /** ACP: how a route answers permission requests (answer-only always rejects). */
  "permissions?": "'allow' | 'reject'",
  "advisory?": "boolean",
  /** Backend-only keys (codex's sandbox, claude's permissionMode…), each declared in its backend's options.ts. */
  ...AGENT_OPTION_DEFS,
  "capabilities?": "(string > 0)[]",
  "scores?": "Record<string, 0 <= number <= 100>",
  "priority?": "number.integer",
  "enabled?": "boolean",
  "env?": "Record<string, string>",
  "limits?": "Limits",
  /** Seed 001's execution_modes: which workflow modes the operator trusts this agent with. */
  "executionModes?": "('consultation' | 'patch' | 'isolated_write')[]",
} as const;

const AcpModesDef = { "+": "reject", "route?": "string > 0", "answer?": "string > 0" } as const;

const TiersDef = { "+": "reject", "light?": "unknown", "standard?": "unknown", "heavy?": "unknown" } as const;
const FallbacksDef = { "+": "reject", "light?": TIER, "standard?": TIER, "heavy?": TIER } as const;
const HostDef = { "+": "reject", runtime: BACKEND, "model?": "string > 0" } as const;
/** Seed 001's `consult.review`, the same keys in both formats: who reviews in each mode (ids checked in resolve.ts). */
const ReviewDef = { "+": "reject", "reviewers?": "(string > 0)[]", "deep_reviewers?": "(string > 0)[]" } as const;
/** Seed 001's `consult.workflow`, the same keys in both formats; bindings are checked shape by shape in resolve-workflow.ts. */
const ReviewPolicyDef = { "+": "reject", "different_from_implementer?": "boolean", "different_from_planner?": "boolean" } as const;
const WorkflowDef = {
  "+": "reject",
  "max_fix_rounds?": "0 <= number.integer <= 20",
  "roots?": "(string > 0)[]",
  "advance_on_failed_test?": "boolean",
  "execution_timeout_s?": "30 <= number.integer <= 7200",
  "review_policy?": "ReviewPolicy",
  "bindings?": "Record<string, Record<string, unknown>>",
} as const;
const ConsultDef = {
  "+": "reject",
  "timeoutSec?": "10 <= number.integer <= 3600",
  "webTurnLimit?": "number.integer > 0",
  "review?": "Review",
  "workflow?": "Workflow",
} as const;
const StoreDef = { "+": "reject", "path?": "string > 0", "fullContent?": "boolean" } as const;
const CooldownsDef = {
  "+": "reject",
  "authSec?": "number.integer >= 0",
  "capacitySec?": "number.integer >= 0",
  "transportSec?": "number.integer >= 0",
  "notInstalledSec?": "number.integer >= 0",
} as const;
const DefaultsDef = {
  "+": "reject",
  "timeoutSec?": "30 <= number.integer <= 3600",
  "stallSec?": "number.integer >= 1",
  "quotaWarnPercent?": "1 <= number <= 100",
} as const;
/** A private or discounted price, USD per million tokens: wins over the bundled catalog (src/config/prices.ts). */
const PriceDef = {
  "+": "reject",
  inputPerMTok: "0 <= number <= 100000",
  outputPerMTok: "0 <= number <= 100000",
  "cachedInputPerMTok?": "0 <= number <= 100000",
} as const;
/** `orchestrate dashboard`: editable lets the browser manage agents and reviewers in managed.yaml (never this file). */
const DashboardDef = { "+": "reject", "editable?": "boolean" } as const;

const UnifiedDef = {
  "+": "reject",
  "$schema?": "string",
  "agents?": "Record<string, Agent>",
  "tiers?": "Tiers",
  /** Slot values are checked entry by entry in resolve.ts, for one clean error per key. */
  "capabilities?": "Record<string, unknown>",
  "fallbacks?": "Fallbacks",
  "allowCrossProviderFallback?": "boolean",
  "roots?": "(string > 0)[]",
  "maxDepth?": "0 <= number.integer <= 8",
  "host?": "Host",
  "consult?": "Consult",
  "store?": "Store",
  "store_full_content?": "boolean",
  "cooldowns?": "Cooldowns",
  "syncBudgetSec?": "number.integer >= 1",
  "defaults?": "Defaults",
  /** Seed 002's direct HTTP ask: capabilities over provider APIs (ask-defs.ts). */
  "ask?": "Ask",
  "dashboard?": "Dashboard",
  /** Model id → price, over the catalog's (docs/cost.md). */
  "prices?": "Record<string, Price>",
} as const;

/** Orchestrator MCP (seed 001) `config.yaml`: one top-level `consult:` block. */
const OrchAgentDef = {
  "+": "reject",
  runtime: "Backend | 'antigravity'",
  "command?": "string > 0",
  model: "string > 0",
  "reasoning_effort?": "'low' | 'medium' | 'high' | 'xhigh' | 'max'",
  "priority?": "number.integer",
  "enabled?": "boolean",
  "web_search?": "boolean",
  "execution_modes?": "('consultation' | 'patch' | 'isolated_write')[]",
  "scores?": "Record<string, 0 <= number <= 100>",
} as const;
const OrchHostDef = { "+": "reject", "runtime?": BACKEND, "model?": "string > 0" } as const;
const OrchConsultDef = {
  "+": "reject",
  "database_path?": "string > 0",
  "managed_agents_path?": "string > 0",
  "timeout_s?": "10 <= number.integer <= 3600",
  "store_full_content?": "boolean",
  "web_turn_limit?": "number.integer > 0",
  "protocol_version?": "string",
  "agents?": "Record<string, OrchAgent>",
  "host?": "OrchHost",
  "review?": "Review",
  "workflow?": "Workflow",
  "dashboard?": "object",
} as const;
const OrchFileDef = { "+": "reject", consult: "OrchConsult" } as const;

const $ = scope({
  Backend: type.enumerated(...BACKENDS),
  Limits: LimitsDef,
  Agent: AgentDef,
  AcpModes: AcpModesDef,
  Tiers: TiersDef,
  Fallbacks: FallbacksDef,
  Host: HostDef,
  Review: ReviewDef,
  ReviewPolicy: ReviewPolicyDef,
  Workflow: WorkflowDef,
  Consult: ConsultDef,
  Store: StoreDef,
  Cooldowns: CooldownsDef,
  Defaults: DefaultsDef,
  Dashboard: DashboardDef,
  Price: PriceDef,
  Unified: UnifiedDef,
  OrchAgent: OrchAgentDef,
  OrchHost: OrchHostDef,
  OrchConsult: OrchConsultDef,
  OrchFile: OrchFileDef,
  AskDeployment: AskDeploymentDef,
  AskCapability: AskCapabilityDef,
  AskLimits: AskLimitsDef,
  Ask: AskDef,
  LiteParams: LiteParamsDef,
  LiteModelInfo: LiteModelInfoDef,
  LiteDeployment: LiteDeploymentDef,
  LiteRouter: LiteRouterDef,
  LiteLimits: LiteLimitsDef,
  AskFile: AskFileDef,
});
const types = $.export();

export type AgentEntryFile = typeof types.Agent.infer;
export type UnifiedFile = typeof types.Unified.infer;
export type OrchestratorFile = typeof types.OrchFile.infer;
export type OrchestratorAgentFile = typeof types.OrchAgent.infer;
export type AskBlockFile = typeof types.Ask.infer;
export type WorkflowBlockFile = typeof types.Workflow.infer;
export type AskDeploymentFile = typeof types.AskDeployment.infer;
/** Seed 002's `config.yaml` as written. */
export type AskRouterFile = typeof types.AskFile.infer;

function keysOf(def: Record<string, unknown>): string[] {
  return Object.keys(def)
    .filter((k) => k !== "+")
    .map((k) => k.replace(/\?$/, ""));
}

export const KNOWN_KEYS = {
  unified: keysOf(UnifiedDef),
  agent: keysOf(AgentDef),
  limits: keysOf(LimitsDef),
  tiers: keysOf(TiersDef),
  fallbacks: keysOf(FallbacksDef),
  host: keysOf(HostDef),
  consult: keysOf(ConsultDef),
  review: keysOf(ReviewDef),
  workflow: keysOf(WorkflowDef),
  reviewPolicy: keysOf(ReviewPolicyDef),
  store: keysOf(StoreDef),
  cooldowns: keysOf(CooldownsDef),
  defaults: keysOf(DefaultsDef),
  dashboard: keysOf(DashboardDef),
  price: keysOf(PriceDef),
  orchFile: keysOf(OrchFileDef),
  orchConsult: keysOf(OrchConsultDef),
  orchAgent: keysOf(OrchAgentDef),
  orchHost: keysOf(OrchHostDef),
  ask: keysOf(AskDef),
  askCapability: keysOf(AskCapabilityDef),
  askDeployment: keysOf(AskDeploymentDef),
  askLimits: keysOf(AskLimitsDef),
  askFile: keysOf(AskFileDef),
  liteDeployment: keysOf(LiteDeploymentDef),
  liteParams: keysOf(LiteParamsDef),
  liteModelInfo: keysOf(LiteModelInfoDef),
  liteRouter: keysOf(LiteRouterDef),
  liteLimits: keysOf(LiteLimitsDef),
} as const;

type Shape = keyof typeof KNOWN_KEYS;

const UNIFIED_CHILDREN: Record<string, Shape> = {
  tiers: "tiers",
  fallbacks: "fallbacks",
  host: "host",
  consult: "consult",
  store: "store",
  cooldowns: "cooldowns",
  defaults: "defaults",
  dashboard: "dashboard",
};

function agentShape(rel: readonly PropertyKey[]): Shape {
  return rel[0] === "limits" ? "limits" : "agent";
}

function unifiedShape(rel: readonly PropertyKey[]): Shape {
  if (rel.length === 0) return "unified";
  if (rel[0] === "agents") return agentShape(rel.slice(2));
  if (rel[0] === "consult" && rel[1] === "review") return "review";
  if (rel[0] === "consult" && rel[1] === "workflow") return rel[2] === "review_policy" ? "reviewPolicy" : "workflow";
  if (rel[0] === "ask") return askShape(rel.slice(1));
  if (rel[0] === "prices" && rel.length >= 2) return "price";
  return UNIFIED_CHILDREN[String(rel[0])] ?? "unified";
}

/** Inside `ask:` — [capabilities, name, deployments, i] is a deployment. */
function askShape(rel: readonly PropertyKey[]): Shape {
  if (rel.length === 0) return "ask";
  if (rel[0] === "limits") return "askLimits";
  if (rel[0] !== "capabilities" || rel.length < 2) return "ask";
  return rel[2] === "deployments" && rel.length >= 4 ? "askDeployment" : "askCapability";
}

/** Seed 002's file: [model_list, i, litellm_params] and friends; its consult: block is seed 001's. */
function askFileShape(rel: readonly PropertyKey[]): Shape {
  if (rel.length === 0) return "askFile";
  if (rel[0] === "consult") return orchestratorShape(rel);
  if (rel[0] === "router_settings") return "liteRouter";
  if (rel[0] === "limits") return "liteLimits";
  if (rel[0] !== "model_list" || rel.length < 2) return "askFile";
  if (rel[2] === "litellm_params") return "liteParams";
  return rel[2] === "model_info" ? "liteModelInfo" : "liteDeployment";
}

function orchestratorShape(rel: readonly PropertyKey[]): Shape {
  if (rel.length === 0) return "orchFile";
  if (rel.length === 1) return "orchConsult";
  if (rel[1] === "agents") return "orchAgent";
  if (rel[1] === "review") return "review";
  if (rel[1] === "workflow") return rel[2] === "review_policy" ? "reviewPolicy" : "workflow";
  return rel[1] === "host" ? "orchHost" : "orchConsult";
}

/** Where keys of the Orchestrator format went in the unified one: the fix for a pasted key. */
const MOVED: Record<string, string> = {
  "consult.agents": "agents are a top-level key in this format: move agents: out of consult:",
  "consult.timeout_s": "write consult.timeoutSec",
  "consult.database_path": "write store.path",
  "consult.store_full_content": "write store.fullContent",
  "consult.host": "host is a top-level key in this format: move host: out of consult:",
};

export type Checked<T> = { ok: true; value: T } | { ok: false; errors: string[] };

function check<T>(
  validator: (data: unknown) => unknown,
  data: unknown,
  shape: (rel: readonly PropertyKey[]) => Shape,
  prefix: readonly PropertyKey[] = [],
): Checked<T> {
  const out = validator(data);
  if (!(out instanceof type.errors)) return { ok: true, value: out as T };
  const issues = [...out] as unknown as SchemaIssue[];
  const errors = formatIssues(issues, { prefix, knownKeys: (rel) => KNOWN_KEYS[shape(rel)], moved: MOVED });
  return { ok: false, errors };
}

export function checkUnified(data: unknown): Checked<UnifiedFile> {
  return check<UnifiedFile>(types.Unified, data, unifiedShape);
}

/** An inline tier/slot entry, checked on its own so its errors carry its own path. */
export function checkAgentEntry(data: unknown, prefix: readonly PropertyKey[]): Checked<AgentEntryFile> {
  return check<AgentEntryFile>(types.Agent, data, agentShape, prefix);
}

export function checkOrchestrator(data: unknown): Checked<OrchestratorFile> {
  return check<OrchestratorFile>(types.OrchFile, data, orchestratorShape);
}

export function checkAskRouter(data: unknown): Checked<AskRouterFile> {
  return check<AskRouterFile>(types.AskFile, data, askFileShape);
}

/** JSON Schema of the unified file, for editors (`$schema`). */
export function unifiedJsonSchema(): unknown {
  return types.Unified.toJsonSchema({ fallback: (ctx) => ctx.base });
}
