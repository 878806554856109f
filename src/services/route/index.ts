/**
 * The route service: plan, then run attempts in order, falling back only on a fast clean failure
 * with a byte-identical tree; arm shared cooldowns; record the run and every attempt; return the
 * served-by, the full trace and the delegate's final (redacted) text.
 */
import type { AgentEvent, RunRequest } from "../../backends/contract.ts";
import type { AgentConfig, AgentLimits, Tier } from "../../config/types.ts";
import { planRoute, type Candidate, type Decision, type Plan } from "../../routing/plan.ts";
import { attemptCapSec } from "../../routing/budget.ts";
import { fallbackVerdict } from "../../routing/fallback.ts";
import { checkCwd } from "../../safety/roots.ts";
import { checkDepth } from "../../safety/depth.ts";
import type { Failure } from "../../result.ts";
import { callLimitProblem, costNotice, estimatorsFor, type Estimator } from "./cost.ts";
import { runAttempt, type AttemptResult } from "../../runner/attempt.ts";
import type { CostOf } from "../../runner/guards.ts";
import { failed, success, terminal, traceOf, type AttemptTrace, type RouteOutcome } from "./outcome.ts";
import { advisoryHint } from "./advisory.ts";
import { armCooldown, coolingByAgent, healAuthCooldowns, probeSaysSignedOut } from "../shared/cooling.ts";
import { exhaustedUntil, quotaByAgent, quotaObservations, recordQuota } from "../shared/quota.ts";
import { reportedModels } from "../../runner/side-channel.ts";
import { compareModel, served } from "../../config/model-id.ts";
import type { Runtime } from "../shared/runtime.ts";
import { storeLedger, storeReason, type StoreLedger } from "../shared/store-writes.ts";

export interface RouteRequest {
  prompt: string;
  cwd: string;
  tier: Tier;
  caps?: string[];
  timeoutSec?: number;
  /** Per-call limits; each applies on top of the agent's own (the stricter wins). */
  limits?: AgentLimits;
}

export type { AttemptTrace, RouteOutcome };

export interface RouteHooks {
  signal?: AbortSignal;
  /** "attempt n/N · tier:agent · what it is doing · remaining s" */
  onProgress?: (message: string) => void;
  /** The delegate's text as it streams (jobs keep it as partial output). */
  onOutput?: (text: string) => void;
  progressIntervalMs?: number;
}

export async function routeTask(rt: Runtime, req: RouteRequest, hooks: RouteHooks = {}): Promise<RouteOutcome> {
  const gate = admit(rt, req);
  if (!gate.ok) return { ok: false, attempts: [], error: gate.error };
  const planned = await planHealed(rt, req, hooks);
  if (!planned.ok)
    return {
      ok: false,
      attempts: [],
      error: {
        code: planned.error.code,
        message: planned.error.message,
        hint: "Run router_dry_run to see every decision, or `orchestrate check` to validate the config.",
      },
    };
  const estimators = await estimatorsFor(rt, planned.plan);
  const unenforceable = callLimitProblem(planned.plan, req.limits, estimators);
  if (unenforceable) return { ok: false, attempts: [], error: unenforceable };
  let runId: string;
  try {
    runId = rt.store.runs.startRun({ tool: "route", tier: req.tier, cwd: gate.cwd, prompt: req.prompt });
  } catch (error) {
    // Nothing was sent yet: refuse rather than run work the history could not hold.
    return {
      ok: false,
      attempts: [],
      error: { code: "store_unavailable", message: `The history store cannot be written (${storeReason(error)}); nothing was sent.` },
    };
  }
  const ledger = storeLedger(`route ${runId}`);
  const outcome = await runPlan(rt, { ...req, cwd: gate.cwd }, { plan: planned.plan, estimators }, runId, ledger, hooks);
  ledger.write(() => recordSkips(rt, runId, planned.plan, outcome));
  // The run's end is written when the store takes writes again: its row is never left running.
  ledger.write(() => finishRecord(rt, runId, outcome));
  const storeNotice = ledger.notice();
  const quota = quotaNotice(planned.plan, outcome.attempts);
  return { ...outcome, runId, ...(quota ? { quotaNotice: quota } : {}), ...(storeNotice ? { storeNotice } : {}) };
}

/**
 * What quota did to this route, in one sentence per entry: skipped before anything was sent, or
 * moved after the tier's other entries (and whether it was needed after all).
 */
