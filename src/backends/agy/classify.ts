/**
 * How an agy run ended (docs/backends/agy.md, "Ending"). Exit codes moved between releases — failures
 * exit 1 with an ERROR result on 1.1.x, 3 with an `AGY_ERROR:` stderr line from 1.2.6 — and exit 0
 * with `SUCCESS` is not enough: soft-denied tools, a print timeout (≥ 1.2.11, partial text) and a
 * missing conversation all end that way (content decides, not the exit code). So the stream and stderr
 * decide, and the exit code only separates what they leave open.
 */
import type { AgentEvent, ExitOutcome, FailureClass } from "../contract.ts";
import { AGY_MIN_VERSION } from "./variant.ts";
import { agyErrorClass, agyErrorOf, agyTextFailure, CONVERSATION_MISSING, FLAG_ERROR, PRINT_TIMEOUT, SOFT_DENY, UNKNOWN_MODEL } from "./failure-text.ts";

type Final = Extract<AgentEvent, { kind: "final" }>;

export function classifyAgy(outcome: ExitOutcome): FailureClass | undefined {
  if (isNotInstalled(outcome)) return "not_installed";
  const final = lastFinal(outcome.events);
  if (final?.ok && outcome.exitCode === 0) return judgeSuccess(outcome, final);
  return failureClass(outcome, final);
}

/** A SUCCESS result with exit 0: an answer, unless stderr says why it is not one. */
function judgeSuccess(outcome: ExitOutcome, final: Final): FailureClass | undefined {
  if (PRINT_TIMEOUT.test(outcome.stderrTail)) return "timeout";
  // The follow-up ran in a new conversation without the earlier turns: not the answer asked for.
  if (CONVERSATION_MISSING.test(outcome.stderrTail)) return "task_failed";
  if (hasAnswer(final)) return undefined;
  return SOFT_DENY.test(outcome.stderrTail) ? "task_failed" : "empty_answer";
}

function failureClass(outcome: ExitOutcome, final: Final | undefined): FailureClass {
  const structured = agyErrorOf(outcome.stderrTail);
  const byStatus = structured ? agyErrorClass(structured) : undefined;
  if (byStatus) return byStatus;
  const streamed = outcome.events.find((e): e is Extract<AgentEvent, { kind: "error" }> => e.kind === "error" && e.failure !== undefined);
  if (streamed?.failure) return streamed.failure;
  const fromText = agyTextFailure(outcome.stderrTail);
  if (fromText) return fromText;
  if (final || outcome.signal) return "task_failed";
  // Exit 0 without a result line: a broken stream, or a build that prints nothing to a pipe.
  if (outcome.exitCode === 0) return "bad_output";
  return outcome.rawStdoutTail.trim() && outcome.exitCode !== 2 ? "bad_output" : "task_failed";
}

function isNotInstalled(outcome: ExitOutcome): boolean {
  if (outcome.exitCode === 127) return true;
  return outcome.exitCode === null && !outcome.signal && /ENOENT|command not found/.test(outcome.stderrTail);
}

function lastFinal(events: readonly AgentEvent[]): Final | undefined {
  return events.findLast((e): e is Final => e.kind === "final");
}

function hasAnswer(final: Final): boolean {
  return (final.text ?? "").trim() !== "" || final.structured !== undefined;
}

/** What the class alone does not tell a person, with what to do; undefined when the CLI said it. */
export function explainAgy(outcome: ExitOutcome): string | undefined {
  const stderr = outcome.stderrTail;
  const timeout = PRINT_TIMEOUT.exec(stderr);
  if (timeout)
    return `agy's own --print-timeout (${timeout[1]}) ended the turn and it returned partial output, which orchestrate does not count as an answer. Raise the attempt's timeoutSec.`;
  const missing = CONVERSATION_MISSING.exec(stderr);
  if (missing)
    return `agy no longer has conversation ${missing[1]} in its history (~/.gemini/antigravity-cli), so the follow-up would have started from nothing. Start a new consultation.`;
  const denied = SOFT_DENY.exec(stderr);
  if (denied)
    return `agy needed the "${denied[1]}" permission, which headless mode cannot ask for, so it was auto-denied and the turn ended without an answer. Allow it under permissions.allow in ~/.gemini/antigravity-cli/settings.json if you want agy to use it.`;
  const model = UNKNOWN_MODEL.exec(finalMessage(outcome) ?? "");
  if (model)
    return `agy does not offer model "${model[1]}" to this account; use a slug \`agy models\` lists, with its effort suffix (e.g. gemini-3.8-flash-high).`;
  const flag = FLAG_ERROR.exec(stderr);
  if (flag)
    return `agy refused a flag orchestrate passes (${flag[1] ?? flag[2] ?? flag[3]}): this build is older or newer than orchestrate knows. Run \`orchestrate check\`; orchestrate needs agy ${AGY_MIN_VERSION} or newer.`;
  if (outcome.exitCode === 0 && outcome.events.length === 0 && !outcome.rawStdoutTail.trim()) {
    return `agy exited 0 and wrote nothing to its pipe — the print-mode bug of builds before 1.1.1 (antigravity-cli #76). orchestrate needs agy ${AGY_MIN_VERSION} or newer: run \`agy update\`.`;
  }
  return undefined;
}

function finalMessage(outcome: ExitOutcome): string | undefined {
  return lastFinal(outcome.events)?.message;
}
