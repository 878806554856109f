/**
 * Seed 002's response envelope, exactly: every outcome — answer, refusal, truncation, timeout —
 * has the same eleven fields, so callers branch on a field instead of parsing prose. When ok is
 * false, content and data are null (the server never ghostwrites: no "Sorry, I couldn't…" where a
 * model's answer goes) and error is {code, message}, the message at most 500 characters with
 * anything credential-shaped — and any key this process read — scrubbed out.
 */
import type { FinishReason, ReplyUsage } from "../../backends/http/types.ts";
import type { ErrorCode } from "../../errors.ts";
import type { Settled } from "../../result.ts";
import { redact } from "../../safety/redact.ts";

export const MAX_ERROR_MESSAGE_CHARS = 500;

export interface EnvelopeUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** Only when every leg's cost is known (the provider reported it, or the deployment has prices). */
  cost_usd?: number;
}

export interface AskEnvelope {
  ok: boolean;
  content: string | null;
  data: unknown;
  insufficient_context: boolean;
  capability_requested: string;
  model_used: string | null;
  fallback_used: boolean;
  finish_reason: FinishReason | null;
  usage: EnvelopeUsage | null;
  latency_ms: number;
  error: { code: ErrorCode; message: string } | null;
}

/** A failed envelope also says what to do next; that goes in the text block, not the envelope. */
export interface AskReply {
  envelope: AskEnvelope;
  hint?: string;
  /** `store_unavailable: …` when the history store refused the ask after the provider answered; beside the envelope, not in it. */
  store_notice?: string;
  /** The history row this ask was stored as, when the store took it. */
  ask_id?: string;
}

/**
 * An ask run as a durable job (a long one outlives the sync budget, docs/protocol.md): the reply,
 * settled by its envelope so the job row records the ask's outcome and code like any other kind's.
 */
export type AskJobResult = AskReply & Settled;

export function settledReply(reply: AskReply): AskJobResult {
  const { error } = reply.envelope;
  if (reply.envelope.ok || !error) return { ...reply, ok: true };
  return { ...reply, ok: false, error: { code: error.code, message: error.message, ...(reply.hint ? { hint: reply.hint } : {}) } };
}

/** What every leg of a request spent, added up (repairs and failed tries are paid for too). */
export class UsageTally {
  private input = 0;
  private output = 0;
  private cost = 0;
  private seen = false;
  private costKnown = true;

  add(usage: ReplyUsage | undefined, costUsd: number | undefined): void {
    if (!usage) return;
    this.seen = true;
    this.input += usage.inputTokens ?? 0;
    this.output += usage.outputTokens ?? 0;
    if (costUsd === undefined) this.costKnown = false;
    else this.cost += costUsd;
  }

  value(): EnvelopeUsage | null {
    if (!this.seen) return null;
    const total = this.input + this.output;
    return { prompt_tokens: this.input, completion_tokens: this.output, total_tokens: total, ...(this.costKnown ? { cost_usd: round(this.cost) } : {}) };
  }
}

function round(usd: number): number {
  return Math.round(usd * 1e8) / 1e8;
}

/**
 * A message fit to leave the process: known secrets (the keys this request read) replaced first,
 * then every credential shape the scrubber knows, then bounded. Redacting before cutting: a secret
 * split by the cut would no longer match.
 */
export function safeMessage(message: string, secrets: readonly string[]): string {
  let out = message;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join("[REDACTED:key]");
  out = redact(out);
  return out.length <= MAX_ERROR_MESSAGE_CHARS ? out : `${out.slice(0, MAX_ERROR_MESSAGE_CHARS - 1)}…`;
}
