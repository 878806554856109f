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
  /**
   * The NAME of an environment variable holding the base URL, read when the config loads; unset or
   * empty means the provider's own URL. What an imported seed 002 deployment keeps, so the file
   * written does not pin the URL the importing shell happened to have.
   */
  "baseUrlEnv?": "string > 0",
  /** The NAME of the environment variable holding the key; never the key. */
  "apiKeyEnv?": "string > 0",
  "weight?": "number > 0",
  "inputCostPerMTok?": "number >= 0",
  "outputCostPerMTok?": "number >= 0",
  /** Azure OpenAI's api-version query parameter (azure/<deployment> only). */
  "apiVersion?": "string > 0",
  // Sampling, sent with every request to this deployment (the caller cannot set these).
  "temperature?": "0 <= number <= 2",
  "topP?": "0 <= number <= 1",
  "stop?": "string | string[] <= 4",
  "seed?": "number.integer",
  "presencePenalty?": "-2 <= number <= 2",
  "frequencyPenalty?": "-2 <= number <= 2",
  /** This deployment's own output cap: a request asking for more is sent this much. */
  "maxOutputTokens?": "1 <= number.integer <= 1000000",
  /** One leg's time limit on this deployment, inside the request budget. */
  "timeoutSec?": "0 < number <= 3600",
  /** The longest silence inside a streamed reply before the leg counts as hung. */
  "streamTimeoutSec?": "0 < number <= 3600",
  /** Further tries of this deployment within one request (default: the block's retries). */
  "maxRetries?": "0 <= number.integer <= 10",
  /** Local rate limits, counted across every orchestrate process from the history: skipped while at its limit. */
  "rpm?": "number.integer > 0",
  "tpm?": "number.integer > 0",
} as const;

export const AskCapabilityDef = {
  "+": "reject",
  "description?": "string <= 2000",
  deployments: "AskDeployment[]",
  "fallbacks?": "(string > 0)[]",
  /** Tried instead when the request is too long for this capability's models. */
  "contextFallbacks?": "(string > 0)[]",
  "strategy?": "'ordered' | 'weighted' | 'least-busy' | 'latency' | 'usage'",
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
  /** LiteLLM's allowed_fails: failures a deployment may have within a minute before it cools (a rate limit cools at once). */
  "allowedFails?": "0 <= number.integer <= 1000",
  "limits?": "AskLimits",
} as const;

// ---- seed 002's config.yaml, as written ----

/**
 * litellm_params keys LiteLLM documents that orchestrate does not honour, each with why and what to
 * do instead. Accepted by the schema (any value) so one of them never rejects a whole file.
 */
export const REFUSED_PARAMS = {
  custom_llm_provider: "write the provider as the model's prefix (<provider>/<model>)",
  vertex_project: "Vertex AI is not spoken; use gemini/<model> with GEMINI_API_KEY",
  vertex_location: "Vertex AI is not spoken; use gemini/<model> with GEMINI_API_KEY",
  vertex_credentials: "Vertex AI is not spoken; use gemini/<model> with GEMINI_API_KEY",
  aws_access_key_id: "Bedrock is not spoken; put a LiteLLM proxy in front of it (litellm_proxy/<model>)",
  aws_secret_access_key: "Bedrock is not spoken; put a LiteLLM proxy in front of it (litellm_proxy/<model>)",
  aws_session_token: "Bedrock is not spoken; put a LiteLLM proxy in front of it (litellm_proxy/<model>)",
  aws_region_name: "Bedrock is not spoken; put a LiteLLM proxy in front of it (litellm_proxy/<model>)",
  aws_profile_name: "Bedrock is not spoken; put a LiteLLM proxy in front of it (litellm_proxy/<model>)",
  region_name: "regional routing is the provider's; give the regional endpoint as api_base",
  organization: "the OpenAI-Organization header is not sent; a project key carries its organization",
  headers: "extra headers are not sent (a key belongs in api_key as os.environ/NAME)",
  extra_headers: "extra headers are not sent (a key belongs in api_key as os.environ/NAME)",
  mock_response: "LiteLLM's test stub; point api_base at a local server instead",
  drop_params: "orchestrate sends only the parameters listed for a deployment, so there is nothing to drop",
  additional_drop_params: "orchestrate sends only the parameters listed for a deployment, so there is nothing to drop",
  max_budget: "per-deployment budgets are not enforced; limit spend per call instead",
  budget_duration: "per-deployment budgets are not enforced; limit spend per call instead",
  tags: "tag-based routing is not implemented; use a capability per tag",
  litellm_credential_name: "credentials come only from os.environ/NAME in api_key",
  input_cost_per_second: "per-second prices are not computed; give input_cost_per_token",
  output_cost_per_second: "per-second prices are not computed; give output_cost_per_token",
  max_parallel_requests: "a concurrency cap per deployment is not enforced; use rpm",
  n: "one completion per request",
  stream: "replies are always streamed",
  response_format: "structured replies come from ask's response_schema",
  tools: "ask offers the model no tools",
  tool_choice: "ask offers the model no tools",
  functions: "ask offers the model no tools",
  reasoning_effort: "not sent; choose a model (or deployment) per effort",
  max_completion_tokens: "write max_tokens (orchestrate sends the field each endpoint expects)",
} as const;

