/**
 * An ask reply as a tool outcome, for the live call and for job_wait alike (./kind.ts): the
 * envelope is the structuredContent, its error exactly {code, message}. Types and the text
 * formatter only, so the job tools can shape an ask without loading the ask service.
 */
import type { Failure } from "../../../result.ts";
import type { AskEnvelope, AskReply } from "../../../services/ask/index.ts";
import type { ToolOutcome } from "../../outcome.ts";
import { formatAsk } from "./format.ts";

export function outcomeOf(reply: AskReply): ToolOutcome {
  const { ok, error, ...rest } = reply.envelope;
  const notice = reply.store_notice ? { store_notice: reply.store_notice } : {};
  const text = `${formatAsk(reply.envelope)}${reply.store_notice ? `\nNotice: ${reply.store_notice}` : ""}`;
  if (ok) return { ok: true, data: { ...rest, error: null, ...notice }, text };
  const failure: Failure = { code: error?.code ?? "internal_error", message: error?.message ?? "ask failed", ...(reply.hint ? { hint: reply.hint } : {}) };
  return { ok: false, error: failure, data: { ...rest, ...notice }, text, bareError: true };
}

/** A failure before the service ran (bad arguments, a config that does not load), still in the envelope. */
export function askRefusal(capability: unknown, failure: Failure): ToolOutcome {
  // Arguments that do not validate are seed 002's invalid_request, like every other bad request.
  const seedFailure: Failure = failure.code === "invalid_arguments" ? { ...failure, code: "invalid_request" } : failure;
  const envelope: AskEnvelope = {
    ok: false,
    content: null,
    data: null,
    insufficient_context: false,
    capability_requested: typeof capability === "string" ? capability.slice(0, 64) : "",
    model_used: null,
    fallback_used: false,
    finish_reason: null,
    usage: null,
    latency_ms: 0,
    error: { code: seedFailure.code, message: seedFailure.message.slice(0, 500) },
  };
  return outcomeOf({ envelope, ...(seedFailure.hint ? { hint: seedFailure.hint } : {}) });
}
