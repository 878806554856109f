/**
 * codex's quota signal: every turn's `token_count` event in its session rollout carries the
 * account's rate-limit windows (`rate_limits.primary` / `.secondary`: `used_percent`,
 * `window_minutes`, `resets_at` in epoch seconds; builds before 0.171 wrote `resets_in_seconds`).
 * The stream says nothing of them. Only these fields of the newest rollout's last report are read
 * (docs/design.md, "Quota"); the rest of the file is never looked at.
 */
import type { QuotaEvent, QuotaFile } from "../contract.ts";
import { asObject, num, parseObject, type Json } from "../events.ts";
import { codexHomeFor, codexRolloutDirFor } from "./machine.ts";

const DAY_MS = 86_400_000;
const SOURCE = "codex rollout rate_limits";

/** A day folder is the local date the session started: a run across midnight writes to yesterday's. */
export const codexQuotaFile: QuotaFile = {
  dirs: ({ env, home, now }) => [now, new Date(now.getTime() - DAY_MS)].map((d) => codexRolloutDirFor(codexHomeFor(env, home), d)),
  matches: (name) => name.startsWith("rollout-") && name.endsWith(".jsonl"),
  tailBytes: 256 * 1024,
  read: codexQuotaFromRollout,
};

/** The windows of the last `token_count` that carried `rate_limits`; none when no such line is in the text. */
export function codexQuotaFromRollout(text: string): QuotaEvent[] {
  const lines = text.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const limits = rateLimitsOf(lines[i] ?? "");
    if (limits) return windowsOf(limits);
  }
  return [];
}

function rateLimitsOf(line: string): Json | undefined {
  const payload = asObject(parseObject(line)?.payload);
  return payload?.type === "token_count" ? asObject(payload.rate_limits) : undefined;
}

function windowsOf(limits: Json): QuotaEvent[] {
  return (["primary", "secondary"] as const).flatMap((slot) => {
    const w = asObject(limits[slot]);
    const used = num(w?.used_percent);
    if (!w || used === undefined) return [];
    const resetsAt = num(w.resets_at);
    const resetsIn = num(w.resets_in_seconds);
    return [
      {
        kind: "quota",
        window: windowName(num(w.window_minutes), slot),
        // codex has no warning state of its own: the threshold (defaults.quotaWarnPercent) decides.
        state: used >= 100 ? "exhausted" : "ok",
        usedPercent: used,
        source: SOURCE,
        ...(resetsAt !== undefined ? { resetsAt: resetsAt * 1000 } : resetsIn !== undefined ? { resetsInSec: resetsIn } : {}),
      },
    ];
  });
}

/** `5h`, `7d`: the window by its length (a plan's windows differ); the slot's name when the length is unknown. */
function windowName(minutes: number | undefined, slot: string): string {
  if (minutes === undefined || minutes <= 0) return slot;
  if (minutes % 1440 === 0) return `${minutes / 1440}d`;
  if (minutes % 60 === 0) return `${minutes / 60}h`;
  return `${minutes}m`;
}
