import { type } from "arktype";
import { errorInfo, jobRef, usage } from "../shared.ts";

const id = type("0 < string <= 64");
const strings = type("string[]");

export const consultInput = type({
  "+": "reject",
  prompt: "0 < string <= 1000000",
  capability: "0 < string <= 64",
  "context?": "string <= 2000000",
  "agent?": "0 < string <= 128",
  "consultation_id?": id,
  // orchestrate's two words, and the seed's (auto: document with context, model without; web is refused until it exists).
  "source_mode?": "'context_only' | 'model_knowledge' | 'auto' | 'document' | 'context' | 'model' | 'web'",
  "background?": "boolean",
});

/** orchestrate's usage and, beside it, seed 001's snake_case one. */
const consultUsage = usage.and({ "prompt_tokens?": "number", "completion_tokens?": "number", "total_tokens?": "number", "cost_usd?": "number" });
/** Seed 001's route: why this agent answered. */
const route = type({
  agent_id: "string",
  runtime: "string",
  model: "string | null",
  capability_score: "number",
  priority: "number",
  explicitly_selected: "boolean",
});

const content = type({
  answer: "string",
  assumptions: strings,
  uncertainties: strings,
  follow_up_questions: strings,
  sources: type({ title: "string", locator: "string", source_type: "'model' | 'document' | 'web'" }).array(),
});

/** Every field but ok is optional: refusals and background job handles share this schema. */
export const consultOutput = type({
  ok: "boolean",
  "consultation_id?": "string",
  "agent?": "string",
  "backend?": "string",
  "model?": "string | null",
  "model_verification?": "'verified' | 'unverified' | 'mismatch'",
  "content?": content.or("null"),
  "usage?": consultUsage,
  "latency_ms?": "number",
  "capability_requested?": "string",
  "source_mode_used?": "'document' | 'model' | 'web'",
  "route?": route.or("null"),
  "repaired?": "boolean",
  "rerun?": "string",
  /** store_unavailable: the history store refused this turn after the agent answered. */
  "store_notice?": "string",
  "job?": jobRef,
  /** null when the consultation answered (seed 002's envelope), the failure otherwise. */
  "error?": errorInfo.or("null"),
});

export const listAgentsInput = type({ "+": "reject" });

export const listAgentsOutput = type({
  ok: "boolean",
  "host?": type({ runtime: "string", "model?": "string" }).or("null"),
  "host_problem?": "string",
  "agents?": type({
    id: "string",
    backend: "string",
    model: "string | null",
    provider: "string",
    scores: "Record<string, number>",
    priority: "number",
    enabled: "boolean",
    installed: "boolean",
    resumable: "boolean",
    readiness: "'ready' | 'not_ready' | 'unknown'",
    eligible: "boolean",
    "excluded_reason?": "string",
    "quota?": "string",
  }).array(),
  "error?": errorInfo,
});

export const getConsultationInput = type({ "+": "reject", id });

export const getConsultationOutput = type({
  ok: "boolean",
  "id?": "string",
  "agent?": "string",
  "backend?": "string",
  "model?": "string | null",
  "host_runtime?": "string | null",
  "native_session_id?": "string | null",
  "status?": "string",
  "created_at?": "string",
  "updated_at?": "string",
  "turns?": type({
    n: "number",
    prompt: "string | null",
    context: "string | null",
    content: "unknown",
    error: type({ code: "string", message: "string" }).or("null"),
    model_reported: "string | null",
    model_verification: "string",
    usage: "unknown",
    latency_ms: "number",
    created_at: "string",
  }).array(),
  "error?": errorInfo,
});
