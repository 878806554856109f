/** Moved to runner/attempt.ts. This re-export stays only until services/route-outcome.ts imports it from there. */
export { runAttempt, type AttemptResult, type AttemptSpec } from "../runner/attempt.ts";
