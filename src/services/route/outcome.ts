/**
 * The shape of a route's answer: the public attempt trace (where auth vs capacity is never told) and
 * the outcome for success, a terminal failure and a plan that ran out, each with what to do next.
 */
import { UNAVAILABLE_CLASSES, type FailureClass } from "../../backends/contract.ts";
import type { Tier } from "../../config/types.ts";
import type { Candidate } from "../../routing/plan.ts";
import { redact } from "../../safety/redact.ts";
import { withExplanation } from "../shared/explain.ts";
import { shownUsage, type ShownUsage } from "../shared/price.ts";
import type { Failure, Settled } from "../../result.ts";
import type { ErrorCode } from "../../errors.ts";
import type { IdentityVerdict } from "../../config/model-id.ts";
import type { AttemptResult } from "../../runner/attempt.ts";
import type { Refusal } from "../../backends/fold.ts";
import { adapters, isBackend } from "../../backends/index.ts";

export interface AttemptTrace {
  n: number;
  agent: string;
  tier: Tier;
  backend: string;
  model?: string;
  provider: string;
  /** "ok", "unavailable" (never auth vs capacity), or the terminal class. */
  outcome: string;
  reason: string;
  durationMs: number;
  exitCode?: number | null;
  fellBack: boolean;
  treeChanged?: boolean | null;
  /** For the attempt that served: the configured model checked against what the CLI reported. */
  modelVerification?: IdentityVerdict;
  /** The models the CLI reported serving (its chore models left out). */
  modelsReported?: string[];
  /** Tool calls the CLI refused the delegate (its permission mode, allowlist or sandbox). */
  refusals?: { tool: string; detail?: string; message?: string }[];
}

/** A route's answer; `Settled` says whether it served (services/route/index.ts). */
export type RouteOutcome = RouteFields & Settled;

interface RouteFields {
  runId?: string;
  servedBy?: { agent: string; backend: string; model?: string; tier: Tier; provider: string; modelVerification?: IdentityVerdict; configuredModel?: string };
  /** Set when the model that served is not the configured one. */
  modelNotice?: string;
  /**
   * Set when the CLI refused some of the delegate's tool calls: the answer stands, but the work it
   * was asked for may not have been done (claude ends such a run `success`, exit 0).
   */
  refusalNotice?: string;
  /** Set when the history store failed after the work started: the answer stands, unrecorded. */
  storeNotice?: string;
  text?: string;
  attempts: AttemptTrace[];
  crossProviderNotice?: string;
  usage?: ShownUsage;
  /** The cost was estimated from a price (the CLI reports none): from where, and whether a maxCostUsd read it. */
  costNotice?: string;
  /** Set when an entry's quota changed the order: skipped as exhausted, or moved later at its warning state (docs/design.md, "Quota"). */
  quotaNotice?: string;
  sessionId?: string;
  advisory?: { hint: string };
}

export function traceOf(n: number, candidate: Candidate, result: AttemptResult): AttemptTrace {
  const a = candidate.agent;
  const changed = result.treeBefore !== undefined && result.treeAfter !== undefined ? result.treeBefore !== result.treeAfter : null;
  return {
    n,
    agent: a.id,
    tier: candidate.tier,
    backend: a.backend,
    ...(a.model ? { model: a.model } : {}),
    provider: a.provider,
    outcome: publicOutcome(result.failure),
    reason: redact(result.reason),
    durationMs: result.durationMs,
    exitCode: result.exitCode,
    fellBack: false,
    treeChanged: changed,
    ...(result.run.refusals.length > 0 ? { refusals: result.run.refusals.map(publicRefusal) } : {}),
  };
}

function publicRefusal(r: Refusal): { tool: string; detail?: string; message?: string } {
  return { tool: r.tool, ...(r.detail ? { detail: redact(r.detail).slice(0, 200) } : {}), ...(r.message ? { message: redact(r.message).slice(0, 300) } : {}) };
}

/**
 * What the host is told when the delegate was blocked. A refusal is no failure class: the run
 * ended by itself with an answer (often saying what it could not do) and nothing says the next
 * agent would be allowed more, so it neither falls back nor hides that answer — but it is not a
 * plain success either: the notice names each refused call and where the permission is set.
 */
function refusalNotice(agent: string, trace: AttemptTrace | undefined): string | undefined {
  const refused = trace?.refusals ?? [];
  if (refused.length === 0) return undefined;
  const calls = refused
    .slice(0, 5)
    .map((r) => (r.detail ? `${r.tool} (${r.detail})` : r.tool))
    .join("; ");
  const more = refused.length > 5 ? `; and ${refused.length - 5} more` : "";
  const tree = trace?.treeChanged === false ? " The working tree is unchanged." : "";
  return `${agent}'s CLI refused ${refused.length} tool call${refused.length === 1 ? "" : "s"}, so the task may not be done: ${calls}${more}.${tree} ${wherePermissionsLive(trace?.backend)}`;
}

