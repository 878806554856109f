/**
 * Recursion guard (docs/design.md): every child inherits ORCHESTRATE_DEPTH + 1, and an orchestrate
 * running at depth ≥ maxDepth refuses to delegate, so two orchestrates cannot ping-pong forever.
 */
import { fail, ok, type Result } from "../result.ts";

type Env = Record<string, string | undefined>;

export const DEPTH_VAR = "ORCHESTRATE_DEPTH";

/**
 * 0 when unset. A value that is not a non-negative integer counts as infinitely deep: a garbled
 * guard must fail closed, not reset the count.
 */
export function currentDepth(env: Env): number {
  const raw = env[DEPTH_VAR];
  if (raw === undefined || raw === "") return 0;
  return /^\d{1,4}$/.test(raw.trim()) ? Number(raw.trim()) : Number.POSITIVE_INFINITY;
}

export function checkDepth(env: Env, max: number): Result<number, "recursion_limit"> {
  const depth = currentDepth(env);
  if (depth < max) return ok(depth);
  const raw = env[DEPTH_VAR];
  const where = Number.isFinite(depth) ? `at depth ${depth}` : `with an unreadable ${DEPTH_VAR}=${JSON.stringify(raw)}`;
  return fail(
    "recursion_limit",
    `this orchestrate runs ${where} (maxDepth ${max}): it was itself started by a delegated agent and may not delegate again`,
    "do the work yourself instead of delegating; raise maxDepth in the config only if nested delegation is really intended",
    { depth: Number.isFinite(depth) ? depth : raw, maxDepth: max },
  );
}

/** The variables to add to a child's environment. */
export function childDepthEnv(env: Env): { ORCHESTRATE_DEPTH: string } {
  const depth = currentDepth(env);
  return { ORCHESTRATE_DEPTH: String(Number.isFinite(depth) ? depth + 1 : 9999) };
}
