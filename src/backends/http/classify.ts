/**
 * What one HTTP exchange with a model came to, read from its status, headers and parsed body.
 * Pure. Three outcomes: an answer; a reply that is not one (cut off, filtered, a tool call, empty)
 * — the model did answer, so it is final and never retried elsewhere; or a failure of the
 * deployment (key, capacity, server, network, request), which the ask service may retry, cool
 * down and fall back from.
 */
import type { FinishReason, ParsedReply, ReplyUsage } from "./types.ts";

/** A failure of the deployment rather than of the answer. */
export type DeploymentFailure =
  /** 401/403: the key is missing, wrong or not allowed this model. */
  | "auth"
  /** 429, 529, an `overloaded_error`: come back later. */
  | "rate_limited"
  /** 5xx: the provider failed on its side. */
  | "server"
  /** No connection, a reset, a stream that stopped before the model finished, garbage instead of records. */
  | "transport"
  /** 404/405, or a redirect: no such model or endpoint at that address. */
  | "misconfigured"
  /** 400/413/422: this deployment refused the request as sent. */
  | "bad_request"
  /** 400/413 saying the prompt is longer than the model's context window (LiteLLM's ContextWindowExceededError). */
  | "context_window";

/** A reply that is not an answer: final, content null (seed 002: a half answer reads like a whole one). */
export type NonAnswer = "output_truncated" | "content_filtered" | "unexpected_finish" | "empty_answer";

export type ExchangeVerdict =
  | { kind: "answer"; text: string; finish: FinishReason; usage?: ReplyUsage; model?: string }
  | { kind: "non_answer"; why: NonAnswer; finish: FinishReason; native: string; usage?: ReplyUsage; model?: string }
  | { kind: "failed"; failure: DeploymentFailure; status: number | null; detail: string; retryAfterMs?: number; finish?: FinishReason; usage?: ReplyUsage };

export interface ExchangeFacts {
  /** null when no response arrived. */
  status: number | null;
  headers: Record<string, string>;
  reply: ParsedReply;
  /** Why no response arrived (the transport's connect error), when none did. */
  startError?: string;
  /** The body stopped with a read error (a reset mid-stream). */
  readError?: string;
  now: number;
}

export function classifyExchange(facts: ExchangeFacts): ExchangeVerdict {
  const { status, reply } = facts;
  const retryAfterMs = retryAfterOf(facts.headers, facts.now);
  const retry = retryAfterMs !== undefined ? { retryAfterMs } : {};
  if (status === null) return failed("transport", null, `no response (${facts.startError ?? "connection failed"})`, reply);
  if (status < 200 || status >= 300) return { ...failed(failureOfStatus(status, reply), status, `HTTP ${status}${describe(reply.error)}`, reply), ...retry };
  if (reply.error) return { ...failed(failureOfError(reply.error), status, `error in the stream${describe(reply.error)}`, reply), ...retry };
  if (reply.oversized) return failed("transport", status, "the response body was larger than any answer can be", reply);
  if (!reply.finish) return unfinished(facts);
  return verdictOf(reply, reply.finish);
}

function verdictOf(reply: ParsedReply, finish: NonNullable<ParsedReply["finish"]>): ExchangeVerdict {
  const extra = { ...(reply.usage ? { usage: reply.usage } : {}), ...(reply.model ? { model: reply.model } : {}) };
  const nonAnswer = (why: NonAnswer): ExchangeVerdict => ({ kind: "non_answer", why, finish: finish.reason, native: finish.native, ...extra });
  switch (finish.reason) {
    case "stop":
      return reply.text.trim() === "" ? nonAnswer("empty_answer") : { kind: "answer", text: reply.text, finish: "stop", ...extra };
    case "length":
      return nonAnswer("output_truncated");
    case "content_filter":
      return nonAnswer("content_filtered");
    case "tool_calls":
    case "other":
      return nonAnswer("unexpected_finish");
  }
}

/** A 2xx body that ended without a finish reason: cut off, garbage, or nothing at all. */
function unfinished(facts: ExchangeFacts): ExchangeVerdict {
  const { reply, status } = facts;
  if (reply.records === 0 && reply.malformed > 0) return failed("transport", status, "the response was not JSON records", reply);
  if (reply.records === 0) return failed("transport", status, "the response was empty", reply);
  const why = facts.readError ? `the stream broke (${facts.readError})` : "the stream ended before the model finished";
  return failed("transport", status, why, reply);
}

function failed(failure: DeploymentFailure, status: number | null, detail: string, reply: ParsedReply): Extract<ExchangeVerdict, { kind: "failed" }> {
  return { kind: "failed", failure, status, detail, ...(reply.finish ? { finish: reply.finish.reason } : {}), ...(reply.usage ? { usage: reply.usage } : {}) };
}

/** How OpenAI-compatible servers, Anthropic and vLLM say a prompt does not fit the model's context. */
const CONTEXT_WINDOW =
  /context_length_exceeded|context.?window|maximum context length|prompt is too long|too many tokens|input (is )?too long|exceeds the (model'?s? )?(maximum )?context/i;

export function failureOfStatus(status: number, reply: ParsedReply): DeploymentFailure {
  if (status === 401 || status === 403) return "auth";
  if (status === 429 || status === 529) return "rate_limited";
  // A redirect is never followed (it could carry the key to another host): the base URL is wrong.
  if (status === 404 || status === 405 || (status >= 300 && status < 400)) return "misconfigured";
  if (status === 408) return "transport";
  if (status === 409 || status === 425) return "rate_limited";
  if (status >= 500) return reply.error && /overload/i.test(reply.error.type ?? "") ? "rate_limited" : "server";
  return CONTEXT_WINDOW.test(`${reply.error?.type ?? ""} ${reply.error?.message ?? ""}`) ? "context_window" : "bad_request";
}

function failureOfError(error: NonNullable<ParsedReply["error"]>): DeploymentFailure {
  const type = `${error.type ?? ""} ${error.message ?? ""}`;
  if (/overload|rate.?limit|capacity|too many requests/i.test(type)) return "rate_limited";
  if (/auth|permission|api.?key/i.test(error.type ?? "")) return "auth";
  return "server";
}

/** `: <type>: <message>` of a provider's error record; the caller redacts and bounds it. */
function describe(error: ParsedReply["error"]): string {
  if (!error) return "";
  return `: ${[error.type, error.message].filter(Boolean).join(": ")}`;
}

/**
 * The provider's own wait: `retry-after-ms` (OpenAI sends it), else `retry-after` in seconds or
 * as an HTTP date. Undefined when absent or unreadable.
 */
export function retryAfterOf(headers: Record<string, string>, now: number): number | undefined {
  const ms = Number(headers["retry-after-ms"]);
  if (headers["retry-after-ms"] !== undefined && Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers["retry-after"]?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw) * 1000;
  const at = Date.parse(raw);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}
