/**
 * Serving one ask: the requested capability's deployments, then its fallbacks', all inside one
 * request budget. Each deployment in rotation gets one try; `retries` adds further tries of those
 * that failed in a way that may pass (capacity, a server error, the network), each after a backoff
 * that honours the provider's retry-after. A deployment whose key, address or request is wrong,
 * or that hung, leaves the rotation. Every failure cools the deployment down for every process.
 * A reply that is not an answer (truncated, filtered, a tool call, empty) ends the request: the
 * model answered, and asking another would spend more to hide what happened.
 */
import type { Json } from "@exodus/schemasafe";
import type { NonAnswer } from "../../backends/http/classify.ts";
import type { FinishReason } from "../../backends/http/types.ts";
import type { AskCapability, AskDeployment } from "../../config/types.ts";
import { atRateLimit, backoffMs, legTimeoutMs, orderDeployments, roomForLeg } from "../../routing/ask-plan.ts";
import type { Runtime } from "../shared/runtime.ts";
import { coolDown, coolingUntil } from "./cooling.ts";
import { quotaSpent, recordDeploymentQuota } from "./quota.ts";
import type { UsageTally } from "./envelope.ts";
import { legEntry, type LegEntry } from "./trail.ts";
import { loadOf, startLeg } from "./load.ts";
import { runLeg, type LegResult } from "./leg.ts";
import { ABSTAIN_TOKEN, repairTurn, type Conversation } from "./prompt.ts";
import type { CheckedRequest } from "./request.ts";
import { describeComplaints, isAbstention, parseStructured } from "./structured.ts";

export type Served =
  | { kind: "answer"; deployment: AskDeployment; fallback: boolean; text: string; data: Json | null; abstained: boolean }
  | {
      kind: "final";
      code: "output_truncated" | "content_filtered" | "upstream_error" | "schema_validation_failed" | "cancelled";
      message: string;
      deployment?: AskDeployment;
      fallback: boolean;
    }
  | { kind: "exhausted"; budget: boolean };

export interface LastFailure {
  deployment: AskDeployment;
  capability: string;
  failure: Extract<LegResult, { kind: "failed" }>["failure"];
  detail: string;
}

/** Everything one request carries from leg to leg. */
export interface AskRun {
  rt: Runtime;
  request: CheckedRequest;
  deadline: number;
  signal: AbortSignal;
  secrets: string[];
  usage: UsageTally;
  repairsLeft: number;
  legs: number;
  /** Every leg as the history stores it, in order. */
  trail: LegEntry[];
  /** The deployment a request would be served by if nothing failed: anything else is fallback_used. */
  intended?: AskDeployment | undefined;
  last?: LastFailure;
  /** The last finish reason any provider sent (the envelope carries it on failures too). */
  finish: FinishReason | null;
  /** When the earliest cooling deployment comes back, if every one was cooling. */
  coolingEnds?: number;
  /** Deployments skipped before sending because their quota is exhausted: `capability/id: quota_exhausted: …`. */
  quotaSkipped: string[];
  /** A deployment said the prompt does not fit its context window. */
  contextExceeded?: boolean;
  random: () => number;
  onProgress?: (message: string) => void;
}

export async function serve(run: AskRun): Promise<Served> {
  const requested = run.request.capability;
  const first = await serveCapability(run, requested, false);
  if (first) return first;
  // A prompt too long for the requested models goes to its context-window fallbacks (LiteLLM's
  // context_window_fallbacks) when it names any; every other failure to its ordinary fallbacks.
  const next = run.contextExceeded && requested.contextFallbacks.length > 0 ? requested.contextFallbacks : requested.fallbacks;
  for (const capability of next.flatMap((name) => run.rt.config.ask.capabilities[name] ?? [])) {
    if (!roomForLeg(run.deadline - run.rt.now())) return { kind: "exhausted", budget: true };
    const served = await serveCapability(run, capability, true);
    if (served) return served;
  }
  return { kind: "exhausted", budget: !roomForLeg(run.deadline - run.rt.now()) };
}

