/**
 * A failed attempt in words a person can act on, with the one command that fixes it — for the
 * shell, `orchestrate history show` and the dashboard. Never for an MCP reply: there auth and
 * capacity both read "unavailable" (services/route/outcome.ts publicOutcome), as the tier-routing
 * design promises model clients. The stored attempt row keeps the class, so every person-facing
 * view can say it. Each backend declares its own sign-in command (its probes.loginHint), so
 * nothing here names a backend.
 */
import { UNAVAILABLE_CLASSES, type Adapter, type FailureClass } from "../../backends/contract.ts";
import type { AttemptOutcome } from "../../store/runs.ts";

export interface FailureWords {
  /** "not signed in", "rate-limited", "provider error 503", "timed out", "not installed", … */
  words: string;
  /** The CLI's own words, when it gave some (redacted, clipped). */
  detail?: string;
  /** What to run or change, when there is one thing to do. */
  fix?: string;
}

/** An HTTP status as the CLIs word it: "status: 429", "status 503 Service Unavailable", "API Error: 529", "HTTP 500". */
const STATUS =
  /\b(?:status|http|error|code)\b[\s:=]*([45]\d\d)\b|\b([45]\d\d)\s+(?:too many requests|internal server error|bad gateway|service unavailable|gateway timeout)/i;
const RATE_LIMIT = /rate.?limit|too many requests|quota|usage limit|resource.?exhausted/i;

export function httpStatusIn(text: string | undefined): number | undefined {
  const m = text ? STATUS.exec(text) : null;
  const digits = m?.[1] ?? m?.[2];
  return digits ? Number(digits) : undefined;
}

/** The class of a failure, read with the CLI's own words for it (the stored reason or the runner's evidence). */
export function failureWords(failure: FailureClass, evidence: string | undefined, adapter: Pick<Adapter, "probes"> | undefined): FailureWords {
  switch (failure) {
    case "auth":
      return { words: "not signed in", ...(adapter ? { fix: adapter.probes.loginHint } : {}) };
    case "capacity":
      return capacityWords(evidence);
    case "transport":
      return { words: "could not reach its provider (network)", fix: "check the network or the provider's base URL; the agent is cooling until then" };
    case "not_installed":
      return { words: "not installed", fix: "install the CLI or set command: for the agent; `orchestrate check` shows where it looked" };
    case "timeout":
      return { words: "timed out", fix: "give it more time: --timeout SECONDS (up to 3600)" };
    case "stalled":
      return { words: "stalled (no output for the stall limit)", fix: "raise the agent's limits.stallSec, or retry" };
    case "budget":
      return { words: "over its token/cost/turn budget" };
    case "cancelled":
      return { words: "cancelled" };
    case "tree_changed":
      return { words: "changed the working tree and failed", fix: "review it with git status / git diff before retrying" };
    case "prompt_too_large":
      return { words: "prompt too large for this CLI's command line", fix: "shorten it, or route to a tier whose agents read stdin" };
    default:
      return { words: failure.replace(/_/g, " ") };
  }
}

/** A 5xx is the provider's own error, a 429 a rate limit: neither gets sign-in advice. */
function capacityWords(evidence: string | undefined): FailureWords {
  const status = httpStatusIn(evidence);
  const fix = "wait for the cooldown (`orchestrate cooldowns`), or route to another tier";
  if (status === 429 || (status === undefined && RATE_LIMIT.test(evidence ?? ""))) return { words: "rate-limited", fix };
  if (status !== undefined && status >= 500) return { words: `provider error ${status}`, fix };
  return { words: "rate-limited or over capacity", fix };
}

/**
 * A stored attempt, for a person: an unavailable class in words with the CLI's own after them (the
 * row keeps them; rows written before it did say "unavailable" and are read from the class alone);
 * any other class by its stored reason, which already says what happened.
 */
export function attemptWords(outcome: AttemptOutcome, reason: string, adapter: Pick<Adapter, "probes"> | undefined): FailureWords {
  if (outcome === "ok") return { words: "answered" };
  if (outcome === "skipped") return { words: `skipped: ${reason}` };
  const evidence = reason === "unavailable" || reason === "" ? undefined : reason;
  const worded = failureWords(outcome, evidence, adapter);
  if (!UNAVAILABLE_CLASSES.includes(outcome)) return { ...worded, words: evidence ?? worded.words };
  return evidence ? { ...worded, detail: evidence.length > 160 ? `${evidence.slice(0, 159)}…` : evidence } : worded;
}

/** One line: "provider error 503 (the CLI's words) · fix: …". */
export function wordsLine(w: FailureWords): string {
  return `${w.words}${w.detail ? ` (${w.detail})` : ""}${w.fix ? ` · fix: ${w.fix}` : ""}`;
}
