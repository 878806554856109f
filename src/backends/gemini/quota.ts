/**
 * gemini's quota signal: a Code Assist quota that ran out fails the turn at once, without a retry
 * (its TerminalQuotaError), and names when it resets — `You have exhausted your capacity on this
 * model. Your quota will reset after 2h27m11s.` — in the result's error text and on stderr. Read
 * as the exhausted window it is, so the agent cools until that reset and no earlier
 * (docs/design.md, "Quota"), and as the capacity wait, so the runner does not re-run it at once.
 */
import type { AgentEvent } from "../contract.ts";

const QUOTA_RESET = /exhausted your (?:capacity|quota)\b[^\n]*?reset after ((?:\d+(?:\.\d+)?(?:ms|h|m|s))+)/i;

export function geminiQuotaEvents(text: string): AgentEvent[] {
  const match = QUOTA_RESET.exec(text);
  const resetSec = match?.[1] === undefined ? undefined : durationSec(match[1]);
  if (resetSec === undefined) return [];
  return [
    { kind: "retry", message: (match?.[0] ?? "").slice(0, 200), failure: "capacity", retryAfterSec: resetSec },
    { kind: "quota", window: "model", state: "exhausted", resetsInSec: resetSec, source: "gemini failure text" },
  ];
}

/** `2h27m11s`, `48m20s`, `5s`, `1.5s`, `500ms` in seconds; undefined when the text is not one. */
export function durationSec(text: string): number | undefined {
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== text) return undefined;
  return parts.reduce((sum, p) => sum + Number(p[1]) * (units[p[2] ?? "s"] ?? 0), 0);
}