/** undefined = every deployment of this capability failed or was cooling: try the next capability. */
async function serveCapability(run: AskRun, capability: AskCapability, isFallback: boolean): Promise<Served | undefined> {
  const load = loadOf(run.rt, capability.deployments);
  const ordered = orderDeployments(capability.deployments, capability.strategy, run.random, load);
  if (!isFallback) run.intended = ordered[0];
  const cooling = coolingUntil(run.rt, ordered, run.rt.now());
  // Out of quota until its reset: skipped like a cooling one, and the reply says until when.
  for (const [d, spent] of quotaSpent(run.rt, ordered, run.rt.now())) {
    cooling.set(d, Math.max(cooling.get(d) ?? 0, spent.until));
    run.quotaSkipped.push(`${capability.name}/${d.id}: ${spent.why}`);
    run.onProgress?.(`${capability.name}: ${d.id} skipped, ${spent.why}`);
  }
  // At its rpm/tpm this minute: skipped like a cooling one, back within the minute.
  for (const d of ordered) if (!cooling.has(d) && atRateLimit(d, load(d))) cooling.set(d, run.rt.now() + 60_000);
  const queue = ordered.filter((d) => !cooling.has(d));
  if (queue.length === 0) {
    const ends = Math.min(...cooling.values());
    run.coolingEnds = run.coolingEnds === undefined ? ends : Math.min(run.coolingEnds, ends);
    return undefined;
  }
  const failures = new Map<AskDeployment, { count: number; at: number; retryAfterMs?: number }>();
  let retries = run.rt.config.ask.retries;
  // A deployment's own max_retries replaces the shared pool for it.
  const retriesOf = (d: AskDeployment, count: number) => (d.maxRetries !== undefined ? d.maxRetries - (count - 1) : retries);
  for (let d = queue.shift(); d !== undefined; d = queue.shift()) {
    const before = failures.get(d);
    if (before && !(await waitToRetry(run, before))) return undefined;
    if (!roomForLeg(run.deadline - run.rt.now())) return undefined;
    const outcome = await serveOn(run, capability, d, isFallback || d !== run.intended, before?.count ?? 0);
    if (outcome.kind !== "failed") return outcome.served;
    const { result } = outcome;
    run.last = { deployment: d, capability: capability.name, failure: result.failure, detail: result.detail };
    if (result.failure === "context_window") run.contextExceeded = true;
    if (!result.unsent) coolDown(run.rt, d, result.failure, result.retryAfterMs);
    failures.set(d, { count: (before?.count ?? 0) + 1, at: run.rt.now(), ...(result.retryAfterMs !== undefined ? { retryAfterMs: result.retryAfterMs } : {}) });
    // Worth another try only if it may pass, and only if its wait fits in what is left.
    const waitMs = backoffMs((before?.count ?? 0) + 1, result.retryAfterMs);
    const count = (before?.count ?? 0) + 1;
    if (!result.leaves && retriesOf(d, count) > 0 && roomForLeg(run.deadline - run.rt.now(), waitMs)) {
      if (d.maxRetries === undefined) retries--;
      queue.push(d);
    }
  }
  return undefined;
}

/** Sleeps out the backoff still due since the deployment's last failure; false when cancelled or out of budget. */
async function waitToRetry(run: AskRun, last: { count: number; at: number; retryAfterMs?: number }): Promise<boolean> {
  const due = last.at + backoffMs(last.count, last.retryAfterMs) - run.rt.now();
  if (due <= 0) return true;
  if (!roomForLeg(run.deadline - run.rt.now(), due)) return false;
  return sleep(due, run.signal);
}

function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(value);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

type OnDeployment = { kind: "served"; served: Served } | { kind: "failed"; result: Extract<LegResult, { kind: "failed" }> };

