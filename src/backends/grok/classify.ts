/** How a grok run ended (docs/backends/grok.md, "Failures"): the community CLI exits 0 on API errors. */
import type { AgentEvent, ExitOutcome, FailureClass } from "../contract.ts";
import { foldEvents } from "../fold.ts";

export function classifyGrok(outcome: ExitOutcome): FailureClass | undefined {
  if (isNotInstalled(outcome)) return "not_installed";
  const streamError = outcome.events.find((e): e is Extract<AgentEvent, { kind: "error" }> => e.kind === "error");
  if (streamError) return streamError.failure ?? "task_failed";
  if (/API key required|Not signed in/i.test(outcome.stderrTail)) return "auth";
  const final = outcome.events.findLast((e) => e.kind === "final");
  if (final && !final.ok) return "task_failed";
  if (outcome.signal || (outcome.exitCode ?? 0) !== 0) return "task_failed";
  if (foldEvents(outcome.events).text.trim()) return undefined;
  return outcome.rawStdoutTail.trim() ? "bad_output" : "empty_answer";
}

function isNotInstalled(outcome: ExitOutcome): boolean {
  if (outcome.exitCode === 127) return true;
  return outcome.exitCode === null && !outcome.signal && /ENOENT|command not found/.test(outcome.stderrTail);
}
