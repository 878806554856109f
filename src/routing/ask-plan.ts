/**
 * Pure planning for one `ask` request: in which order a capability's deployments are tried, how
 * long each leg may take out of the one request budget, and how long to wait before trying a
 * deployment again. The clock and the dice are passed in.
 */
import type { AskStrategy } from "../config/types.ts";

/**
 * Each leg is given slightly less than what is left, so a hung deployment ends by its own leg
 * timeout — counted as its failure and cooled down — before the request's budget is gone, instead
 * of being cancelled from outside and picked again by the next request (seed 002).
 */
export function legTimeoutMs(remainingMs: number): number {
  return Math.max(0, remainingMs - legMarginMs(remainingMs));
}

/** 2% of what is left, between 20 ms and 1 s: room to record the failure and shape the reply. */
export function legMarginMs(remainingMs: number): number {
  return Math.min(1000, Math.max(20, remainingMs * 0.02));
}

/** A leg shorter than this cannot get an answer from any provider; the budget counts as spent. */
export const MIN_LEG_MS = 50;

/** Whether another leg can start (after waiting `waitMs` first). */
export function roomForLeg(remainingMs: number, waitMs = 0): boolean {
  return legTimeoutMs(remainingMs - waitMs) >= MIN_LEG_MS;
}

const BACKOFF_BASE_MS = 250;
const BACKOFF_CAP_MS = 8000;

/**
 * The wait before trying a deployment again after its `failures`-th failure in this request:
 * exponential from 250 ms (capped at 8 s), and never shorter than the provider's retry-after.
 */
export function backoffMs(failures: number, retryAfterMs?: number): number {
  const exponential = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, failures - 1));
  return Math.max(exponential, retryAfterMs ?? 0);
}

/** What the load-aware strategies read about one deployment (from every process's history, plus this one's in-flight legs). */
export interface LoadFacts {
  inFlight: number;
  /** Mean latency of its recent answered legs; undefined when it has none (tried first, to learn it). */
  meanLatencyMs?: number;
  /** Tokens it served this minute. */
  tokens: number;
}

/**
 * `ordered`: as written. `weighted`: a weighted shuffle (each pick proportional to its weight among
 * those left), so load spreads by weight and every deployment still gets its turn in a request.
 * `least-busy`, `latency`, `usage`: ascending by in-flight legs, recent mean latency or this
 * minute's tokens — ties keep the written order, so the strategy is stable under equal load.
 */
export function orderDeployments<T extends { weight: number }>(
  deployments: readonly T[],
  strategy: AskStrategy,
  random: () => number,
  load: (d: T) => LoadFacts = () => ({ inFlight: 0, tokens: 0 }),
): T[] {
  if (strategy === "least-busy") return byFigure(deployments, (d) => load(d).inFlight);
  if (strategy === "latency") return byFigure(deployments, (d) => load(d).meanLatencyMs ?? -1);
  if (strategy === "usage") return byFigure(deployments, (d) => load(d).tokens);
  if (strategy === "ordered" || deployments.length < 2) return [...deployments];
  const left = [...deployments];
  const out: T[] = [];
  while (left.length > 0) {
    const total = left.reduce((sum, d) => sum + d.weight, 0);
    let roll = random() * total;
    let pick = left.length - 1;
    for (let i = 0; i < left.length; i++) {
      roll -= left[i]?.weight ?? 0;
      if (roll < 0) {
        pick = i;
        break;
      }
    }
    out.push(...left.splice(pick, 1));
  }
  return out;
}

function byFigure<T>(deployments: readonly T[], figure: (d: T) => number): T[] {
  return deployments
    .map((d, i) => ({ d, i, f: figure(d) }))
    .sort((a, b) => a.f - b.f || a.i - b.i)
    .map(({ d }) => d);
}

/** Whether a deployment is at its per-minute limits (LiteLLM's rpm/tpm), counting the legs in flight as requests. */
export function atRateLimit(limits: { rpm?: number; tpm?: number }, minute: { requests: number; tokens: number }): boolean {
  return (limits.rpm !== undefined && minute.requests >= limits.rpm) || (limits.tpm !== undefined && minute.tokens >= limits.tpm);
}