function quotaNotice(plan: Plan, attempts: readonly AttemptTrace[]): string | undefined {
  const tried = new Set(attempts.map((a) => a.agent));
  const lines = plan.decisions.flatMap((d) => {
    if (!d.quota) return [];
    const who = `${d.tier}:${d.agentId}`;
    if (d.quota.effect === "skipped") return [`${who} was skipped before anything was sent (${d.quota.text})`];
    return [`${who} went after the tier's other entries (${d.quota.text})${tried.has(d.agentId) ? "" : " and was not needed"}`];
  });
  return lines.length > 0 ? `${lines.join("; ")}.` : undefined;
}

/**
 * The plan, after giving every entry it skipped for an auth cooldown one fresh sign-in probe: an
 * agent signed in again since is planned at once instead of waiting its cooldown out.
 */
async function planHealed(rt: Runtime, req: RouteRequest, hooks: RouteHooks): Promise<ReturnType<typeof planRoute>> {
  const plan = () =>
    planRoute(
      { tier: req.tier, caps: req.caps ?? [], ...(req.timeoutSec ? { timeoutSec: req.timeoutSec } : {}) },
      rt.config,
      coolingByAgent(rt, rt.now()),
      rt.now(),
      quotaByAgent(rt),
    );
  const first = plan();
  const decisions = first.ok ? first.plan.decisions : (first.decisions ?? []);
  const cooled = decisions.filter((d) => d.decision === "skip" && d.reason.startsWith("cooling down")).map((d) => d.agentId);
  if (cooled.length === 0) return first;
  const healed = await healAuthCooldowns(rt, cooled);
  for (const id of healed) hooks.onProgress?.(`${id}: signed in again; its auth cooldown was cleared`);
  return healed.length > 0 ? plan() : first;
}

function admit(rt: Runtime, req: RouteRequest): { ok: true; cwd: string } | { ok: false; error: Failure } {
  const depth = checkDepth(rt.env, rt.config.maxDepth);
  if (!depth.ok) return depth;
  const cwd = checkCwd(req.cwd, rt.roots);
  if (!cwd.ok) return cwd;
  return { ok: true, cwd: cwd.value };
}

interface PricedPlan {
  plan: Plan;
  estimators: ReadonlyMap<string, Estimator>;
}

async function runPlan(
  rt: Runtime,
  req: RouteRequest,
  { plan, estimators }: PricedPlan,
  runId: string,
  ledger: StoreLedger,
  hooks: RouteHooks,
): Promise<RouteOutcome> {
  const attempts: AttemptTrace[] = [];
  const deadline = rt.now() + plan.budget.totalSec * 1000;
  const total = plan.candidates.length;
  let crossing: string | undefined;
  for (const [index, candidate] of plan.candidates.entries()) {
    const n = index + 1;
    if (candidate.crossesProvider) crossing = crossingNotice(plan, candidate, n);
    if (candidate.agent.advisory) return advisoryOutcome(rt, runId, ledger, candidate, n, attempts);
    const remainingSec = Math.floor((deadline - rt.now()) / 1000);
    if (remainingSec <= 0)
      return terminal(attempts, { code: "budget_exceeded", message: "The route's time budget ran out before another attempt could start." }, crossing);
    const capSec = attemptCapSec(remainingSec, plan.budget.reserveSec, total - n, candidate.agent.limits.maxWallSec);
    const estimator = estimators.get(candidate.agent.id);
    const result = await runWithProgress(rt, req, candidate, { n, total, capSec, deadline, ...(estimator ? { costOf: estimator.costOf } : {}) }, hooks);
    // A run the runner re-ran on the same agent shows first, as it ended, neither fallen back nor cooled.
    for (const earlier of result.reran ?? []) {
      const trace = traceOf(attempts.length + 1, candidate, earlier);
      attempts.push(trace);
      ledger.write(() => recordAttempt(rt, runId, trace, earlier));
    }
    const trace = traceOf(attempts.length + 1, candidate, result);
    if (!result.failure) Object.assign(trace, servedIdentity(rt, candidate.agent, result));
    attempts.push(trace);
    const signedOut = result.failure === "auth" && (await probeSaysSignedOut(rt, candidate.agent, result.spawned));
    const quota = quotaObservations(result.events, rt.now());
    ledger.write(() => recordQuota(rt, candidate.agent, quota));
    ledger.write(() => armCooldown(rt, candidate.agent, result.failure, result.retryAfterSec, signedOut, exhaustedUntil(quota, rt.now())));
    const verdict = result.failure
      ? fallbackVerdict({
          failure: result.failure,
          durationMs: result.durationMs,
          treeBefore: result.treeBefore,
          treeAfter: result.treeAfter,
          acted: result.run.acted,
          spawned: result.spawned,
        })
      : undefined;
    trace.fellBack = verdict?.fallback === true && n < total;
    ledger.write(() => recordAttempt(rt, runId, trace, result));
    const notice = costNotice(withCallLimits(candidate.agent, req.limits), estimator, result.run.costEstimated === true);
    const withNotice = (outcome: RouteOutcome): RouteOutcome => (notice ? { ...outcome, costNotice: notice } : outcome);
    if (!result.failure) return withNotice(success(candidate, result, attempts, crossing));
    if (!trace.fellBack)
      return withNotice(failed(result, trace, attempts, crossing, verdict?.fallback ? "no more candidates" : (verdict?.reason ?? "terminal")));
  }
  return terminal(attempts, { code: "no_candidates", message: "No candidate could be tried." }, crossing);
}