/** Legs on one deployment: the first, then repair turns while a structured reply fails its schema. */
async function serveOn(run: AskRun, capability: AskCapability, d: AskDeployment, fallback: boolean, retry: number): Promise<OnDeployment> {
  let conversation: Conversation = run.request.conversation;
  for (;;) {
    run.legs += 1;
    run.onProgress?.(`${capability.name}: ${d.id} (leg ${run.legs})`);
    const began = run.rt.now();
    const done = startLeg(d);
    const leg = await runLeg({
      deployment: d,
      conversation,
      maxOutputTokens: run.request.maxOutputTokens,
      timeoutMs: legTimeoutMs(run.deadline - run.rt.now()),
      signal: run.signal,
      env: run.rt.env,
      now: run.rt.now,
      secrets: run.secrets,
    }).finally(done);
    run.usage.add(leg.usage, leg.costUsd);
    recordDeploymentQuota(run.rt, d, leg.quota);
    const result = leg.result;
    const entry = legEntry({ capability: capability.name, deployment: d, leg, began, ended: run.rt.now(), retry });
    run.trail.push(entry);
    if (result.kind !== "cancelled" && result.finish) run.finish = result.finish;
    if (result.kind === "cancelled") return served({ kind: "final", code: "cancelled", message: "The call was cancelled.", deployment: d, fallback });
    if (result.kind === "failed") return { kind: "failed", result };
    if (result.kind === "non_answer")
      return served({ kind: "final", code: nonAnswerCode(result.why), message: nonAnswerMessage(d, result.why, result.native), deployment: d, fallback });
    const read = readAnswer(run, result.text);
    if (read.kind === "invalid") Object.assign(entry, { outcome: "rejected", errorCode: "schema_validation_failed" });
    if (read.kind === "ok") return served({ kind: "answer", deployment: d, fallback, text: result.text, data: read.data, abstained: read.abstained });
    if (run.repairsLeft <= 0 || !roomForLeg(run.deadline - run.rt.now())) {
      return served({
        kind: "final",
        code: "schema_validation_failed",
        message: `The reply from ${d.id} did not satisfy response_schema${run.request.schema && read.forCaller ? `: ${read.forCaller}` : ""}.`,
        deployment: d,
        fallback,
      });
    }
    run.repairsLeft -= 1;
    conversation = repairTurn(conversation, result.text, read.forModel);
  }
}

function served(value: Served): OnDeployment {
  return { kind: "served", served: value };
}

type Read = { kind: "ok"; data: Json | null; abstained: boolean } | { kind: "invalid"; forModel: string; forCaller: string };

/** A prose answer, or a structured one that parses and satisfies the schema; abstention either way. */
function readAnswer(run: AskRun, text: string): Read {
  const { schema, withContext } = run.request;
  if (!schema) return { kind: "ok", data: null, abstained: withContext && text.trim() === ABSTAIN_TOKEN };
  const parsed = parseStructured(text);
  if (!parsed.ok) return { kind: "invalid", forModel: `it is not valid JSON (${parsed.forModel})`, forCaller: "the reply was not valid JSON" };
  if (withContext && isAbstention(parsed.value)) return { kind: "ok", data: null, abstained: true };
  const complaints = schema.check(parsed.value);
  if (!complaints) return { kind: "ok", data: parsed.value, abstained: false };
  const described = describeComplaints(complaints);
  return { kind: "invalid", forModel: described, forCaller: described };
}

/**
 * Seed 002's codes for a reply that is not an answer: a cut or filtered one has its own; a stop
 * to call a tool, an unspecified finish and an empty completion are all upstream_error there
 * (orchestrator-mcp's server.py _REFUSED_FINISH and _completion_of), so they are here too.
 */
function nonAnswerCode(why: NonAnswer): "output_truncated" | "content_filtered" | "upstream_error" {
  return why === "output_truncated" || why === "content_filtered" ? why : "upstream_error";
}

function nonAnswerMessage(d: AskDeployment, why: string, native: string): string {
  const reason = native ? ` (finish reason ${JSON.stringify(native.slice(0, 40))})` : "";
  switch (why) {
    case "output_truncated":
      return `The reply from ${d.id} was cut off at the token limit${reason}; nothing of it is returned.`;
    case "content_filtered":
      return `${d.id} filtered the reply${reason}; nothing of it is returned.`;
    case "empty_answer":
      return `${d.id} finished without any text.`;
    default:
      return `${d.id} stopped for something other than an answer${reason}; nothing of it is returned.`;
  }
}
