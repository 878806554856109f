/**
 * What `orchestrate run` tells the person on stderr: the route's trace read back from the stored
 * run, where each failed attempt keeps its class (not signed in, rate-limited, provider error 503,
 * …) and the one thing to run about it, and where every entry skipped by a rule is listed with the
 * rule. The MCP reply keeps the coarse "unavailable" (services/route/outcome.ts); this is the shell's.
 */
import { adapters, isBackend } from "../backends/index.ts";
import type { AttemptRecord, RunRecord } from "../store/runs.ts";
import { attemptWords, wordsLine, type FailureWords } from "../services/shared/failure-words.ts";
import { personMessage, type RouteOutcome } from "../services/route/outcome.ts";

export function wordsOf(a: Pick<AttemptRecord, "outcome" | "reason" | "backend">): FailureWords {
  return attemptWords(a.outcome, a.reason, isBackend(a.backend) ? adapters[a.backend] : undefined);
}

/** The trace lines, in place of the public ones, and the skipped entries after them. */
export function personTrace(outcome: RouteOutcome, record: RunRecord | undefined): string[] {
  if (!record) return [];
  const tried = record.attempts.filter((a) => a.outcome !== "skipped");
  const skipped = record.attempts.filter((a) => a.outcome === "skipped");
  const lines = tried.map((a) => {
    const trace = outcome.attempts.find((t) => t.n === a.n);
    const secs = (a.durationMs / 1000).toFixed(1);
    const tier = trace ? `${trace.tier}:` : "";
    // An attempt that fell back needs nothing done about it now: its class, without the fix.
    const words = wordsOf(a);
    const tail = a.outcome === "ok" ? "" : ` · ${wordsLine(a.fellBack ? withoutFix(words) : words)}`;
    return `  ${a.n}. ${tier}${a.agentId} (${a.backend}) — ${a.outcome === "ok" ? "answered" : "failed"} in ${secs} s${trace?.treeChanged ? " · tree changed" : ""}${a.fellBack ? " → fell back" : ""}${tail}`;
  });
  if (skipped.length > 0) lines.push("Skipped:", ...skipped.map((a) => `  - ${a.agentId} (${a.backend}) — ${a.reason}`));
  return lines;
}

/** The error as a person reads it: the class in words, and its fix as the next step. */
export function personError(outcome: RouteOutcome, record: RunRecord | undefined): { message: string; hint?: string } | undefined {
  const error = outcome.error;
  if (!error) return undefined;
  const last = outcome.attempts.at(-1);
  const row = last ? record?.attempts.find((a) => a.n === last.n) : undefined;
  if (!last || !row || row.outcome === "ok" || row.outcome === "skipped") return { message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
  const words = wordsOf(row);
  const hint = words.fix ?? error.hint;
  return { message: personMessage(error.message, words.words), ...(hint ? { hint } : {}) };
}

function withoutFix({ fix: _fix, ...words }: FailureWords): FailureWords {
  return words;
}