/**
 * Which model served, as in consult: what the stream showed plus what the attempt read from the
 * backend's side channel (codex rollout, opencode export, …), checked against the configured
 * model. Only for a served attempt: a failed one's model decides nothing.
 */
function servedIdentity(rt: Runtime, agent: AgentConfig, result: AttemptResult): Pick<AttemptTrace, "modelVerification" | "modelsReported"> {
  const adapter = rt.adapters[agent.backend];
  const reported = reportedModels(result.run.models, result.side);
  return { modelVerification: compareModel(agent.model, reported, adapter.helperModel), modelsReported: served(reported, agent.model, adapter.helperModel) };
}

/** Which rule let the prompt go to another provider: the person's own first entry, or their consent. */
function crossingNotice(plan: Plan, candidate: Candidate, n: number): string {
  const where = `attempt ${n} went to ${candidate.agent.provider}${candidate.agent.aggregator ? " through an aggregator" : ""}`;
  const rule = candidate.consent === "home-entry" ? "it is the tier's own first entry" : "allowCrossProviderFallback is on";
  return `Served outside ${plan.homeProvider ?? "the tier's provider"}: ${where} (${rule}).`;
}

interface AttemptSlot {
  n: number;
  total: number;
  capSec: number;
  deadline: number;
  costOf?: CostOf;
}

async function runWithProgress(rt: Runtime, req: RouteRequest, candidate: Candidate, slot: AttemptSlot, hooks: RouteHooks): Promise<AttemptResult> {
  const label = `attempt ${slot.n}/${slot.total} · ${candidate.tier}:${candidate.agent.id}`;
  let activity = "starting";
  const started = rt.now();
  const say = () =>
    hooks.onProgress?.(
      `${label} · ${activity} · ${Math.round((rt.now() - started) / 1000)} s elapsed · ${Math.max(0, Math.round((slot.deadline - rt.now()) / 1000))} s remaining`,
    );
  say();
  hooks.onOutput?.(`· ${label}: starting\n`);
  const timer = hooks.onProgress ? setInterval(say, hooks.progressIntervalMs ?? 2000) : undefined;
  try {
    const agent = withCallLimits(candidate.agent, req.limits);
    // The runner completes the request: which build is installed, the user's MCP servers off.
    return await runAttempt({
      agent,
      adapter: rt.adapters[candidate.agent.backend],
      request: { mode: "route", prompt: req.prompt, cwd: req.cwd, ...permissionFields(candidate) },
      env: rt.env,
      maxDepth: rt.config.maxDepth,
      timeoutMs: slot.capSec * 1000,
      stallMs: (agent.limits.stallSec ?? rt.config.defaults.stallSec) * 1000,
      ...(hooks.signal ? { signal: hooks.signal } : {}),
      fingerprint: true,
      ...(slot.costOf ? { costOf: slot.costOf } : {}),
      onActivity: (text) => {
        // The activity log is part of the partial output: a killed run still shows how far it got.
        if (text !== activity) hooks.onOutput?.(`· ${text}\n`);
        activity = text;
      },
      ...(hooks.onOutput ? { onEvent: (event: AgentEvent) => event.kind === "text" && hooks.onOutput?.(`${event.text}\n`) } : {}),
    });
  } finally {
    if (timer) clearInterval(timer);
  }
}

/** The stricter of the agent's and the call's limit, per field. */
export function withCallLimits(agent: AgentConfig, call: AgentLimits | undefined): AgentConfig {
  if (!call) return agent;
  const limits: AgentLimits = { ...agent.limits };
  for (const key of Object.keys(call) as (keyof AgentLimits)[]) {
    const value = call[key];
    if (value === undefined) continue;
    const current = limits[key];
    limits[key] = current === undefined ? value : Math.min(current, value);
  }
  return { ...agent, limits };
}