/** Where an agent's permissions are set: its backend's own config keys, when it has any. */
function wherePermissionsLive(backend: string | undefined): string {
  const keys = backend !== undefined && isBackend(backend) ? Object.keys(adapters[backend].options ?? {}) : [];
  return keys.length > 0 ? `Its permissions are the agent's ${keys.join("/")} in the config.` : "Its permissions are its CLI's own settings.";
}

/** Auth vs capacity is not disclosed: it would leak per-provider credential health. */
export function publicOutcome(failure: FailureClass | undefined): string {
  if (!failure) return "ok";
  return UNAVAILABLE_CLASSES.includes(failure) ? "unavailable" : failure;
}

export function success(candidate: Candidate, result: AttemptResult, attempts: AttemptTrace[], crossing: string | undefined): RouteOutcome {
  const a = candidate.agent;
  const trace = attempts.at(-1);
  // A mismatch is never shown as the configured model: servedBy names what the CLI said served.
  const mismatch = trace?.modelVerification === "mismatch";
  const model = mismatch ? trace?.modelsReported?.join(", ") : a.model;
  const refused = refusalNotice(a.id, trace);
  return {
    ok: true,
    servedBy: {
      agent: a.id,
      backend: a.backend,
      ...(model ? { model } : {}),
      tier: candidate.tier,
      provider: a.provider,
      ...(trace?.modelVerification ? { modelVerification: trace.modelVerification } : {}),
      ...(mismatch && a.model ? { configuredModel: a.model } : {}),
    },
    ...(mismatch
      ? {
          modelNotice: `${a.id} is configured for ${a.model ?? "?"} but ${a.backend} reported ${trace?.modelsReported?.join(", ") ?? "?"}: the work was done by that model.`,
        }
      : {}),
    ...(refused ? { refusalNotice: refused } : {}),
    text: redact(result.run.text),
    attempts,
    ...(crossing ? { crossProviderNotice: crossing } : {}),
    usage: shownUsage(result.run),
    ...(result.run.sessionId ? { sessionId: result.run.sessionId } : {}),
  };
}

/** A terminal attempt's class as the route's error code: auth vs capacity is never told (they read "unavailable"). */
const ROUTE_CODES: Record<FailureClass, ErrorCode> = {
  not_installed: "unavailable",
  auth: "unavailable",
  capacity: "unavailable",
  transport: "unavailable",
  timeout: "timeout",
  budget: "budget_exceeded",
  stalled: "stalled",
  cancelled: "cancelled",
  task_failed: "task_failed",
  empty_answer: "empty_answer",
  tree_changed: "tree_changed",
  bad_output: "bad_output",
  // Refused before spawning, so never a fallback: the next CLI would get the same prompt.
  prompt_too_large: "prompt_too_large",
  recursion_limit: "recursion_limit",
};

export function failed(result: AttemptResult, trace: AttemptTrace, attempts: AttemptTrace[], crossing: string | undefined, why: string): RouteOutcome {
  const failure = result.failure ?? "task_failed";
  const code = ROUTE_CODES[failure];
  const partial = result.run.text ? redact(result.run.text) : undefined;
  return {
    ok: false,
    attempts,
    ...(crossing ? { crossProviderNotice: crossing } : {}),
    usage: shownUsage(result.run),
    ...(result.run.sessionId ? { sessionId: result.run.sessionId } : {}),
    ...(partial ? { text: partial } : {}),
    error: {
      code,
      message: `Attempt ${trace.n} (${trace.tier}:${trace.agent}) ended ${trace.outcome}: ${trace.reason}. No fallback: ${why}.`,
      hint: withExplanation(hintFor(failure, trace), result.explanation),
    },
  };
}

/**
 * A failed route's message for a person at a terminal: the class in words where the MCP reply says
 * only "unavailable" (the words come from services/shared/failure-words.ts, off the stored row).
 */
export function personMessage(message: string, words: string): string {
  return message.replace("ended unavailable: unavailable.", `ended: ${words}.`);
}

/** The backend's own words (gemini: "this account tier moved to agy") come first: they say what the class cannot. */
function hintFor(failure: FailureClass, trace: AttemptTrace): string {
  if (trace.treeChanged) return "The working tree was changed by the attempt; review it (git status / git diff) before retrying.";
  if (failure === "timeout" || failure === "stalled") return "Retry with a larger timeoutSec, or use background: true and job_wait for long tasks.";
  if (failure === "prompt_too_large")
    return "Shorten the prompt (put long material in a file in the repository and name it), or route to a tier whose agents read their prompt from stdin.";
  if (UNAVAILABLE_CLASSES.includes(failure)) return "Run `orchestrate check` to see which CLIs are installed and signed in.";
  return "Read the attempt trace; the delegate's partial output, if any, is in text.";
}

export function terminal(attempts: AttemptTrace[], error: Failure, crossing: string | undefined): RouteOutcome {
  return { ok: false, attempts, ...(crossing ? { crossProviderNotice: crossing } : {}), error };
}
