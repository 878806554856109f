/**
 * One time budget shared by every attempt of a route. Fallback only follows a *fast* failure, so
 * the first attempt gets nearly everything; each later attempt keeps a reserve so a slow first
 * attempt cannot leave the fallback with nothing.
 */
export interface BudgetSplit {
  totalSec: number;
  /** Seconds kept back for each attempt after the current one. */
  reserveSec: number;
  /** Planned cap of each attempt if every earlier one failed at once. */
  perAttemptSec: number[];
}

export function splitBudget(totalSec: number, maxWallSec: (number | undefined)[]): BudgetSplit {
  const n = maxWallSec.length;
  const reserveSec = n <= 1 ? 0 : Math.min(60, Math.floor(totalSec / (2 * n)));
  const perAttemptSec = maxWallSec.map((cap, k) => capFor(totalSec, reserveSec, n - 1 - k, cap));
  return { totalSec, reserveSec, perAttemptSec };
}

/** The cap for an attempt that starts with `remainingSec` left and `laterAttempts` after it. */
export function attemptCapSec(remainingSec: number, reserveSec: number, laterAttempts: number, maxWallSec?: number): number {
  return capFor(remainingSec, reserveSec, laterAttempts, maxWallSec);
}

function capFor(availableSec: number, reserveSec: number, laterAttempts: number, maxWallSec?: number): number {
  const cap = Math.max(1, availableSec - reserveSec * laterAttempts);
  return maxWallSec === undefined ? cap : Math.min(cap, maxWallSec);
}
