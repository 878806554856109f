/**
 * One re-run of the same agent after a capacity failure, for a backend that asks for it
 * (traits.capacityRerun): its own retry waits longer than starting it again, so its retries are
 * capped at one attempt and the runner retries instead — answered sooner when the failure was
 * transient, handed over sooner when it persists. Only a run that did nothing may go again.
 */
import type { BackendTraits, FailureClass } from "../backends/contract.ts";

/** What the rule reads of the first run (an AttemptResult). */
export interface FirstRun {
  failure?: FailureClass;
  reason: string;
  spawned: boolean;
  durationMs: number;
  retryAfterSec?: number;
  run: { acted: boolean };
  treeBefore?: string | undefined;
  treeAfter?: string | undefined;
}

/** A re-run needs room to start the CLI and hear the server; with less left, the failure stands. */
export const RERUN_MIN_LEFT_MS = 5_000;

export interface RerunFacts {
  traits: BackendTraits;
  first: FirstRun;
  /** Whether the attempt fingerprinted the tree (route mode): then it must be unchanged. */
  fingerprinted: boolean;
  /** The attempt's whole time cap, the re-run included. */
  timeoutMs: number;
  callerAborted: boolean;
}

/** The pause before the re-run, or undefined when the first attempt's failure stands. Pure. */
export function rerunDelayMs(facts: RerunFacts): number | undefined {
  const rerun = facts.traits.capacityRerun;
  const { first } = facts;
  if (!rerun || first.failure !== "capacity" || !first.spawned || facts.callerAborted) return undefined;
  // A provider that asked for a wait is not asked again at once: the cooldown keeps that wait.
  if (first.retryAfterSec !== undefined) return undefined;
  if (first.run.acted) return undefined;
  if (facts.fingerprinted && (first.treeBefore === undefined || first.treeBefore !== first.treeAfter)) return undefined;
  if (facts.timeoutMs - first.durationMs - rerun.delayMs < RERUN_MIN_LEFT_MS) return undefined;
  return rerun.delayMs;
}

/** What the trace says of the attempt that was re-run rather than fallen back from. */
export function rerunReason(first: FirstRun): string {
  return `${first.reason}; the same agent was run once more`;
}

/** Waits `ms` unless the caller cancels first; true when the wait ran out. */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ranOut: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(ranOut);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
