/**
 * The resolved configuration every other layer reads. The file formats (unified YAML/JSON,
 * mcp-router config.json, Orchestrator config.yaml) are parsed and validated in config/ and all
 * end up as this one shape, with defaults applied in one place (config/defaults.ts).
 */
import type { OptionValues } from "../backends/contract.ts";
import type { Backend } from "../backends/index.ts";
import type { AskConfig } from "./ask/types.ts";

export type { AskCapability, AskConfig, AskDeployment, AskStrategy } from "./ask/types.ts";

export const TIERS = ["light", "standard", "heavy"] as const;
export type Tier = (typeof TIERS)[number];

export interface AgentLimits {
  /** Wall time per call, seconds. */
  maxWallSec?: number;
  maxTurns?: number;
  maxTokens?: number;
  maxCostUsd?: number;
  /** End a run that produced no event for this long. */
  stallSec?: number;
}

export interface AgentConfig {
  /** Stable id: the key under `agents:`, or derived for inline tier entries (e.g. "heavy"). */
  id: string;
  backend: Backend;
  /** Never invented: undefined means the entry is advisory or uses the CLI's own default. */
  model?: string;
  /** Derived from backend/model; a declared provider that disagrees is a config error. */
  provider: string;
  /** True when the model id goes through an aggregator (openrouter/, github-copilot/). */
  aggregator: boolean;
  /** Executable name or absolute path; default = the backend name (over ACP: the backend's launch). */
  command?: string;
  /** Arguments after `command` (an ACP agent's launch written as a list). */
  commandArgs?: string[];
  /** How the agent is driven: absent = its headless CLI; "acp" = the Agent Client Protocol. */
  transport?: "acp";
  /** ACP session mode ids per mode, over the backend's own choice. */
  modes?: { route?: string; answer?: string };
  /** ACP: a route allows permission requests (default) or rejects them; answer-only always rejects. */
  permissions?: "allow" | "reject";
  /** Return a hint instead of spawning (codex, claude). */
  advisory: boolean;
  /** Backend-only settings by key (codex's sandbox, claude's permissionMode…): only that backend reads them. */
  options: OptionValues;
  /** Capabilities this entry has, e.g. ["vision"]; used by route's `caps` filter. */
  capabilities: string[];
  /** Consult scores per capability (coding, research, review, …); missing or 0 = ineligible. */
  scores: Record<string, number>;
  /** Lower wins a score tie. */
  priority: number;
  enabled: boolean;
  /** Extra environment for this agent's child process (names only are ever logged). */
  env: Record<string, string>;
  limits: AgentLimits;
  /**
   * Seed 001's execution_modes: the workflow modes the operator trusts this agent with (operator
   * side). Absent: consultation and patch, which never touch a tree; isolated_write must be granted.
   */
  executionModes?: ExecutionMode[];
}

export interface CooldownTtls {
  authSec: number;
  capacitySec: number;
  transportSec: number;
  notInstalledSec: number;
}

/**
 * Who reviews (seed 001's `consult.review`): agent ids, checked to exist. Standard mode takes exactly
 * one reviewer, deep mode one to five; a mode whose list is absent is not offered. Execution identity
 * (two ids on one model are one reviewer) and the host's exclusion are decided per plan (routing/).
 */
export interface ReviewConfig {
  reviewers: string[];
  deepReviewers: string[];
}

import type { ModelPrice } from "./prices.ts";
export type { ModelPrice } from "./prices.ts";
export type { ExecutionMode, WorkflowConfig } from "./workflow/types.ts";
import type { ExecutionMode, WorkflowConfig } from "./workflow/types.ts";

export interface Config {
  source: {
    path?: string;
    format: "yaml" | "json" | "none";
    /** Set when the file is an older tool's format read unchanged. */
    legacy?: "mcp-router" | "orchestrator" | "orchestrator-mcp";
  };
  agents: Record<string, AgentConfig>;
  /** Agent ids per tier, in order; null = the tier is unconfigured. */
  tiers: Record<Tier, string[] | null>;
  /** Capability slots: capability name → agent ids that serve it. */
  capabilitySlots: Record<string, string[]>;
  fallbacks: Partial<Record<Tier, Tier>>;
  allowCrossProviderFallback: boolean;
  /** Absolute directories a cwd must be inside. Empty → the default ($HOME/Projects) applies. */
  roots: string[];
  /** How deep nested orchestrate calls may go (ORCHESTRATE_DEPTH). */
  maxDepth: number;
  host: { runtime?: Backend; model?: string };
  /** webTurnLimit: web calls one consult or review turn may make in web mode (seed 001's web_turn_limit). */
  consult: { timeoutSec: number; webTurnLimit?: number; review?: ReviewConfig; workflow?: WorkflowConfig };
  store: { path?: string; fullContent: boolean };
  cooldowns: CooldownTtls;
  /** Seconds a synchronous call may run before it turns itself into a job; undefined = by client. */
  syncBudgetSec?: number;
  /** quotaWarnPercent: a window used this much counts as at its warning state (docs/design.md, "Quota"). */
  defaults: { timeoutSec: number; stallSec: number; quotaWarnPercent: number };
  /** Seed 002's direct HTTP ask; no capabilities = the ask tools are not offered. */
  ask: AskConfig;
  /** The config's own prices by model id, over the bundled catalog's (src/config/prices.ts). */
  prices?: Record<string, ModelPrice>;
}
