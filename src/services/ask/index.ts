/**
 * The ask service (seed 002): one question to the model configured for its kind of work, over the
 * provider's HTTP API, answered in one envelope whatever happens. Boundaries first (request.ts),
 * then the deployments, retries and fallbacks under one budget (serve.ts), then the envelope.
 */
import type { ErrorCode } from "../../errors.ts";
import type { Failure } from "../../result.ts";
import type { Runtime } from "../shared/runtime.ts";
import { safeMessage, settledReply, UsageTally, type AskEnvelope, type AskJobResult, type AskReply } from "./envelope.ts";
import { askKeyValues, recordAsk } from "./record.ts";
import { checkRequest, type AskRequest } from "./request.ts";
import { serve, type AskRun, type LastFailure, type Served } from "./serve.ts";

export type { AskEnvelope, AskJobResult, AskReply } from "./envelope.ts";
export type { AskRequest } from "./request.ts";
export { listCapabilities, type CapabilityListing } from "./views.ts";
export { askDryRun, type AskDryRun } from "./dry-run.ts";

export interface AskHooks {
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
  /** The client's own call timeout: the budget stays under it, or the envelope would arrive to nobody. */
  ceilingMs?: number;
  /** The weighted strategy's dice (tests pass their own). */
  random?: () => number;
}

export async function ask(rt: Runtime, req: AskRequest, hooks: AskHooks = {}): Promise<AskReply> {
  const started = rt.now();
  const shell = (): AskEnvelope => ({
    ok: false,
    content: null,
    data: null,
    insufficient_context: false,
    capability_requested: req.capability,
    model_used: null,
    fallback_used: false,
    finish_reason: null,
    usage: null,
    latency_ms: 0,
    error: null,
  });
  const checked = await checkRequest(rt.config.ask, req);
  if (!checked.ok) return remembered(rt, req, refusal(shell(), checked.error, started, rt), []);
  const limits = rt.config.ask.limits;
  const budgetMs = Math.min(limits.requestTimeoutSec * 1000, hooks.ceilingMs ?? Number.POSITIVE_INFINITY);
  const run: AskRun = {
    rt,
    request: checked.value,
    deadline: started + budgetMs,
    signal: hooks.signal ?? new AbortController().signal,
    secrets: [],
    usage: new UsageTally(),
    repairsLeft: limits.schemaRepairAttempts,
    legs: 0,
    trail: [],
    quotaSkipped: [],
    finish: null,
    random: hooks.random ?? Math.random,
    ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
  };
  const served = await serve(run);
  const servedBy = served.kind === "exhausted" ? run.last?.deployment : served.deployment;
  return remembered(rt, req, envelopeOf(shell(), run, served, started, budgetMs), run.trail, servedBy?.endpoint.url);
}

/** The ask job kind (services/jobs/kinds.ts): the whole request budget, no client ceiling — the job outlives the call. */
export async function askJob(rt: Runtime, req: AskRequest, hooks: Pick<AskHooks, "signal" | "onProgress">): Promise<AskJobResult> {
  return settledReply(await ask(rt, req, hooks));
}

/** The history keeps every ask that reached the service; the reply goes out whatever the store did. */
function remembered(rt: Runtime, request: AskRequest, reply: AskReply, legs: AskRun["trail"], servedUrl?: string): AskReply {
  const { notice, id } = recordAsk(rt, { request, envelope: reply.envelope, legs, ...(servedUrl !== undefined ? { servedUrl } : {}) });
  return { ...reply, ...(notice ? { store_notice: notice } : {}), ...(id !== undefined ? { ask_id: id } : {}) };
}

function refusal(envelope: AskEnvelope, error: Failure, started: number, rt: Runtime): AskReply {
  return {
    envelope: { ...envelope, latency_ms: rt.now() - started, error: { code: error.code, message: safeMessage(error.message, []) } },
    ...(error.hint ? { hint: error.hint } : {}),
  };
}

