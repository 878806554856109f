/**
 * Finish reasons, normalized. Providers behind an OpenAI-compatible endpoint often report a plain
 * `stop` for what was not a finished answer and keep their own reason alongside (OpenRouter's
 * `native_finish_reason`: Gemini's MALFORMED_FUNCTION_CALL, FINISH_REASON_UNSPECIFIED, SAFETY…),
 * so the native reason decides whenever it says more than "stop" (seed 002's guardrail).
 */
import type { FinishReason } from "./types.ts";

const BY_NAME: Record<string, FinishReason> = {
  stop: "stop",
  end_turn: "stop",
  stop_sequence: "stop",
  eos: "stop",
  length: "length",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  content_filter: "content_filter",
  refusal: "content_filter",
  safety: "content_filter",
  recitation: "content_filter",
  blocklist: "content_filter",
  prohibited_content: "content_filter",
  spii: "content_filter",
  image_safety: "content_filter",
  tool_calls: "tool_calls",
  function_call: "tool_calls",
  tool_use: "tool_calls",
  malformed_function_call: "tool_calls",
  unexpected_tool_call: "tool_calls",
};

export function normalizeFinish(reason: string): FinishReason {
  const key = reason.toLowerCase();
  return Object.hasOwn(BY_NAME, key) ? (BY_NAME[key] ?? "other") : "other";
}

/** The reason that counts: the native one when the normalized one says only "stop". */
export function finishOf(reported: string | undefined, native: string | undefined): { reason: FinishReason; native: string } | undefined {
  if (reported === undefined && native === undefined) return undefined;
  const base = reported !== undefined ? normalizeFinish(reported) : undefined;
  const nativeReason = native !== undefined ? normalizeFinish(native) : undefined;
  const reason = base === undefined || (base === "stop" && nativeReason !== undefined && nativeReason !== "stop") ? (nativeReason ?? "other") : base;
  return { reason, native: native ?? reported ?? "" };
}
