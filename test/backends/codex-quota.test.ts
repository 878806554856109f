/**
 * codex's quota signal (src/backends/codex/quota.ts): the rate-limit windows of the last
 * `token_count` event in a session rollout, in the shape codex 0.171.0 writes them.
 */
import { describe, expect, test } from "bun:test";
import { codexQuotaFile, codexQuotaFromRollout } from "../../src/backends/codex/quota.ts";

const line = (type: string, payload: unknown) => JSON.stringify({ timestamp: "2026-12-08T10:00:00.000Z", type, payload });
const usage = { input_tokens: 42, cached_input_tokens: 0, output_tokens: 7, reasoning_output_tokens: 0, total_tokens: 49 };
const tokenCount = (rateLimits: unknown) =>
  line("event_msg", {
    type: "token_count",
    info: { total_token_usage: usage, last_token_usage: usage, model_context_window: 258400 },
    rate_limits: rateLimits,
  });
const snapshot = (primary: number, secondary: number) => ({
  limit_id: "codex",
  limit_name: null,
  primary: { used_percent: primary, window_minutes: 300, resets_at: 1_900_000_000 },
  secondary: { used_percent: secondary, window_minutes: 10080, resets_at: 1_900_400_000 },
  credits: null,
  plan_type: "plus",
  rate_limit_reached_type: null,
});

describe("codex rollout rate_limits", () => {
  test("the last report's windows, named by their length, with resets_at in epoch ms", () => {
    const text = [
      line("session_meta", { session_id: "t", cwd: "/r", originator: "codex_exec", cli_version: "0.171.0" }),
      tokenCount(snapshot(40, 5)),
      line("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text: "used_percent 1" }] }),
      tokenCount(snapshot(95, 12.5)),
      line("event_msg", { type: "task_complete", last_agent_message: "done" }),
    ].join("\n");
    expect(codexQuotaFromRollout(text)).toEqual([
      { kind: "quota", window: "5h", state: "ok", usedPercent: 95, resetsAt: 1_900_000_000_000, source: "codex rollout rate_limits" },
      { kind: "quota", window: "7d", state: "ok", usedPercent: 12.5, resetsAt: 1_900_400_000_000, source: "codex rollout rate_limits" },
    ]);
  });

  test("a full window is exhausted; an older build's resets_in_seconds is kept relative", () => {
    const old = { primary: { used_percent: 100, window_minutes: 300, resets_in_seconds: 5400 }, secondary: null };
    expect(codexQuotaFromRollout(tokenCount(old))).toEqual([
      { kind: "quota", window: "5h", state: "exhausted", usedPercent: 100, resetsInSec: 5400, source: "codex rollout rate_limits" },
    ]);
  });

  test("null rate_limits (an API-key login), a cut first line, or no token_count at all: nothing", () => {
    expect(codexQuotaFromRollout(tokenCount(null))).toEqual([]);
    expect(codexQuotaFromRollout(tokenCount(snapshot(50, 5)).slice(40))).toEqual([]);
    expect(codexQuotaFromRollout(line("turn_context", { model: "gpt-5.5" }))).toEqual([]);
    // A later token_count without windows does not hide the last one that had them.
    expect(codexQuotaFromRollout([tokenCount(snapshot(70, 5)), tokenCount(null)].join("\n")).map((w) => w.usedPercent)).toEqual([70, 5]);
  });

  test("where to look: today's and yesterday's day folder under $CODEX_HOME/sessions, rollout files only", () => {
    const now = new Date(2026, 11, 8, 0, 30);
    expect(codexQuotaFile.dirs({ env: { CODEX_HOME: "/h/.codex" }, home: "/h", now })).toEqual([
      "/h/.codex/sessions/2026/12/08",
      "/h/.codex/sessions/2026/12/07",
    ]);
    expect(codexQuotaFile.matches("rollout-2026-12-08T00-30-00-0199.jsonl")).toBe(true);
    expect(codexQuotaFile.matches("history.jsonl")).toBe(false);
  });
});
