/**
 * What a review is about, exactly as planned: goal, mode, context, reviewers and the material as
 * the caller gave it. The store keeps only redacted copies, yet a run may send the material as is
 * (`secrets: send_as_is`), so the raw scope is held here, in this server process's memory, from the
 * plan until the review ends — bounded, oldest first out. File excerpts are re-read at run time and
 * the snapshot compared, so a file edited after the plan is refused rather than sent.
 */
import { createHash } from "node:crypto";
import type { Result } from "../../result.ts";
import { fail, ok } from "../../result.ts";
import type { ReviewMode } from "../../store/reviews.ts";
import { readMaterial, type MaterialInput, type MaterialItem } from "./material.ts";
import { forgetAtServerEnd } from "../../lifetime.ts";

export interface ReviewScope {
  goal: string;
  mode: ReviewMode;
  context?: string;
  web: boolean;
  /** The reviewers granted the web (answer/web.ts), decided at plan time and bound into the token. */
  webReviewers?: string[];
  reviewers: { id: string; backend: string; model: string | null }[];
  material: MaterialInput[];
}

export interface ResolvedScope {
  scope: ReviewScope;
  items: MaterialItem[];
  /** The canonical text a token is bound to: the scope with the material as read now. */
  snapshot: string;
}

const MAX_HELD = 32;
const MAX_HELD_CHARS = 32 * 1024 * 1024;

const held = new Map<string, { scope: ReviewScope; sha256: string; chars: number }>();
forgetAtServerEnd(() => held.clear());

export function snapshotOf(scope: ReviewScope, items: readonly MaterialItem[]): string {
  const { goal, mode, context, web, webReviewers, reviewers } = scope;
  const material = items.map((m) => ({ label: m.label, path: m.path ?? null, first: m.firstLine ?? null, last: m.lastLine ?? null, text: m.text }));
  return JSON.stringify({ goal, mode, context: context ?? null, web, ...(webReviewers?.length ? { webReviewers } : {}), reviewers, material });
}

export function hold(id: string, resolved: ResolvedScope): void {
  held.set(id, { scope: resolved.scope, sha256: sha256(resolved.snapshot), chars: resolved.snapshot.length });
  let total = [...held.values()].reduce((n, h) => n + h.chars, 0);
  for (const [key, entry] of held) {
    if (held.size <= MAX_HELD && total <= MAX_HELD_CHARS) break;
    held.delete(key);
    total -= entry.chars;
  }
}

export function release(id: string): void {
  held.delete(id);
}

/**
 * `plan_unavailable` when this process does not hold the plan. Every server shares the store, so
 * any of them can spend a token; only the one that planned can check it against the material.
 */
export function heldHere(id: string): Result<true> {
  return held.has(id)
    ? ok(true)
    : fail(
        "plan_unavailable",
        `Review ${id}'s material is not held by this server process (it was planned by another process, before a restart, or it was evicted). The review and its token are untouched: run it from the client whose server planned it, or call review again.`,
      );
}

/**
 * The scope as planned, its material read again now; `plan_changed` when what would be sent is not
 * what was planned, `plan_unavailable` when this process does not hold the plan.
 */
export function resolveHeld(id: string, roots: readonly string[]): Result<ResolvedScope> {
  const entry = held.get(id);
  if (!entry)
    return fail(
      "plan_unavailable",
      `Review ${id}'s material is not held by this server process (it was planned by another process, before a restart, or it was evicted).`,
    );
  const items = readMaterial(entry.scope.material, roots);
  if (!items.ok) return fail("plan_changed", `Review ${id}'s material can no longer be read as planned: ${items.error.message}`);
  const snapshot = snapshotOf(entry.scope, items.value);
  if (sha256(snapshot) !== entry.sha256)
    return fail("plan_changed", `Review ${id}'s material changed after it was planned (a file excerpt differs from what the plan showed); nothing was sent.`);
  return ok({ scope: entry.scope, items: items.value, snapshot });
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
