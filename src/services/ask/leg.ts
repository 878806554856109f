/**
 * One leg of an ask: one HTTP exchange with one deployment. The key is read from the environment
 * here, at request time, added to the call and dropped with it — it is never stored, logged or
 * put in a message (the caller's envelope scrubs it by value as well). The leg ends by its own
 * timeout, inside the request budget.
 */
import { classifyExchange, type DeploymentFailure, type ExchangeVerdict } from "../../backends/http/classify.ts";
import { wireFor } from "../../backends/http/index.ts";
import { quotaFromHeaders } from "../../backends/http/quota.ts";
import type { QuotaEvent } from "../../backends/events.ts";
import type { FinishReason, ReplyUsage } from "../../backends/http/types.ts";
import type { AskDeployment } from "../../config/types.ts";
import { httpChannel } from "../../runner/transports/http.ts";
import type { Conversation } from "./prompt.ts";

export type LegResult =
  | Extract<ExchangeVerdict, { kind: "answer" | "non_answer" }>
  | {
      kind: "failed";
      failure: DeploymentFailure | "timeout";
      detail: string;
      retryAfterMs?: number;
      finish?: FinishReason;
      usage?: ReplyUsage;
      status?: number | null;
      /** Not tried again within this request. */
      leaves: boolean;
      /** Nothing was sent (an unset key variable): no cooldown, the deployment's health is unknown. */
      unsent?: boolean;
    }
  | { kind: "cancelled" };

export interface LegSpec {
  deployment: AskDeployment;
  conversation: Conversation;
  maxOutputTokens: number;
  timeoutMs: number;
  signal: AbortSignal;
  env: Record<string, string | undefined>;
  now: () => number;
  /** Keys read for this request, so every message can be scrubbed of them by value. */
  secrets: string[];
}

export interface Leg {
  result: LegResult;
  /** What the leg cost, when usage came back and a cost is known (reported, header, or configured prices). */
  costUsd?: number;
  usage?: ReplyUsage;
  /** The HTTP status, when a response arrived (the history's leg row keeps it). */
  status?: number | null;
  /** The rate-limit windows the reply's headers reported (backends/http/quota.ts). */
  quota?: QuotaEvent[];
}

export async function runLeg(spec: LegSpec): Promise<Leg> {
  const d = spec.deployment;
  const key = d.keyEnv !== undefined ? spec.env[d.keyEnv] : undefined;
  // A named variable that is unset: nothing is sent; the fix is in the client's env block, not at the provider.
  if (d.keyEnv !== undefined && !key)
    return { result: { kind: "failed", failure: "auth", detail: `${d.keyEnv} is not set in the server's environment`, leaves: true, unsent: true } };
  if (key) spec.secrets.push(key);
  const wire = wireFor(d.endpoint.wire);
  const maxOutputTokens = Math.min(spec.maxOutputTokens, d.maxOutputTokens ?? Number.POSITIVE_INFINITY);
  const call = wire.build(d.endpoint, {
    model: d.apiModel,
    ...(spec.conversation.system ? { system: spec.conversation.system } : {}),
    messages: spec.conversation.messages,
    maxOutputTokens,
    ...(spec.conversation.wireSchema ? { responseSchema: spec.conversation.wireSchema } : {}),
    ...(d.sampling ? { sampling: d.sampling } : {}),
  });
  const parser = wire.parser();
  // The deployment's own timeout narrows the leg, never widens it past the request budget.
  const timeoutMs = Math.min(spec.timeoutMs, d.timeoutMs ?? Number.POSITIVE_INFINITY);
  const end = await httpChannel(key ? wire.withKey(call, key) : call).run({
    timeoutMs,
    ...(d.streamTimeoutMs !== undefined ? { stallMs: d.streamTimeoutMs } : {}),
    signal: spec.signal,
    onLine: (line) => parser.line(line),
  });
  const reply = parser.result();
  if (end.endReason === "cancelled" || end.endReason === "shutdown" || end.endReason === "budget_exceeded") return { result: { kind: "cancelled" } };
  const usage = reply.usage;
  const costUsd = costOf(d, usage, end.headers);
  const quota = end.status === null ? [] : quotaFromHeaders(end.headers, end.status, spec.now());
  const spent = { ...(usage ? { usage } : {}), ...(costUsd !== undefined ? { costUsd } : {}), status: end.status, ...(quota.length > 0 ? { quota } : {}) };
  if (end.endReason === "timeout" || end.endReason === "stalled") {
    // A hung deployment: cooled, and not tried again within this budget (there is too little of it left).
    const what =
      end.endReason === "stalled"
        ? `silent for its stream timeout of ${d.streamTimeoutMs} ms`
        : `no complete reply within the leg's ${Math.round(timeoutMs)} ms`;
    return { result: { kind: "failed", failure: "timeout", detail: what, status: end.status, leaves: true }, ...spent };
  }
  const verdict = classifyExchange({
    status: end.status,
    headers: end.headers,
    reply,
    ...(end.startError ? { startError: end.startError } : {}),
    ...(end.readError ? { readError: end.readError } : {}),
    now: spec.now(),
  });
  if (verdict.kind !== "failed") return { result: verdict, ...spent };
  return { result: { ...verdict, leaves: leavesRotation(verdict.failure) }, ...spent };
}

/** Trying again within the request would not help: the key, the address or the request is wrong. */
function leavesRotation(failure: DeploymentFailure): boolean {
  return failure === "auth" || failure === "misconfigured" || failure === "bad_request" || failure === "context_window";
}

/** The provider's own figure (OpenRouter's usage.cost, a LiteLLM proxy's cost header), else configured prices. */
function costOf(d: AskDeployment, usage: ReplyUsage | undefined, headers: Record<string, string>): number | undefined {
  if (usage?.costUsd !== undefined) return usage.costUsd;
  const header = Number(headers["x-litellm-response-cost"]);
  if (headers["x-litellm-response-cost"] !== undefined && Number.isFinite(header) && header >= 0) return header;
  if (!usage || !d.pricing) return undefined;
  return ((usage.inputTokens ?? 0) * d.pricing.inputPerMTok + (usage.outputTokens ?? 0) * d.pricing.outputPerMTok) / 1_000_000;
}
