/**
 * How a claude run ended (docs/backends/claude.md, "Failure wordings"): the result's verdict, the
 * classes the parser attached to errors, and what only stderr says (a root refusal of
 * bypassPermissions).
 */
import type { AgentEvent, ExitOutcome, FailureClass } from "../contract.ts";
import { claudeFailureOf } from "./failure-text.ts";

const ROOT_BYPASS = "cannot be used with root/sudo privileges";

export function classifyClaude(outcome: ExitOutcome): FailureClass | undefined {
  if (outcome.exitCode === 127 || /ENOENT|native binary not installed/.test(outcome.stderrTail)) return "not_installed";
  const final = lastFinal(outcome.events);
  if (final?.ok && outcome.exitCode === 0) return hasAnswer(final) ? undefined : "empty_answer";
  for (const event of outcome.events) if (event.kind === "error" && event.failure) return event.failure;
  if (final) return "task_failed";
  // Killed mid-stream (a crash, or by us): the partial last line is not a format problem.
  if (outcome.signal) return "task_failed";
  if (outcome.stderrTail.includes(ROOT_BYPASS)) return "task_failed";
  const fromText = claudeFailureOf(undefined, undefined, undefined, outcome.rawStdoutTail);
  if (fromText) return fromText;
  if (outcome.rawStdoutTail.trim() || outcome.exitCode === 0) return "bad_output";
  return "task_failed";
}

/**
 * A readable reason for failures that leave no event on stdout (claude writes only to stderr),
 * for the service to surface. Undefined when the events already say it.
 */
export function explainClaudeFailure(outcome: ExitOutcome): string | undefined {
  if (outcome.stderrTail.includes(ROOT_BYPASS)) {
    return "claude refused permissionMode bypassPermissions because it runs as root; it allows that only inside a sandbox (IS_SANDBOX=1 in its environment). Use permissionMode acceptEdits or run orchestrate as a normal user.";
  }
  if (outcome.events.length > 0) return undefined;
  const line = outcome.stderrTail.split("\n").find((l) => l.trim() !== "");
  return line ? `claude exited ${String(outcome.exitCode)}: ${line.trim()}` : undefined;
}

function lastFinal(events: readonly AgentEvent[]): Extract<AgentEvent, { kind: "final" }> | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event?.kind === "final") return event;
  }
  return undefined;
}

function hasAnswer(final: Extract<AgentEvent, { kind: "final" }>): boolean {
  return (final.text ?? "").trim() !== "" || final.structured !== undefined;
}