function envelopeOf(shell: AskEnvelope, run: AskRun, served: Served, started: number, budgetMs: number): AskReply {
  const common = { ...shell, usage: run.usage.value(), finish_reason: run.finish, latency_ms: run.rt.now() - started };
  if (served.kind === "answer") {
    const structured = run.request.schema !== undefined;
    const content = structured || served.abstained ? null : served.text;
    return {
      envelope: {
        ...common,
        ok: true,
        content,
        data: structured ? served.data : null,
        insufficient_context: served.abstained,
        model_used: served.deployment.model,
        fallback_used: served.fallback,
        finish_reason: "stop",
      },
    };
  }
  const failed =
    served.kind === "final"
      ? { code: served.code, message: served.message, model: served.deployment?.model ?? null, fallback: served.fallback }
      : exhausted(run, served.budget, budgetMs);
  const error = { code: failed.code, message: safeMessage(failed.message, run.secrets) };
  return { envelope: { ...common, model_used: failed.model, fallback_used: failed.fallback, error }, ...(failed.hint ? { hint: failed.hint } : {}) };
}

interface FailureShape {
  code: ErrorCode;
  message: string;
  model: string | null;
  fallback: boolean;
  hint?: string;
}

/** Every deployment (and fallback) failed, was cooling, or the budget ran out. */
function exhausted(run: AskRun, budget: boolean, budgetMs: number): FailureShape {
  const { last } = run;
  const tried = last ? { model: last.deployment.model, fallback: last.deployment !== run.intended } : { model: null, fallback: false };
  const name = run.request.capability.name;
  if (budget) {
    const why = last ? `; the last failure was ${describe(last)}` : "";
    return {
      code: "timeout",
      message: `The request budget of ${seconds(budgetMs)} ran out after ${run.legs} leg(s)${why}.`,
      hint: "Raise limits.requestTimeoutSec, ask for less (max_output_tokens), or add a faster deployment.",
      ...tried,
    };
  }
  if (!last) {
    const back = run.coolingEnds !== undefined ? ` The first comes back in ${seconds(Math.max(0, run.coolingEnds - run.rt.now()))}.` : "";
    const which = `Every deployment of ${name}${run.request.capability.fallbacks.length ? " and of its fallbacks" : ""}`;
    const why = run.quotaSkipped.length
      ? `is out of quota or cooling down; nothing was sent (${run.quotaSkipped.join("; ")}).`
      : "failed recently and is cooling down.";
    return { code: "no_deployment", message: `${which} ${why}${back}`, ...tried };
  }
  const also = run.request.capability.fallbacks.length ? " and its fallbacks" : "";
  const skipped = run.quotaSkipped.length ? ` Skipped before sending: ${run.quotaSkipped.join("; ")}.` : "";
  return { ...byFailure(last), message: `No deployment of ${name}${also} answered; the last failure was ${describe(last)}.${skipped}`, ...tried };
}

function byFailure(last: LastFailure): { code: ErrorCode; hint: string } {
  switch (last.failure) {
    case "auth":
      return {
        code: "auth_failed",
        hint: "Keys are read from the server's own environment (the MCP client's env block for this server), not your shell's: set the variable named there, or check that the key is valid for this model.",
      };
    case "rate_limited":
      return {
        code: "rate_limited",
        hint: "Every deployment tried was rate-limited or overloaded: ask again later, or give the capability another deployment or a fallback.",
      };
    case "transport":
      return {
        code: "upstream_error",
        hint: "No usable reply arrived: check that the deployment's server is up at its base URL (orchestrate check shows the config).",
      };
    case "timeout":
      return {
        code: "timeout",
        hint: "The deployment did not answer in time and is cooling down, so the next request tries another first; raise limits.requestTimeoutSec if its answers are slow.",
      };
    default:
      return { code: "upstream_error", hint: "The provider refused or failed the request: check the deployment's model id and base URL, or ask again later." };
  }
}

function describe(last: LastFailure): string {
  return `${last.capability}/${last.deployment.id}: ${last.detail}`;
}

function seconds(ms: number): string {
  return ms >= 10_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 1000).toFixed(1)} s`;
}
export { askKeyValues };
