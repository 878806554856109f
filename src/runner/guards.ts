/**
 * Guards end a run from what its stream says, before the CLI ends it itself: a token/cost/turn
 * budget crossed mid-run, a retry the CLI announces will never end (codex offline loops on
 * "waiting for network" forever), or a capacity retry loop the CLI would sit in for minutes.
 * Each guard reads one event at a time (with the fold so far, and the clock) into a trip; a guard
 * that trips on silence also says until when it waits. The GuardSet feeds them, remembers what
 * tripped and says when to abort and when to look again. No guard reads a clock of its own: `now`
 * is passed in, so every rule is a table test.
 */
import type { AgentEvent, FailureClass, Usage } from "../backends/contract.ts";
import type { FoldedRun } from "../backends/fold.ts";
import type { AgentLimits } from "../config/types.ts";
import type { StopReason } from "./transports/types.ts";

export interface GuardTrip {
  guard: "budget" | "hopeless_retry" | "capacity_retry";
  /** The end the transport records when this trip aborts the run. */
  stop: StopReason;
  /** What the attempt is, however the run ended after the trip. */
  failure: FailureClass;
  /**
   * Whether the trip still decides when the caller cancelled too. A budget overrun does (the run
   * is never a success nor a plain cancel); a retry guard yields: the caller ended it first.
   */
  beatsCancel: boolean;
}

export interface Guard {
  /** Reads one event at `now`, with the fold so far on demand; a trip means the run must end now. */
  see(event: AgentEvent, folded: () => FoldedRun, now: number): GuardTrip | undefined;
  /** For a guard that trips on silence: when it trips if no event changes its mind first. */
  due?(): { at: number; trip: GuardTrip } | undefined;
}

const BUDGET_TRIP: GuardTrip = { guard: "budget", stop: "budget_exceeded", failure: "budget", beatsCancel: true };
const HOPELESS_TRIP: GuardTrip = { guard: "hopeless_retry", stop: "cancelled", failure: "transport", beatsCancel: false };
const CAPACITY_TRIP: GuardTrip = { guard: "capacity_retry", stop: "cancelled", failure: "capacity", beatsCancel: false };

/** Prices a usage the CLI reported without a cost (src/services/shared/price.ts costEstimator). */
export type CostOf = (usage: Usage) => number | undefined;

/** Trips on a usage report that takes the folded usage past any of the agent's limits. */
export function budgetGuard(limits: AgentLimits, costOf?: CostOf): Guard {
  return {
    see(event, folded) {
      if (event.kind !== "usage") return undefined;
      const { usage } = folded();
      return overBudget(limits, withEstimatedCost(usage, costOf) ?? usage) ? BUDGET_TRIP : undefined;
    },
  };
}

/**
 * The usage with its cost computed from the price when the CLI reported none (undefined when it
 * did, or nothing can be priced): a maxCostUsd on such a backend is held against the estimate
 * (docs/cost.md).
 */
export function withEstimatedCost(usage: Usage, costOf: CostOf | undefined): Usage | undefined {
  if (!costOf || usage.costUsd !== undefined) return undefined;
  const costUsd = costOf(usage);
  return costUsd === undefined ? undefined : { ...usage, costUsd };
}

/** Trips on a retry the CLI marks as never ending on its own: the transport failure it is. */
export const hopelessRetryGuard: Guard = { see: (event) => (event.kind === "retry" && event.hopeless ? HOPELESS_TRIP : undefined) };

/**
 * How long a capacity retry may go without progress before the run counts as unavailable.
 *
 * From the retry timelines measured on the real CLIs (docs/failures.md): a run that
 * recovers from one 429/503 shows progress 0.6–2.4 s after its retry line (claude 529 0.61 s, 429
 * 1.03 s; codex 429 1.03 s; opencode 503 2.39 s, its 2 s backoff ±25 %; pi waits 2 s before its
 * next attempt), and gemini's first backoff is 5 s ±30 %, up to 6.5 s. A persistent failure
 * normally ends sooner by the second-signal rule (codex 429 +1.0 s, opencode 429 +1.0 s and 503
 * +2.2 s, pi +2–4 s, codex 503 +3.3 s) or by the CLI's own capped final error (claude). So the
 * window only decides when the provider asked for a long wait (codex and opencode honour any
 * `retry-after`, copilot adds seconds to it) and must sit above every recovery gap: 8 s. Startup
 * (≤ 6 s for opencode) + a first signal + 8 s stays well inside the 30-s fast-failure limit, so
 * the fallback is still allowed; and a recovered reply that is not streamed (codex and opencode
 * print a message only once it is whole) has 8 s to show a first step.
 */
