/**
 * How a gemini run ended (docs/backends/gemini.md, "Failures"). Exit codes: 41 auth, 42 bad input,
 * 44 sandbox, 52 config, 53 turn limit, 54 tool error, 55 untrusted folder, 130 cancelled; API
 * errors exit with HTTP status % 256 (401→145, 429→173, 503→247).
 */
import type { AgentEvent, ExitOutcome, FailureClass } from "../contract.ts";
import { INDIVIDUALS_RETIRED, textFailure } from "./failure-text.ts";

/** HTTP status % 256, as gemini exits on API errors. */
const EXIT_CLASSES: Record<number, FailureClass> = {
  41: "auth",
  130: "cancelled",
  [401 % 256]: "auth",
  [403 % 256]: "auth",
  [429 % 256]: "capacity",
  [503 % 256]: "capacity",
};

/** A refused account tier, which signing in again cannot fix; the hint names what can. */
export function explainGeminiFailure(outcome: ExitOutcome): string | undefined {
  const text = [outcome.stderrTail, ...outcome.events.flatMap((e) => (e.kind === "error" ? [e.message] : []))].join("\n");
  if (INDIVIDUALS_RETIRED.test(text)) {
    return "gemini no longer serves individual Google accounts (AI Pro, Ultra, free Code Assist for individuals) since 2026-06-18, so signing in again will not help. Use the agy backend (Google's Antigravity CLI, `agy`) for this account; gemini still works with a paid GEMINI_API_KEY, Vertex AI, or a Code Assist Standard/Enterprise licence.";
  }
  if (/IneligibleTierError:\s*DASHER_USER/.test(text)) {
    return "gemini refused this Google Workspace account's tier (IneligibleTierError: DASHER_USER); it needs a Code Assist Standard/Enterprise licence, Vertex AI, or a paid GEMINI_API_KEY.";
  }
  return undefined;
}

export function classifyGemini(outcome: ExitOutcome): FailureClass | undefined {
  const code = outcome.exitCode;
  if (code === 127) return "not_installed";
  const byExit = code === null ? undefined : EXIT_CLASSES[code];
  if (byExit) return byExit;
  const errors = outcome.events.filter((e): e is Extract<AgentEvent, { kind: "error" }> => e.kind === "error");
  const classified = errors.find((e) => e.failure)?.failure;
  if (classified) return classified;
  if (errors.length > 0 || outcome.signal || code === null) return "task_failed";
  // 42 input, 44 sandbox, 52 config, 53 turn limit, 54 tool, 55 untrusted folder, 1 general.
  if (code !== 0) return textFailure(outcome.stderrTail) ?? "task_failed";
  return classifyExitZero(outcome);
}

/** gemini always ends a run with a `result` line; exit 0 without one means the stream was broken. */
function classifyExitZero(outcome: ExitOutcome): FailureClass | undefined {
  const final = outcome.events.findLast((e) => e.kind === "final");
  if (final?.kind !== "final") return "bad_output";
  if (!final.ok) return "task_failed";
  const answered = outcome.events.some((e) => e.kind === "text" && e.text.trim() !== "");
  return answered ? undefined : "empty_answer";
}
