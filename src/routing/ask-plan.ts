/**
 * Pure planning for one `ask` request: in which order a capability's deployments are tried, how
 * long each leg may take out of the one request budget, and how long to wait before trying a
 * deployment again. The clock and the dice are passed in.
 */

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

/**
 * `ordered`: as written. `weighted`: a weighted shuffle (each pick proportional to its weight among
 * those left), so load spreads by weight and every deployment still gets its turn in a request.
 */
export function orderDeployments<T extends { weight: number }>(deployments: readonly T[], strategy: "ordered" | "weighted", random: () => number): T[] {
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