export const CAPACITY_QUIET_MS = 8_000;

/** Events that show the model working again after a retry: anything but retries, errors and echoes. */
function isProgress(event: AgentEvent): boolean {
  switch (event.kind) {
    case "text":
    case "thinking":
    case "tool":
    case "file_change":
    case "step":
      return true;
    case "final":
      return event.ok;
    default:
      return false;
  }
}

function actsOn(event: AgentEvent): boolean {
  return (event.kind === "tool" && event.acts) || event.kind === "file_change";
}

/**
 * Ends a capacity retry loop (a 429/503/529 the CLI retries by itself) within seconds instead of
 * the CLI's minutes, so a clean tree can fall back. None of the CLIs' first retry lines is
 * conclusive — each prints the very same line when one transient failure is followed by an answer
 * — so the first signal only starts a watch. It trips on:
 *  - a second capacity retry with no progress since the first (consecutive: the retry failed too);
 *  - a capacity retry announcing a wait of at least the window (the provider's `retry-after`):
 *    nothing can happen before it, and the cooldown takes it over;
 *  - `quietMs` without progress after a capacity retry.
 * Once the run acted (a tool that can change state ran) it never trips: such a run cannot fall
 * back anyway, and ending it would only take its chance to recover away from it.
 */
export function capacityRetryGuard(quietMs = CAPACITY_QUIET_MS): Guard {
  let watchingSince: number | undefined;
  let acted = false;
  return {
    see(event, _folded, now) {
      if (actsOn(event)) acted = true;
      if (acted) {
        watchingSince = undefined;
        return undefined;
      }
      if (event.kind === "retry" && event.failure === "capacity") {
        if (watchingSince !== undefined) return CAPACITY_TRIP;
        if (event.retryAfterSec !== undefined && event.retryAfterSec * 1000 >= quietMs) return CAPACITY_TRIP;
        watchingSince = now;
        return undefined;
      }
      if (isProgress(event)) watchingSince = undefined;
      return undefined;
    },
    due: () => (watchingSince === undefined ? undefined : { at: watchingSince + quietMs, trip: CAPACITY_TRIP }),
  };
}

/**
 * Web mode's turn bound (seed 001's web_turn_limit), counted from the stream because claude has no
 * --max-turns: each web tool call the delegate starts spends one turn. The call that spends the
 * last of the budget runs and the model may answer from it; the next one ends the run, which then
 * fails (a budget trip), rather than answering from a search cut short.
 */
export function webTurnGuard(limit: number): Guard {
  let used = 0;
  return {
    see(event) {
      if (event.kind !== "tool" || !event.web || event.phase !== "start") return undefined;
      used += 1;
      return used > limit ? BUDGET_TRIP : undefined;
    },
  };
}

/** The guards every attempt runs, in verdict order: a budget overrun outranks either retry guard. */
export function attemptGuards(limits: AgentLimits, capacityQuietMs = CAPACITY_QUIET_MS, webTurnLimit?: number, costOf?: CostOf): Guard[] {
  const web = webTurnLimit !== undefined ? [webTurnGuard(webTurnLimit)] : [];
  return [budgetGuard(limits, costOf), ...web, hopelessRetryGuard, capacityRetryGuard(capacityQuietMs)];
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
  see(event: AgentEvent, folded: () => FoldedRun, now: number): StopReason | undefined {
    return this.each((guard) => guard.see(event, folded, now));
  }

  /** The clock reached `now` with no event: trips every guard whose silence is due. */
  tick(now: number): StopReason | undefined {
    return this.each((guard) => {
      const due = guard.due?.();
      return due && due.at <= now ? due.trip : undefined;
    });
  }

  /** The earliest instant a guard that has not tripped would trip on silence, if any waits. */
  nextDue(): number | undefined {
    let next: number | undefined;
    this.guards.forEach((guard, i) => {
      const at = this.trips[i] ? undefined : guard.due?.()?.at;
      if (at !== undefined && (next === undefined || at < next)) next = at;
    });
    return next;
  }

  verdict(): GuardTrip | undefined {
    return this.trips.find((trip) => trip !== undefined);
  }

  private each(read: (guard: Guard) => GuardTrip | undefined): StopReason | undefined {
    let stop: StopReason | undefined;
    this.guards.forEach((guard, i) => {
      if (this.trips[i]) return;
      const trip = read(guard);
      if (!trip) return;
      this.trips[i] = trip;
      stop ??= trip.stop;
    });
    return stop;
  }
}
