/**
 * The resolved settings of seed 002's direct HTTP `ask` (Config.ask), from either file shape.
 * Keys appear here only as the NAME of an environment variable: the value is read at request
 * time by the ask service and exists nowhere in the config.
 */
import type { Endpoint } from "../../backends/http/types.ts";

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
}

export interface AskCapability {
  name: string;
  description: string;
  /** ordered: the written order, first to last; weighted: a weighted shuffle per request. */
  strategy: "ordered" | "weighted";
  deployments: AskDeployment[];
  /** Other capabilities tried, in order, when every deployment of this one failed (not transitive). */
  fallbacks: string[];
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
  limits: AskLimits;
}
