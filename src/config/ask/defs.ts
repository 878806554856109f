/**
 * The config shapes of seed 002's direct HTTP `ask`, as plain arktype definitions (schema.ts puts
 * them in its scope; this file imports nothing, so it costs nothing to load).
 *
 * Two shapes of the same settings:
 * - the unified file's `ask:` block, camelCase like the rest of it. Its `capabilities` are seed
 *   002's (a description, deployments, fallbacks) and live under `ask:` because the unified file's
 *   top-level `capabilities:` already means seed 000's capability *slots* (agents serving route's
 *   `caps`, e.g. vision): one key cannot mean both, and seed 000 files must keep loading.
 * - seed 002's own `config.yaml`, read unchanged: `capabilities` (name → description), LiteLLM's
 *   `model_list` / `litellm_params` / `router_settings`, and `limits` (legacy-ask.ts converts it).
 */

export const AskDeploymentDef = {
  "+": "reject",
  /** `<provider>/<model>`, LiteLLM's spelling (backends/http/providers.ts lists the providers). */
  model: "string > 0",
  "id?": "string > 0",
  "baseUrl?": "string > 0",
  /** The NAME of the environment variable holding the key; never the key. */
  "apiKeyEnv?": "string > 0",
  "weight?": "number > 0",
  "inputCostPerMTok?": "number >= 0",
  "outputCostPerMTok?": "number >= 0",
} as const;

export const AskCapabilityDef = {
  "+": "reject",
  "description?": "string <= 2000",
  deployments: "AskDeployment[]",
  "fallbacks?": "(string > 0)[]",
  "strategy?": "'ordered' | 'weighted'",
} as const;

export const AskLimitsDef = {
  "+": "reject",
  "requestTimeoutSec?": "0 < number <= 3600",
  "maxPromptChars?": "1 <= number.integer <= 1000000",
  "maxSystemChars?": "1 <= number.integer <= 1000000",
  "maxContextChars?": "1 <= number.integer <= 2000000",
  "maxSchemaChars?": "2 <= number.integer <= 1000000",
  "maxOutputTokens?": "1 <= number.integer <= 1000000",
  "schemaRepairAttempts?": "0 <= number.integer <= 5",
} as const;

export const AskDef = {
  "+": "reject",
  "capabilities?": "Record<string, AskCapability>",
  "retries?": "0 <= number.integer <= 10",
  "cooldownSec?": "0 <= number.integer <= 86400",
  "limits?": "AskLimits",
} as const;

// ---- seed 002's config.yaml, as written ----

export const LiteParamsDef = {
  "+": "reject",
  model: "string > 0",
  /** `os.environ/NAME`; an inline key is refused in legacy-ask.ts (without quoting it). */
  "api_key?": "string",
  "api_base?": "string > 0",
  "weight?": "number > 0",
  /** LiteLLM: deployments with a lower order are tried first. */
  "order?": "number.integer >= 0",
  "input_cost_per_token?": "number >= 0",
  "output_cost_per_token?": "number >= 0",
  /** Accepted, without effect in orchestrate (reported). */
  "rpm?": "number >= 0",
  "tpm?": "number >= 0",
  "timeout?": "number > 0",
} as const;

export const LiteModelInfoDef = { "+": "reject", "id?": "string > 0", "description?": "string" } as const;

export const LiteDeploymentDef = { "+": "reject", model_name: "string > 0", litellm_params: "LiteParams", "model_info?": "LiteModelInfo" } as const;

export const LiteRouterDef = {
  "+": "reject",
  "num_retries?": "0 <= number.integer <= 10",
  "cooldown_time?": "0 <= number <= 86400",
  /** `- coding: [fast]`: one mapping per entry, LiteLLM's shape. */
  "fallbacks?": "Record<string, (string > 0)[]>[]",
  "routing_strategy?": "string > 0",
  "allowed_fails?": "number.integer >= 0",
  "timeout?": "number > 0",
} as const;

export const LiteLimitsDef = {
  "+": "reject",
  "request_timeout_s?": "0 < number <= 3600",
  "max_prompt_chars?": "1 <= number.integer <= 1000000",
  "max_system_chars?": "1 <= number.integer <= 1000000",
  "max_context_chars?": "1 <= number.integer <= 2000000",
  "max_schema_chars?": "2 <= number.integer <= 1000000",
  "max_output_tokens?": "1 <= number.integer <= 1000000",
  "schema_repair_attempts?": "0 <= number.integer <= 5",
} as const;

/** A seed 002 file. Its `consult:` block (0.2.0) is seed 001's, and converts the same way. */
export const AskFileDef = {
  "+": "reject",
  capabilities: "Record<string, string>",
  model_list: "LiteDeployment[]",
  "router_settings?": "LiteRouter",
  "limits?": "LiteLimits",
  "consult?": "OrchConsult",
  "dashboard?": "object",
  "litellm_settings?": "object",
  "general_settings?": "object",
} as const;

/** seed 002's limit names → the unified ones. */
export const LIMIT_NAMES = {
  request_timeout_s: "requestTimeoutSec",
  max_prompt_chars: "maxPromptChars",
  max_system_chars: "maxSystemChars",
  max_context_chars: "maxContextChars",
  max_schema_chars: "maxSchemaChars",
  max_output_tokens: "maxOutputTokens",
  schema_repair_attempts: "schemaRepairAttempts",
} as const;
