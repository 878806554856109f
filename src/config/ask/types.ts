/**
 * The resolved settings of seed 002's direct HTTP `ask` (Config.ask), from either file shape.
 * Keys appear here only as the NAME of an environment variable: the value is read at request
 * time by the ask service and exists nowhere in the config.
 */
import type { Endpoint, Sampling } from "../../backends/http/types.ts";

export interface AskDeployment {
  /** Shown by list_capabilities and in messages: `id:` / model_info.id, else the model id. */
  id: string;
  /** As written (`anthropic/claude-sonnet-4-5`): the envelope's model_used. */
  model: string;
  /** What the endpoint is sent (the provider prefix removed). */
  apiModel: string;
  endpoint: Endpoint;
  /** The environment variable the key is read from; undefined = send no key (a local server). */
  keyEnv?: string;
  /** Relative share under the weighted strategy. */
  weight: number;
  /** USD per million tokens, when configured: the envelope's usage.cost_usd. */
  pricing?: { inputPerMTok: number; outputPerMTok: number };
  /** Sampling parameters sent with every request to it (the operator's, never the caller's). */
  sampling?: Sampling;
  /** Its own output cap: a request asking for more is sent this much. */
  maxOutputTokens?: number;
  /** One leg's limit on it, inside the request budget. */
  timeoutMs?: number;
  /** The longest silence in a streamed reply before the leg counts as hung. */
  streamTimeoutMs?: number;
  /** Further tries of it within one request; undefined = the block's retries. */
  maxRetries?: number;
  /** Local rate limits per minute, counted by every process from the history. */
  rpm?: number;
  tpm?: number;
}

export type AskStrategy = "ordered" | "weighted" | "least-busy" | "latency" | "usage";

export interface AskCapability {
  name: string;
  description: string;
  /**
   * ordered: the written order; weighted: a weighted shuffle per request (LiteLLM's simple-shuffle);
   * least-busy: fewest requests in flight; latency: lowest recent latency; usage: fewest tokens this
   * minute — the last three read every process's legs from the store.
   */
  strategy: AskStrategy;
  deployments: AskDeployment[];
  /** Other capabilities tried, in order, when every deployment of this one failed (not transitive). */
  fallbacks: string[];
  /** Capabilities tried instead when the request is too long for this one's models. */
  contextFallbacks: string[];
}

/** Boundaries the caller cannot cross, checked before any provider is called. */
export interface AskLimits {
  /** The one budget of a request: retries, fallbacks and repair turns all spend from it. */
  requestTimeoutSec: number;
  maxPromptChars: number;
  maxSystemChars: number;
  maxContextChars: number;
  /** response_schema's size, checked before it is parsed. */
  maxSchemaChars: number;
  /** The most a caller may ask for, and what is asked when it names none. */
  maxOutputTokens: number;
  schemaRepairAttempts: number;
}

export interface AskConfig {
  capabilities: Record<string, AskCapability>;
  /** Further tries of a capability's deployments after each had one. */
  retries: number;
  /** How long a failed deployment is skipped by every orchestrate process (longer when the provider says so). */
  cooldownSec: number;
  /**
   * Failures a deployment may have within a minute before it cools (LiteLLM's allowed_fails); a
   * rate limit cools at once. 0: the first failure cools it.
   */
  allowedFails: number;
  limits: AskLimits;
}
