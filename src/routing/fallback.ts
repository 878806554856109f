/**
 * Whether a failed attempt may hand over to the next candidate. Only a fast, clean failure
 * qualifies: the backend never got to work (not installed, auth at launch, immediate
 * rate-limit/overload, transport), nothing that acts ran, and the cwd's git tree is byte-identical
 * before and after. Everything else is terminal and returned as-is. Pure.
 */
import { UNAVAILABLE_CLASSES, type FailureClass } from "../backends/contract.ts";

/** A failure slower than this is not "immediate": the delegate may have been working. */
export const FAST_FAILURE_MS = 30_000;

export interface AttemptFacts {
  failure: FailureClass;
  durationMs: number;
  /** Fingerprints before and after; undefined when the cwd is not a git work tree. */
  treeBefore?: string | undefined;
  treeAfter?: string | undefined;
  /** The delegate reported running something that acts (shell, edit, MCP tool). */
  acted: boolean;
  /** The attempt never spawned the agent (missing binary, failed readiness probe). */
  spawned: boolean;
}

export type FallbackVerdict = { fallback: true; reason: string } | { fallback: false; reason: string };

export function fallbackVerdict(facts: AttemptFacts): FallbackVerdict {
  if (!UNAVAILABLE_CLASSES.includes(facts.failure)) return { fallback: false, reason: `${facts.failure} is terminal` };
  if (!facts.spawned) return { fallback: true, reason: "unavailable before launch" };
  if (facts.durationMs > FAST_FAILURE_MS) return { fallback: false, reason: `failed after ${Math.round(facts.durationMs / 1000)} s, not a fast failure` };
  if (facts.acted) return { fallback: false, reason: "the delegate ran a tool that can change state" };
  if (facts.treeBefore === undefined || facts.treeAfter === undefined)
    return { fallback: false, reason: "cwd is not a git work tree, so an unchanged tree cannot be proven" };
  if (facts.treeBefore !== facts.treeAfter) return { fallback: false, reason: "the working tree changed" };
  return { fallback: true, reason: "fast clean failure, tree unchanged" };
}
