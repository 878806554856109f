/**
 * An HTTP provider's quota signal: the rate-limit headers on its replies, answered or refused.
 * OpenAI-compatible servers send `x-ratelimit-{limit,remaining,reset}-{requests,tokens}` (the reset
 * as a duration: `1s`, `6m0s`, `20ms`); Anthropic sends `anthropic-ratelimit-<kind>-{limit,
 * remaining,reset}` for requests, tokens, input-tokens and output-tokens (the reset an RFC 3339
 * time). A window with nothing remaining is exhausted until its reset; a 429 whose `retry-after`
 * is all it says is exhausted that long. Only these headers are read (docs/design.md, "Quota").
 */
import type { QuotaEvent } from "../events.ts";
import { retryAfterOf } from "./classify.ts";

const OPENAI_KINDS = ["requests", "tokens"] as const;
const ANTHROPIC_KINDS = ["requests", "tokens", "input-tokens", "output-tokens"] as const;
const SOURCE = "rate-limit headers";

export function quotaFromHeaders(headers: Record<string, string>, status: number | null, now: number): QuotaEvent[] {
  const windows = [
    ...OPENAI_KINDS.flatMap((kind) =>
      windowOf(kind, headers[`x-ratelimit-limit-${kind}`], headers[`x-ratelimit-remaining-${kind}`], durationMs(headers[`x-ratelimit-reset-${kind}`]), now),
    ),
    ...ANTHROPIC_KINDS.flatMap((kind) =>
      windowOf(
        kind,
        headers[`anthropic-ratelimit-${kind}-limit`],
        headers[`anthropic-ratelimit-${kind}-remaining`],
        untilMs(headers[`anthropic-ratelimit-${kind}-reset`], now),
        now,
      ),
    ),
  ];
  const retryAfter = status === 429 ? retryAfterOf(headers, now) : undefined;
  if (retryAfter === undefined || windows.some((w) => w.state === "exhausted")) return windows;
  return [...windows, { kind: "quota", window: "retry-after", state: "exhausted", resetsAt: now + retryAfter, source: SOURCE }];
}

function windowOf(kind: string, limitText: string | undefined, remainingText: string | undefined, resetInMs: number | undefined, now: number): QuotaEvent[] {
  const remaining = count(remainingText);
  if (remaining === undefined) return [];
  const limit = count(limitText);
  const used = limit !== undefined && limit > 0 ? Math.round(((limit - Math.min(remaining, limit)) / limit) * 1000) / 10 : undefined;
  return [
    {
      kind: "quota",
      window: kind,
      state: remaining <= 0 ? "exhausted" : "ok",
      source: SOURCE,
      ...(used !== undefined ? { usedPercent: used } : {}),
      ...(resetInMs !== undefined ? { resetsAt: now + resetInMs } : {}),
    },
  ];
}

function count(text: string | undefined): number | undefined {
  if (text === undefined || !/^\s*\d+\s*$/.test(text)) return undefined;
  return Number(text);
}

/** OpenAI's reset: `6m0s`, `1s`, `20ms`, `1h2m3.5s`, or plain seconds; undefined when unreadable. */
export function durationMs(text: string | undefined): number | undefined {
  const raw = text?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw) * 1000;
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
  const parts = [...raw.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== raw) return undefined;
  return parts.reduce((sum, p) => sum + Number(p[1]) * (units[p[2] ?? "s"] ?? 0), 0);
}

/** Anthropic's reset: a time; as a wait from now (never negative). */
function untilMs(text: string | undefined, now: number): number | undefined {
  const at = text ? Date.parse(text) : Number.NaN;
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}