function permissionFields(candidate: Candidate): Partial<RunRequest> {
  const a = candidate.agent;
  return {
    ...(a.model ? { model: a.model } : {}),
    provider: a.provider,
    options: a.options,
  };
}

function recordAttempt(rt: Runtime, runId: string, trace: AttemptTrace, result: AttemptResult): void {
  rt.store.runs.addAttempt({
    runId,
    n: trace.n,
    agentId: trace.agent,
    backend: trace.backend,
    ...(trace.model ? { model: trace.model } : {}),
    provider: trace.provider,
    outcome: result.failure ?? "ok",
    // The stored row keeps what the trace may not tell (the CLI's words for an unavailable class),
    // for the shell, history and the dashboard (services/shared/failure-words.ts).
    reason: trace.reason === "unavailable" && result.evidence ? result.evidence : trace.reason,
    exitCode: result.exitCode,
    durationMs: result.durationMs,
    ...(result.run.sessionId ? { sessionId: result.run.sessionId } : {}),
    usage: result.run.usage,
    ...(result.run.costEstimated ? { costEstimated: true } : {}),
    fellBack: trace.fellBack,
    ...(trace.modelVerification ? { modelVerification: trace.modelVerification } : {}),
    ...(trace.modelsReported ? { modelsReported: trace.modelsReported } : {}),
  });
}

/**
 * Entries the plan passed over, stored after the attempts as `skipped` rows (no call, no usage),
 * so the shell, history and the dashboard can say why: when a route failed, every entry skipped by
 * a rule (disabled, cooling, out of quota, would cross providers without consent); whatever the
 * outcome, every entry quota skipped or moved later that was not tried. Repeats of an agent
 * already planned are no rule.
 */
function recordSkips(rt: Runtime, runId: string, plan: Plan, outcome: RouteOutcome): void {
  const tried = new Set(outcome.attempts.map((a) => a.agent));
  const byRule = (d: Decision) => !outcome.ok && d.decision === "skip" && !d.reason.startsWith("already planned");
  const skips = plan.decisions.filter((d) => !tried.has(d.agentId) && (byRule(d) || d.quota !== undefined));
  for (const [i, d] of skips.entries()) {
    const agent = rt.config.agents[d.agentId];
    if (!agent) continue;
    const reason = d.quota?.effect === "deferred" ? `${d.quota.text}, so it went after the tier's other entries; not tried` : d.reason;
    rt.store.runs.addAttempt({
      runId,
      n: outcome.attempts.length + i + 1,
      agentId: d.agentId,
      backend: agent.backend,
      ...(agent.model ? { model: agent.model } : {}),
      provider: agent.provider,
      outcome: "skipped",
      reason: `${d.tier}: ${reason}`,
      exitCode: null,
      durationMs: 0,
      fellBack: false,
    });
  }
}

function advisoryOutcome(rt: Runtime, runId: string, ledger: StoreLedger, candidate: Candidate, n: number, attempts: AttemptTrace[]): RouteOutcome {
  const a = candidate.agent;
  const trace: AttemptTrace = {
    n,
    agent: a.id,
    tier: candidate.tier,
    backend: a.backend,
    ...(a.model ? { model: a.model } : {}),
    provider: a.provider,
    outcome: "advisory",
    reason: "advisory entry: nothing was sent",
    durationMs: 0,
    fellBack: false,
    treeChanged: null,
  };
  attempts.push(trace);
  ledger.write(() =>
    rt.store.runs.addAttempt({
      runId,
      n,
      agentId: a.id,
      backend: a.backend,
      provider: a.provider,
      outcome: "ok",
      reason: trace.reason,
      exitCode: null,
      durationMs: 0,
      fellBack: false,
    }),
  );
  const hint = advisoryHint(rt.adapters[a.backend], a);
  return {
    ok: true,
    servedBy: { agent: a.id, backend: a.backend, ...(a.model ? { model: a.model } : {}), tier: candidate.tier, provider: a.provider },
    text: hint,
    attempts,
    advisory: { hint },
  };
}

function finishRecord(rt: Runtime, runId: string, outcome: RouteOutcome): void {
  const cancelled = outcome.error?.code === "cancelled";
  const last = outcome.attempts.at(-1);
  rt.store.runs.finishRun(runId, {
    status: outcome.ok ? "ok" : cancelled ? "cancelled" : "failed",
    ...(outcome.servedBy ? { servedBy: outcome.servedBy.agent } : {}),
    ...(outcome.error ? { errorCode: outcome.error.code, errorMessage: outcome.error.message } : {}),
    ...(outcome.text ? { answer: outcome.text } : {}),
    treeChanged: last?.treeChanged ?? null,
  });
}
