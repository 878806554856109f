/**
 * The ask tools' handlers, typed by their schemas: call the ask service, shape the envelope.
 * Every outcome of ask — a refusal at the boundary, a config that does not load, an answer — is
 * seed 002's envelope; never a throw.
 */
import type { Failure } from "../../../result.ts";
import { ask as askService, listCapabilities as capabilityListing, type AskEnvelope, type AskReply } from "../../../services/ask/index.ts";
import { getRuntime, runtimeFailure } from "../../../services/shared/runtime.ts";
import type { ToolContext } from "../../define.ts";
import { syncBudgetSec } from "../../jobs/sync-budget.ts";
import type { ToolOutcome } from "../../outcome.ts";
import { withRuntime } from "../runtime.ts";
import { formatAsk, formatCapabilities } from "./format.ts";
import type { askInput, listCapabilitiesInput } from "./schema.ts";

export async function ask(input: typeof askInput.infer, ctx: ToolContext): Promise<ToolOutcome> {
  const rt = await getRuntime(process.env);
  if (!rt.ok) return askRefusal(input.capability, runtimeFailure(rt.error));
  const ceilingMs = syncBudgetSec(rt.value.env, rt.value.config.syncBudgetSec, ctx.clientName) * 1000;
  const reply = await askService(rt.value, input, {
    signal: ctx.signal,
    ceilingMs,
    ...(ctx.wantsProgress ? { onProgress: (message: string) => ctx.progress(message) } : {}),
  });
  return outcomeOf(reply);
}

export function listCapabilities(_input: typeof listCapabilitiesInput.infer, ctx: ToolContext): Promise<ToolOutcome> {
  return withRuntime((rt) => {
    const listing = capabilityListing(rt, syncBudgetSec(rt.env, rt.config.syncBudgetSec, ctx.clientName) * 1000);
    return { ok: true, data: { ...listing }, text: formatCapabilities(listing) };
  });
}

/** The envelope as a tool outcome: structuredContent is the envelope itself, error {code, message} exactly. */
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
