/**
 * The http backend's vocabulary: a chat request as orchestrate states it, the HTTP call a wire
 * format makes of it, and the reply its stream parser reads back. Everything here is pure data;
 * the call is made by runner/transports/http.ts and composed by services/ask/.
 */

/** The two wire formats spoken: OpenAI chat-completions (and every compatible server) and Anthropic messages. */
export type WireFormat = "openai" | "anthropic";

export interface ChatMessage {
  role: "user" | "assistant";
  content: string;
}

/** One exchange with a model, before any wire format is applied. */
export interface ChatRequest {
  /** The model id the endpoint expects (the provider prefix already removed). */
  model: string;
  system?: string;
  messages: ChatMessage[];
  maxOutputTokens: number;
  /** Structured mode: the schema the reply must satisfy, for endpoints that take one natively. */
  responseSchema?: Record<string, unknown>;
  sampling?: Sampling;
}

/** Sampling parameters an operator set on a deployment; each wire format sends what it has a field for. */
export interface Sampling {
  temperature?: number;
  topP?: number;
  stop?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
}

/** Where a deployment is reached and how it is spoken to (see providers.ts). */
export interface Endpoint {
  wire: WireFormat;
  /** The full URL of the chat endpoint. */
  url: string;
  /** The provider prefix as written (`anthropic`, `openrouter`, `ollama_chat`, …). */
  provider: string;
  /** OpenAI's own API wants max_completion_tokens (reasoning models refuse max_tokens); compatible servers want max_tokens. */
  tokenField: "max_tokens" | "max_completion_tokens";
  /** Fields a provider needs beyond the format (OpenRouter's usage accounting). */
  extraBody?: Record<string, unknown>;
  /** The header the key goes in: Authorization: Bearer (default) or Azure's api-key. */
  keyHeader?: "api-key";
}

/**
 * An HTTP call without its credential: the key is added by `withKey` at request time, from the
 * environment, so a built call can be logged, recorded or compared and never holds a secret.
 */
export interface HttpCall {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Where withKey puts the key when the endpoint does not take a Bearer token (Azure's api-key). */
  keyHeader?: "api-key";
}

/**
 * Why the model stopped, normalized across formats. `stop` is the only finished answer; the rest
 * are failures that say what happened (length: raise max_output_tokens).
 */
export type FinishReason = "stop" | "length" | "content_filter" | "tool_calls" | "other";

export interface ReplyUsage {
  inputTokens?: number;
  outputTokens?: number;
  /** Only when the provider reported it (OpenRouter's usage.cost, a LiteLLM proxy's cost header). */
  costUsd?: number;
}

/** What a parser read from one response body, streamed or whole. */
export interface ParsedReply {
  text: string;
  finish?: { reason: FinishReason; native: string };
  usage?: ReplyUsage;
  /** The model the provider says served. */
  model?: string;
  /** An error record in the body or mid-stream (`{"error": {...}}`, Anthropic's `event: error`). */
  error?: { type?: string; message?: string };
  /** Records seen, and data records that were not JSON: a stream of garbage is a provider failure. */
  records: number;
  malformed: number;
  /** The body was cut off at the parser's size bound. */
  oversized: boolean;
}

/** A stream parser: fed the body line by line as it arrives, read once at the end. */
export interface ReplyParser {
  line(line: string): void;
  result(): ParsedReply;
}

export interface Wire {
  format: WireFormat;
  build(endpoint: Endpoint, request: ChatRequest): HttpCall;
  /** The call with its credential header; pure, so the caller decides when the key is read. */
  withKey(call: HttpCall, key: string): HttpCall;
  parser(): ReplyParser;
}
