/** How a codex run ended (docs/backends/codex.md, "Failures"). */
import type { AgentEvent, ExitOutcome, FailureClass } from "../contract.ts";
import { codexFailureFromText } from "./failure-text.ts";

export function classifyCodex(outcome: ExitOutcome): FailureClass | undefined {
  if (outcome.exitCode === 127 || /ENOENT|command not found/.test(outcome.stderrTail)) return "not_installed";
  const final = lastFinal(outcome.events);
  if (final?.ok && outcome.exitCode === 0) return hasAnswer(outcome.events) ? undefined : "empty_answer";
  const texts = failureTexts(outcome, final);
  for (const text of texts) {
    const failure = codexFailureFromText(text);
    if (failure) return failure;
  }
  if (final) return "task_failed";
  // Killed mid-stream (a crash, or by us): the partial last line is not a format problem.
  if (outcome.signal) return "task_failed";
  // No terminal record: garbage on stdout, or a "success" exit that never finished the turn.
  if (outcome.rawStdoutTail.trim() || outcome.exitCode === 0) return "bad_output";
  return "task_failed";
}

function failureTexts(outcome: ExitOutcome, final: Extract<AgentEvent, { kind: "final" }> | undefined): string[] {
  const errors = outcome.events.flatMap((e) => (e.kind === "error" ? [e.message] : []));
  // Retry notices count only when the run never reached a verdict (e.g. killed while "waiting for network").
  const retries = final ? [] : outcome.events.flatMap((e) => (e.kind === "retry" ? [e.message] : []));
  return [final?.message ?? "", ...errors, ...retries.reverse(), outcome.stderrTail].filter((t) => t !== "");
}

function lastFinal(events: readonly AgentEvent[]): Extract<AgentEvent, { kind: "final" }> | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event?.kind === "final") return event;
  }
  return undefined;
}

function hasAnswer(events: readonly AgentEvent[]): boolean {
  return events.some((e) => (e.kind === "text" && e.text.trim() !== "") || (e.kind === "final" && e.structured !== undefined));
}