/** router_settings keys LiteLLM documents that orchestrate does not honour (see REFUSED_PARAMS). */
export const REFUSED_ROUTER = {
  redis_host: "cooldowns and usage are shared through orchestrate's store, not Redis",
  redis_port: "cooldowns and usage are shared through orchestrate's store, not Redis",
  redis_password: "cooldowns and usage are shared through orchestrate's store, not Redis",
  redis_url: "cooldowns and usage are shared through orchestrate's store, not Redis",
  cache_responses: "replies are never cached",
  enable_pre_call_checks: "a request too long for a model is caught by the provider; use context_window_fallbacks",
  model_group_alias: "give the capability the name callers use",
  retry_policy: "retries are per deployment (max_retries) and per request (num_retries)",
  allowed_fails_policy: "allowed_fails counts every kind of failure alike",
  routing_strategy_args: "the routing strategies take no arguments here",
  default_litellm_params: "write each deployment's parameters on the deployment",
  provider_budget_config: "per-provider budgets are not enforced",
  content_policy_fallbacks: "a filtered reply is a failure that ends the request, never retried elsewhere",
  default_fallbacks: "name each capability's fallbacks",
} as const;

/** A refused key's schema entry: any value is accepted, so loading can name it with its reason instead of failing. */
type AnyValue<T> = { [K in keyof T & string as `${K}?`]: "unknown" };

function anyValueOf<T extends Record<string, string>>(reasons: T): AnyValue<T> {
  const out: Record<string, "unknown"> = {};
  for (const key of Object.keys(reasons)) out[`${key}?`] = "unknown";
  return out as AnyValue<T>;
}

export const LiteParamsDef = {
  "+": "reject",
  model: "string > 0",
  /** `os.environ/NAME`; an inline key is refused in legacy.ts (without quoting it). */
  "api_key?": "string",
  "api_base?": "string > 0",
  "api_version?": "string > 0",
  "weight?": "number > 0",
  /** LiteLLM: deployments with a lower order are tried first. */
  "order?": "number.integer >= 0",
  "input_cost_per_token?": "number >= 0",
  "output_cost_per_token?": "number >= 0",
  "temperature?": "0 <= number <= 2",
  "top_p?": "0 <= number <= 1",
  "max_tokens?": "1 <= number.integer <= 1000000",
  "stop?": "string | string[] <= 4",
  "seed?": "number.integer",
  "presence_penalty?": "-2 <= number <= 2",
  "frequency_penalty?": "-2 <= number <= 2",
  "timeout?": "0 < number <= 3600",
  "stream_timeout?": "0 < number <= 3600",
  "max_retries?": "0 <= number.integer <= 10",
  "rpm?": "number.integer > 0",
  "tpm?": "number.integer > 0",
  // LiteLLM documents these; each is refused on its own, with its reason (legacy.ts REFUSED_PARAMS),
  // and the rest of the file loads.
  ...anyValueOf(REFUSED_PARAMS),
} as const;

export const LiteModelInfoDef = { "+": "reject", "id?": "string > 0", "description?": "string" } as const;

export const LiteDeploymentDef = { "+": "reject", model_name: "string > 0", litellm_params: "LiteParams", "model_info?": "LiteModelInfo" } as const;

export const LiteRouterDef = {
  "+": "reject",
  "num_retries?": "0 <= number.integer <= 10",
  "cooldown_time?": "0 <= number <= 86400",
  /** `- coding: [fast]`: one mapping per entry, LiteLLM's shape. */
  "fallbacks?": "Record<string, (string > 0)[]>[]",
  /** Tried instead when a request is too long for the capability's models (same shape as fallbacks). */
  "context_window_fallbacks?": "Record<string, (string > 0)[]>[]",
  "routing_strategy?": "'simple-shuffle' | 'least-busy' | 'latency-based-routing' | 'usage-based-routing' | 'usage-based-routing-v2'",
  "allowed_fails?": "number.integer >= 0",
  /** Every deployment's leg limit unless its own timeout says otherwise. */
  "timeout?": "0 < number <= 3600",
  "retry_after?": "number >= 0",
  ...anyValueOf(REFUSED_ROUTER),
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
