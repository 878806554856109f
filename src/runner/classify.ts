/**
 * How an attempt ended, as one pure reading: a guard's trip decides first (a budget overrun is
 * never a success; a hopeless retry is the transport failure it is, unless the caller cancelled),
 * then how the transport ended, and only a normal end is left to the backend's own reading.
 */
import type { AgentEvent, ExitOutcome, FailureClass } from "../backends/contract.ts";
import type { FoldedRun } from "../backends/fold.ts";
import type { AgentLimits } from "../config/types.ts";
import { redact } from "../safety/redact.ts";
import type { GuardTrip } from "./guards.ts";
import type { TransportEnd } from "./transports/types.ts";

export interface Classified {
  /** undefined = success. */
  failure?: FailureClass;
  reason: string;
  /** The backend's words for what a failed run's class alone does not say (see Adapter.explain). */
  explanation?: string;
  /**
   * For an unavailable class, the CLI's own words it was read from (redacted): the shell, history
   * and the dashboard say "provider error 503" or "rate-limited" from it. Never in a trace.
   */
  evidence?: string;
}

export interface ClassifyInput {
  end: TransportEnd;
  events: AgentEvent[];
  run: FoldedRun;
  /** The guard verdict of the stream, if any guard tripped. */
  trip: GuardTrip | undefined;
  /** The caller's own signal was aborted (a cancel, not a guard). */
  callerAborted: boolean;
  limits: AgentLimits;
  /** The backend's reading of a run that ended by itself. */
  classify: (outcome: ExitOutcome) => FailureClass | undefined;
  /** The backend's explanation of a failed run, when it has one. */
  explain?: (outcome: ExitOutcome) => string | undefined;
}

export function classifyAttempt(input: ClassifyInput): Classified {
  const classified = classifyEnd(input);
  if (!classified.failure || !input.explain) return classified;
  const explanation = input.explain(outcomeOf(input));
  return explanation ? { ...classified, explanation } : classified;
}

function classifyEnd(input: ClassifyInput): Classified {
  const { trip } = input;
  if (trip && (trip.beatsCancel || !input.callerAborted)) return tripped(trip, input);
  const ended = byEnd(input.end);
  if (ended) return ended;
  const failure = input.classify(outcomeOf(input));
  if (!failure) return { reason: "answered" };
  return withEvidence({ failure, reason: failureReason(failure, input.run, input.end) }, input);
}

/** The last thing the CLI said about an unavailable failure: its verdict, an error, a retry notice, stderr. */
function withEvidence(classified: Classified, input: ClassifyInput): Classified {
  if (classified.reason !== "unavailable") return classified;
  const retry = input.events.findLast((e) => e.kind === "retry" && e.failure !== undefined);
  const text = input.run.final?.message ?? input.run.errors.at(-1) ?? (retry?.kind === "retry" ? retry.message : undefined) ?? lastLine(input.end.stderrTail);
  return text ? { ...classified, evidence: redact(text).slice(0, 300) } : classified;
}

/** What the backend reads: how the run ended, its events and the tails of its output. */
function outcomeOf({ end, events }: ClassifyInput): ExitOutcome {
  return { exitCode: end.exitCode, signal: end.signal, events, stderrTail: end.stderrTail, rawStdoutTail: end.rawStdoutTail };
}

function tripped(trip: GuardTrip, input: ClassifyInput): Classified {
  if (trip.failure === "budget") return { failure: "budget", reason: budgetReason(input.limits, input.run) };
  return withEvidence({ failure: trip.failure, reason: failureReason(trip.failure, input.run, input.end) }, input);
}

/** Every end but a normal one decides by itself. */
function byEnd(end: TransportEnd): Classified | undefined {
  switch (end.endReason) {
    case "timeout":
      return { failure: "timeout", reason: "timed out; the process group was ended" };
    case "stalled":
      return { failure: "stalled", reason: "no output for the stall limit; the process group was ended" };
    case "cancelled":
      return { failure: "cancelled", reason: "cancelled by the client" };
    case "shutdown":
      return { failure: "cancelled", reason: "the server shut down" };
    case "budget_exceeded":
      return { failure: "budget", reason: "token/cost/turn budget exceeded; the process group was ended" };
    case "spawn_failed":
      return { failure: "not_installed", reason: `could not start the CLI (${end.startError ?? "spawn failed"})` };
    case "exit":
      return undefined;
  }
}

/** Unavailable classes say only "unavailable": auth vs capacity would leak credential health. */
function failureReason(failure: FailureClass, run: FoldedRun, end: TransportEnd): string {
  if (failure === "auth" || failure === "capacity" || failure === "transport") return "unavailable";
  const detail = run.final?.message ?? run.errors.at(-1) ?? lastLine(end.stderrTail);
  const exit = end.exitCode !== null ? `exit ${end.exitCode}` : `signal ${end.signal ?? "?"}`;
  // Redact before cutting: a secret split by the cut would no longer match the scrubber.
  return detail ? `${failure} (${exit}): ${redact(detail).slice(0, 300)}` : `${failure} (${exit})`;
}

function lastLine(text: string): string | undefined {
  return text.trim().split("\n").at(-1)?.trim() || undefined;
}

export function budgetReason(limits: AgentLimits, run: FoldedRun): string {
  const { maxTokens, maxCostUsd, maxTurns } = limits;
  const used = `${(run.usage.inputTokens ?? 0) + (run.usage.outputTokens ?? 0)} tokens${run.usage.costUsd !== undefined ? `, $${run.usage.costUsd.toFixed(4)}` : ""}${run.usage.turns !== undefined ? `, ${run.usage.turns} turns` : ""}`;
  const bounds = [
    maxTokens !== undefined ? `${maxTokens} tokens` : "",
    maxCostUsd !== undefined ? `$${maxCostUsd}` : "",
    maxTurns !== undefined ? `${maxTurns} turns` : "",
  ]
    .filter(Boolean)
    .join(", ");
  return `budget exceeded (used ${used}; limit ${bounds}); the process group was ended`;
}
