/**
 * Model identity, compared as token runs: "gpt-5.1" ≠ "gpt-5.10"; a dated snapshot of the pinned
 * version matches ("claude-opus-4-6-20260101" is "claude-opus-4-6"); a bare alias ("opus") has no
 * version to disagree with. Pure.
 */

export type IdentityVerdict = "verified" | "mismatch" | "unverified";

/** Splits an id into lowercase runs of letters and of digits: "gpt-5.10-mini" → gpt 5 10 mini. */
export function tokenRuns(model: string): string[] {
  const base = model.toLowerCase().split("/").at(-1) ?? "";
  return base.match(/[a-z]+|\d+/g) ?? [];
}

export function hasVersion(model: string): boolean {
  return tokenRuns(model).some((t) => /^\d+$/.test(t) && !isDateToken(t));
}

/** A date-like run (20260101, or 2026 followed by month/day) marks a snapshot, not a version. */
function isDateToken(token: string): boolean {
  return /^(19|20)\d{6}$/.test(token);
}

function withoutSnapshot(tokens: string[]): string[] {
  const out = [...tokens];
  while (out.length > 0 && (isDateToken(out.at(-1) ?? "") || out.at(-1) === "latest")) out.pop();
  // "2026-01-01" style: three trailing numeric runs that look like y-m-d.
  const n = out.length;
  if (n >= 3 && /^(19|20)\d{2}$/.test(out[n - 3] ?? "") && /^\d{2}$/.test(out[n - 2] ?? "") && /^\d{2}$/.test(out[n - 1] ?? "")) out.splice(n - 3, 3);
  return out;
}

/**
 * Compares what the CLI reported with what was configured. Without a report the answer is
 * "unverified", never "verified". A configured id without a version cannot be contradicted by a
 * versioned report of the same family, so it is "unverified" too.
 */
export function compareModel(configured: string | undefined, reported: readonly string[], helper?: RegExp): IdentityVerdict {
  const seen = served(reported, configured, helper);
  if (!configured || seen.length === 0) return "unverified";
  const want = withoutSnapshot(tokenRuns(configured));
  if (!hasVersion(configured)) return seen.every((m) => sameFamily(want, tokenRuns(m))) ? "unverified" : "mismatch";
  // Every model that served must be the configured one: one match among others proves nothing.
  return seen.every((m) => sameRuns(want, withoutSnapshot(tokenRuns(m)))) ? "verified" : "mismatch";
}

/**
 * The models that count as having served: not the placeholder claude writes for local messages, and
 * not a chore model the backend names by rule (`helper`, e.g. a small title model) — unless that is
 * the configured model itself.
 */
export function served(reported: readonly string[], configured: string | undefined, helper?: RegExp): string[] {
  return reported.filter((m) => m && m !== "<synthetic>" && !(helper?.test(m) && !(configured && sameModel(m, configured))));
}

/**
 * One execution model, however it is spelled: a dated snapshot is the model it snapshots
 * ("claude-opus-5-20260101" is "claude-opus-5"), a provider prefix is not part of the name.
 */
export function sameModel(a: string, b: string): boolean {
  return sameRuns(withoutSnapshot(tokenRuns(a)), withoutSnapshot(tokenRuns(b)));
}

function sameRuns(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((t, i) => t === b[i]);
}

/** An alias "opus" belongs to "claude-opus-4-6"; "sonnet" does not. */
function sameFamily(alias: string[], reported: string[]): boolean {
  return alias.every((t) => reported.includes(t));
}
