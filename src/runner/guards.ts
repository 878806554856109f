/**
 * Guards end a run from what its stream says, before the CLI ends it itself: a token/cost/turn
 * budget crossed mid-run, or a retry the CLI announces will never end (codex offline loops on
 * "waiting for network" forever). Each guard is a pure reading of one event (and the fold so far)
 * into a trip; the GuardSet feeds them, remembers what tripped and says when to abort.
 */
import type { AgentEvent, FailureClass, Usage } from "../backends/contract.ts";
import type { FoldedRun } from "../backends/fold.ts";
import type { AgentLimits } from "../config/types.ts";
import type { StopReason } from "./transports/types.ts";

export interface GuardTrip {
  guard: "budget" | "hopeless_retry";
  /** The end the transport records when this trip aborts the run. */
  stop: StopReason;
  /** What the attempt is, however the run ended after the trip. */
  failure: FailureClass;
  /**
   * Whether the trip still decides when the caller cancelled too. A budget overrun does (the run
   * is never a success nor a plain cancel); a hopeless retry yields: the caller ended it first.
   */
  beatsCancel: boolean;
}

/** Reads one event, with the fold so far on demand; a trip means the run must end now. */
export type Guard = (event: AgentEvent, folded: () => FoldedRun) => GuardTrip | undefined;

const BUDGET_TRIP: GuardTrip = { guard: "budget", stop: "budget_exceeded", failure: "budget", beatsCancel: true };
const HOPELESS_TRIP: GuardTrip = { guard: "hopeless_retry", stop: "cancelled", failure: "transport", beatsCancel: false };

/** Trips on a usage report that takes the folded usage past any of the agent's limits. */
export function budgetGuard(limits: AgentLimits): Guard {
  return (event, folded) => (event.kind === "usage" && overBudget(limits, folded().usage) ? BUDGET_TRIP : undefined);
}

/** Trips on a retry the CLI marks as never ending on its own: the transport failure it is. */
export const hopelessRetryGuard: Guard = (event) => (event.kind === "retry" && event.hopeless ? HOPELESS_TRIP : undefined);

/** The guards every attempt runs, in verdict order: a budget overrun outranks a hopeless retry. */
export function attemptGuards(limits: AgentLimits): Guard[] {
  return [budgetGuard(limits), hopelessRetryGuard];
}

export function overBudget(limits: AgentLimits, usage: Usage): boolean {
  const { maxTokens, maxCostUsd, maxTurns } = limits;
  const tokens = (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
  if (maxTokens !== undefined && tokens > maxTokens) return true;
  if (maxCostUsd !== undefined && (usage.costUsd ?? 0) > maxCostUsd) return true;
  return maxTurns !== undefined && (usage.turns ?? 0) > maxTurns;
}

/**
 * One attempt's guards. A trip is remembered (sticky: a run whose usage crossed a limit is never a
 * success, even if it exited before the abort landed), and the verdict is the first guard, in the
 * set's order, that tripped — not the first to trip in time.
 */
export class GuardSet {
  private readonly trips: (GuardTrip | undefined)[];

  constructor(private readonly guards: readonly Guard[]) {
    this.trips = guards.map(() => undefined);
  }

  /** Feeds one event to every guard; returns the stop reason when a guard trips for the first time. */
  see(event: AgentEvent, folded: () => FoldedRun): StopReason | undefined {
    let stop: StopReason | undefined;
    this.guards.forEach((guard, i) => {
      if (this.trips[i]) return;
      const trip = guard(event, folded);
      if (!trip) return;
      this.trips[i] = trip;
      stop ??= trip.stop;
    });
    return stop;
  }

  verdict(): GuardTrip | undefined {
    return this.trips.find((trip) => trip !== undefined);
  }
}
