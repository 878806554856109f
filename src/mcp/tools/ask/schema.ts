/**
 * ask and list_capabilities, as arktype types (seed 002). Closed objects: an unknown argument is
 * refused with invalid_arguments before anything is sent — seed 002's first known gap was that its
 * SDK dropped unknown keys before the handler saw them; this server validates the raw arguments.
 * The length bounds here are ceilings; the operator's limits (config ask.limits) are checked by
 * the service and advertised in tools/list where the config sets them.
 */
import { type } from "arktype";
import { ERROR_CODE_LIST } from "../../../errors.ts";
import { costEstimate, errorInfo, jobRef } from "../shared.ts";

export const askInput = type({
  "+": "reject",
  capability: "0 < string <= 64",
  prompt: "0 < string <= 1000000",
  "system?": "string <= 1000000",
  "context?": "string <= 2000000",
  /** A JSON Schema object, or its JSON text (capped before it is parsed). */
  "response_schema?": type("string <= 1000000").or("Record<string, unknown>"),
  "max_output_tokens?": "1 <= number.integer <= 1000000",
  /** Beside seed 002's arguments: answer with a job id at once (job_wait reads the envelope later). */
  "background?": "boolean",
  /** Check the request and return the deployments it would go to, each with an estimated cost; nothing is sent. */
  "dry_run?": "boolean",
});

/** Exactly seed 002's error: {code, message}; what to do next is in the text block. */
const envelopeError = type({ code: type.enumerated(...ERROR_CODE_LIST), message: "string" });

const usage = type({ prompt_tokens: "number", completion_tokens: "number", total_tokens: "number", "cost_usd?": "number" });

const finishReason = "'stop' | 'length' | 'content_filter' | 'tool_calls' | 'other' | null";

/** Seed 002's envelope. Every field is always present; only `ok` is required so refusals and job handles fit too. */
export const askOutput = type({
  ok: "boolean",
  "content?": "string | null",
  "data?": "unknown",
  "insufficient_context?": "boolean",
  "capability_requested?": "string",
  "model_used?": "string | null",
  "fallback_used?": "boolean",
  "finish_reason?": finishReason,
  "usage?": usage.or("null"),
  "latency_ms?": "number",
  "error?": envelopeError.or("null"),
  /** Beside seed 002's fields: store_unavailable when the history store refused this ask after the provider answered. */
  "store_notice?": "string",
  /** Beside seed 002's fields, for dry_run: true: where the ask would go, nothing sent. */
  "dry_run?": type({
    capability: "string",
    strategy: "string",
    deployments: type({
      capability: "string",
      id: "string",
      model: "string",
      fallback: "boolean",
      cooling_until: "string | null",
      "quota?": "string",
      cost: costEstimate,
    }).array(),
  }),
  /** Beside seed 002's fields: an ask still running at the sync budget continues as this job. */
  "job?": jobRef,
});

/** What an ask job stores as its result (services/ask/envelope.ts AskJobResult), read back by job_wait. */
export const askJobResult = type({
  envelope: {
    ok: "boolean",
    content: "string | null",
    data: "unknown",
    insufficient_context: "boolean",
    capability_requested: "string",
    model_used: "string | null",
    fallback_used: "boolean",
    finish_reason: finishReason,
    usage: usage.or("null"),
    latency_ms: "number",
    error: envelopeError.or("null"),
  },
  "hint?": "string",
  "store_notice?": "string",
  "ask_id?": "string",
});

export const listCapabilitiesInput = type({ "+": "reject" });

export const listCapabilitiesOutput = type({
  ok: "boolean",
  "capabilities?": type({
    name: "string",
    description: "string",
    strategy: "'ordered' | 'weighted' | 'least-busy' | 'latency' | 'usage'",
    fallbacks: "string[]",
    deployments: type({ id: "string", model: "string", format: "'openai' | 'anthropic'", cooling_until: "string | null", "quota?": "string" }).array(),
  }).array(),
  "limits?": type({
    request_timeout_s: "number",
    max_prompt_chars: "number",
    max_system_chars: "number",
    max_context_chars: "number",
    max_schema_chars: "number",
    max_output_tokens: "number",
    schema_repair_attempts: "number",
  }),
  "error?": errorInfo,
});
