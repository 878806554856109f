/** How a copilot run ended (docs/backends/copilot.md, "Failures"). */
import type { AgentEvent, ExitOutcome, FailureClass } from "../contract.ts";
import { foldEvents } from "../fold.ts";
import { TRANSPORT_RE } from "./failure-text.ts";

export function classifyCopilot(outcome: ExitOutcome): FailureClass | undefined {
  if (isNotInstalled(outcome)) return "not_installed";
  const streamError = outcome.events.find((e): e is Extract<AgentEvent, { kind: "error" }> => e.kind === "error");
  if (streamError) return streamError.failure ?? "task_failed";
  const fromStderr = stderrClass(outcome.stderrTail);
  if (fromStderr) return fromStderr;
  const final = outcome.events.findLast((e) => e.kind === "final");
  if (!final) return noFinalClass(outcome);
  if (!final.ok || outcome.exitCode !== 0) return "task_failed";
  return foldEvents(outcome.events).text.trim() ? undefined : "empty_answer";
}

function stderrClass(stderr: string): FailureClass | undefined {
  if (/No authentication information found/.test(stderr)) return "auth";
  if (/could not be validated/.test(stderr)) return TRANSPORT_RE.test(stderr) ? "transport" : "auth";
  if (/rate limit/i.test(stderr)) return "capacity";
  if (/^Error: /m.test(stderr) || /^error: /m.test(stderr)) return "task_failed";
  return undefined;
}

function noFinalClass(outcome: ExitOutcome): FailureClass {
  if (outcome.signal || (outcome.exitCode ?? 0) !== 0) return "task_failed";
  return "bad_output";
}

function isNotInstalled(outcome: ExitOutcome): boolean {
  if (outcome.exitCode === 127) return true;
  return outcome.exitCode === null && !outcome.signal && /ENOENT|command not found/.test(outcome.stderrTail);
}
