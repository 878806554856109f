/**
 * One answer-only CLI run for a consultation and the strict reading of it: acting fails closed,
 * a CLI failure is the answer (with the command to fix it), a model other than the configured one
 * is `configured_model_unavailable`, and the content must validate — after at most one repair turn
 * on the same native session.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentEvent, FailureClass, RunRequest, Usage } from "../../backends/contract.ts";
import { drivenFacts } from "../../backends/driven.ts";
import type { AgentConfig } from "../../config/types.ts";
import { compareModel, type IdentityVerdict } from "../../config/model-id.ts";
import { redact } from "../../safety/redact.ts";
import type { Failure } from "../../result.ts";
import type { ErrorCode } from "../../errors.ts";
import { runAttempt, type AttemptResult } from "../../runner/attempt.ts";
import { withExplanation } from "../shared/explain.ts";
import type { AnswerContract } from "./envelope.ts";
import { reportedModels } from "../../runner/side-channel.ts";
import type { AnswerTraits } from "./cli-variant.ts";
import type { Runtime } from "../shared/runtime.ts";
import { costIsEstimated, unenforceableLimits } from "../../config/resolve-agent.ts";
import { withEstimatedCost, type CostOf } from "../../runner/guards.ts";
import { costEstimator } from "../shared/price.ts";

export interface TurnSpec<C> {
  agent: AgentConfig;
  /** What the reply must be: consult's envelope, a review's findings. */
  contract: AnswerContract<C>;
  /** What the installed CLI can do (resume; which build), read once per binary. */
  traits: AnswerTraits;
  prompt: string;
  resumeSessionId?: string;
  /** The consultation's scratch cwd: same path on every turn (claude keys sessions by cwd). */
  cwd: string;
  deadline: number;
  signal?: AbortSignal;
  onActivity?: (text: string) => void;
  /**
   * Web access granted (web.ts): the CLI is offered its own web tools, and nothing else that acts,
   * for at most `turnLimit` web calls. Absent: a web call fails the turn closed like any action.
   */
  web?: { turnLimit: number };
}

export interface TurnOutcome<C> {
  content?: C;
  error?: Failure;
  /** The last run's reply text: what an unreadable reply said, for the record. */
  text: string;
  sessionId?: string;
  models: string[];
  verification: IdentityVerdict;
  usage: Usage;
  /** usage.costUsd was estimated from the model's price: the CLI reports tokens but no cost (docs/cost.md). */
  costEstimated?: boolean;
  repaired: boolean;
  /** Why the runner ran the same agent once more (its backend's capacity re-run), one entry per re-run. */
  reruns: string[];
  /** The web calls the CLI reported (queries searched, URLs fetched), in order: the answer's evidence. */
  webCalls: WebCall[];
}

interface RunView {
  attempt: AttemptResult;
  models: string[];
  usage: Usage;
  costEstimated: boolean;
}

type Judgement<C> = { content: C } | { error: Failure } | { repair: true };

export async function consultTurn<C>(rt: Runtime, spec: TurnSpec<C>): Promise<TurnOutcome<C>> {
  // Only a CLI that reports tokens but no cost loads a price (the catalog is imported lazily).
  const costOf = costIsEstimated(spec.agent) ? await costEstimator(rt.config, spec.agent.model, spec.agent.provider) : undefined;
  const limit = spec.agent.limits.maxCostUsd;
  const unpriced = limit !== undefined && costIsEstimated(spec.agent) && !costOf ? unenforceableLimits(spec.agent, { maxCostUsd: limit }, false) : [];
  if (unpriced[0]) return unenforceable(spec.agent, unpriced[0]);
  const first = await runAnswer(rt, spec, spec.prompt, spec.resumeSessionId, costOf);
  const sessionId = first.attempt.run.sessionId ?? spec.resumeSessionId;
  const verdict = judge(spec, rt, first);
  if (!("repair" in verdict)) return outcome(rt, spec.agent, [first], verdict, sessionId, false);
  if (!sessionId || !spec.traits.supportsResume) return outcome(rt, spec.agent, [first], { error: badOutput(spec.agent, false) }, sessionId, false);
  const second = await runAnswer(rt, spec, spec.contract.repairPrompt(), sessionId, costOf);
  const again = judge(spec, rt, second);
  const final = "repair" in again ? { error: badOutput(spec.agent, true) } : again;
  return outcome(rt, spec.agent, [first, second], final, second.attempt.run.sessionId ?? sessionId, true);
}

/** The agent's own maxCostUsd on a CLI that reports no cost, with no price to estimate it from: nothing is sent. */
function unenforceable<C>(agent: AgentConfig, problem: { message: string; fix: string }): TurnOutcome<C> {
  return {
    error: { code: "limit_unenforceable", message: `Nothing was sent: ${agent.id}: ${problem.message}.`, hint: problem.fix },
    text: "",
    models: [],
    verification: "unverified",
    usage: {},
    repaired: false,
    reruns: [],
    webCalls: [],
  };
}

async function runAnswer<C>(rt: Runtime, spec: TurnSpec<C>, prompt: string, resumeSessionId: string | undefined, costOf: CostOf | undefined): Promise<RunView> {
  const env = { ...rt.env, ...spec.agent.env };
  const adapter = rt.adapters[spec.agent.backend];
  const home = mkdtempSync(join(tmpdir(), "orchestrate-home-"));
  try {
    const schemaPath = join(home, "envelope.schema.json");
    writeFileSync(schemaPath, spec.contract.schemaText, { mode: 0o600 });
    // The runner completes the request (installed build, MCP isolation); attempt.request is what ran.
    const request: RunRequest = {
      mode: "answer",
      prompt,
      cwd: spec.cwd,
      ...(spec.agent.model ? { model: spec.agent.model } : {}),
      provider: spec.agent.provider,
      ...(resumeSessionId ? { resumeSessionId } : {}),
      outputSchemaPath: schemaPath,
      outputSchema: spec.contract.schemaText,
      isolatedHome: home,
      ...(spec.web ? { web: true } : {}),
    };
    freshDir(spec.cwd);
    const attempt = await runAttempt({
      agent: spec.agent,
      adapter,
      request,
      env: rt.env,
      maxDepth: rt.config.maxDepth,
      timeoutMs: Math.max(1000, spec.deadline - rt.now()),
      ...(spec.agent.limits.stallSec ? { stallMs: spec.agent.limits.stallSec * 1000 } : {}),
      ...(spec.signal ? { signal: spec.signal } : {}),
      fingerprint: false,
      ...(spec.onActivity ? { onActivity: spec.onActivity } : {}),
      ...(spec.web ? { webTurnLimit: spec.web.turnLimit } : {}),
      ...(costOf ? { costOf } : {}),
      sideChannel: "spawned",
    });
    const side = attempt.side;
    // Priced again once the side channel has added its tokens (copilot reports them only there).
    const { costUsd: _runEstimate, ...tokens } = attempt.run.usage;
    const reported = attempt.run.costEstimated ? { ...tokens, ...side.usage } : { ...attempt.run.usage, ...side.usage };
    const estimated = withEstimatedCost(reported, costOf);
    return {
      attempt,
      models: reportedModels(servedModels(spec.agent, attempt.events), side),
      usage: estimated ?? reported,
      costEstimated: estimated !== undefined,
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Models that served, from the stream; echoes of the requested model (claude init) are no evidence. */
export function servedModels(_agent: AgentConfig, events: readonly AgentEvent[]): string[] {
  return events.flatMap((e) => (e.kind === "model" && !e.requested ? [e.model] : []));
}

/** Empty before every turn: whatever an earlier turn left must not become evidence. */
export function freshDir(dir: string): void {
  // rmSync does not follow a symlink planted at the path; it removes the link itself.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { mode: 0o700 });
}

function judge<C>(spec: TurnSpec<C>, rt: Runtime, view: RunView): Judgement<C> {
  const { attempt } = view;
  const { agent } = spec;
  if (attempt.run.acted) return { error: actionAttempted(agent) };
  const web = webCallsOf(attempt.events);
  if (web.length > 0 && !spec.web) return { error: webNotGranted(agent, web) };
  if (spec.web && web.length > spec.web.turnLimit) return { error: webTurnsSpent(agent, spec.web.turnLimit) };
  if (attempt.failure === "empty_answer") return { repair: true };
  if (attempt.failure) return { error: failureError(agent, rt, attempt) };
  if (compareModel(agent.model, view.models, rt.adapters[agent.backend].helperModel) === "mismatch") return { error: modelMismatch(agent, view.models) };
  const content = spec.contract.read(attempt.run.structured ?? attempt.run.final?.structured, attempt.run.text);
  return content ? { content } : { repair: true };
}

function outcome<C>(
  rt: Runtime,
  agent: AgentConfig,
  views: RunView[],
  judged: Exclude<Judgement<C>, { repair: true }>,
  sessionId: string | undefined,
  repaired: boolean,
): TurnOutcome<C> {
  const models = unique(views.flatMap((v) => v.models));
  return {
    ...("content" in judged ? { content: judged.content } : { error: judged.error }),
    text: views.at(-1)?.attempt.run.text ?? "",
    ...(sessionId ? { sessionId } : {}),
    models,
    verification: verdictOf(compareModel(agent.model, models, rt.adapters[agent.backend].helperModel), "error" in judged),
    usage: combineUsage(
      drivenFacts(rt.adapters[agent.backend], agent.transport).traits.resumedUsage,
      views.map((v) => v.usage),
    ),
    ...(views.some((v) => v.costEstimated) ? { costEstimated: true } : {}),
    repaired,
    reruns: views.flatMap((v) => (v.attempt.reran ?? []).map((r) => r.reason)),
    webCalls: views.flatMap((v) => webCallsOf(v.attempt.events)),
  };
}

/**
 * A failed turn verifies nothing: where the model comes from a side channel (codex's rollout records
 * the model it was asked for) a run that died on "model does not exist" would otherwise read as
 * verified. A mismatch stays a mismatch — that is evidence either way.
 */
function verdictOf(verdict: IdentityVerdict, failed: boolean): IdentityVerdict {
  return failed && verdict === "verified" ? "unverified" : verdict;
}

export interface WebCall {
  kind: "search" | "fetch";
  /** The query searched or the URL fetched, as the CLI reported it (absent when it named neither). */
  what?: string;
}

/** One entry per web call the CLI started (codex restates a search at its end: starts only). */
export function webCallsOf(events: readonly AgentEvent[]): WebCall[] {
  return events.flatMap((e) => (e.kind === "tool" && e.web && e.phase === "start" ? [{ kind: e.web, ...(e.detail ? { what: e.detail } : {}) }] : []));
}

/** A CLI reporting cumulative totals on a resumed thread (codex) already holds both turns in its later report. */
function combineUsage(resumed: "cumulative" | "per-turn", usages: Usage[]): Usage {
  if (resumed === "cumulative") return usages.reduce((acc, u) => ({ ...acc, ...u }), {} as Usage);
  const out: Usage = {};
  for (const u of usages) {
    for (const [key, value] of Object.entries(u) as [keyof Usage, number | undefined][]) {
      if (value !== undefined) out[key] = (out[key] ?? 0) + value;
    }
  }
  return out;
}

function unique(items: string[]): string[] {
  return [...new Set(items.filter((m) => m !== ""))];
}

// ---- failures ----

function actionAttempted(agent: AgentConfig): Failure {
  return {
    code: "action_attempted",
    message: `${agent.id} (${agent.backend}) tried to run a tool that can change state during an answer-only consultation; the turn was failed closed and its answer discarded.`,
    hint: "Nothing it produced is returned. Ask again, or consult a different agent with agent:.",
  };
}

function webNotGranted(agent: AgentConfig, calls: WebCall[]): Failure {
  return {
    code: "action_attempted",
    message: `${agent.id} (${agent.backend}) used a web tool (${calls[0]?.kind ?? "search"}) in a consultation without web access; the turn was failed closed and its answer discarded.`,
    hint: "Ask with source_mode web, for an agent the config trusts with the web (capabilities: [web_search]).",
  };
}

function webTurnsSpent(agent: AgentConfig, limit: number): Failure {
  return {
    code: "budget_exceeded",
    message: `${agent.id} (${agent.backend}) went past the web turn limit (${limit} web calls); the run was ended and no partial answer is returned.`,
    hint: "Ask a narrower question, or raise consult.webTurnLimit (web_turn_limit in an Orchestrator MCP config).",
  };
}

function modelMismatch(agent: AgentConfig, reported: string[]): Failure {
  return {
    code: "configured_model_unavailable",
    message: `${agent.id} is configured for model ${agent.model ?? "?"} but ${agent.backend} reported ${reported.join(", ")}; the answer was withheld.`,
    hint: `Check that your ${agent.backend} account can use ${agent.model ?? "that model"}, or change the agent's model in the config.`,
    details: { configured: agent.model, reported },
  };
}

function badOutput(agent: AgentConfig, afterRepair: boolean): Failure {
  const why = afterRepair ? "even after one repair turn" : "and its session cannot be resumed for a repair turn";
  return {
    code: "bad_output",
    message: `${agent.id} (${agent.backend}) did not reply with the required JSON answer ${why}.`,
    hint: "Ask again, perhaps more narrowly, or consult a different agent.",
  };
}

const CODES: Partial<Record<FailureClass, ErrorCode>> = {
  not_installed: "not_installed",
  auth: "auth_required",
  capacity: "rate_limited",
  transport: "transport_error",
  timeout: "timeout",
  stalled: "timeout",
  cancelled: "cancelled",
  budget: "budget_exceeded",
  bad_output: "bad_output",
  prompt_too_large: "prompt_too_large",
  recursion_limit: "recursion_limit",
};

/** No fallback: the failure is the answer, with what the person should do about it (the backend's own words first). */
function failureError(agent: AgentConfig, rt: Runtime, attempt: AttemptResult): Failure {
  const error = classError(agent, rt, attempt);
  return error.hint ? { ...error, hint: withExplanation(error.hint, attempt.explanation) } : error;
}

function classError(agent: AgentConfig, rt: Runtime, attempt: AttemptResult): Failure {
  const failure = attempt.failure as FailureClass;
  const code = CODES[failure] ?? "agent_failed";
  const who = `${agent.id} (${agent.backend})`;
  const login = rt.adapters[agent.backend].probes.loginHint;
  const detail = redact(attempt.reason);
  switch (failure) {
    case "auth":
      return { code, message: `${who} is not signed in, or its credentials were refused.`, hint: `Run \`${login}\` in a terminal, then ask again.` };
    case "not_installed":
      return {
        code,
        message: `${who}: ${detail}.`,
        hint: `Install the ${agent.backend} CLI (or set command: for ${agent.id}); \`orchestrate check\` shows what was found.`,
      };
    case "capacity":
      return {
        code,
        message: `${who} is rate-limited or its provider is over capacity.`,
        hint: "Retry later, or ask another agent with agent:. consult never falls back on its own.",
      };
    case "transport":
      return { code, message: `${who} could not reach its provider.`, hint: `Check the network; if it persists run \`${login}\` to confirm the sign-in.` };
    case "timeout":
    case "stalled":
      return {
        code,
        message: `${who} did not answer in time (${detail}).`,
        hint: "Ask a narrower question, or raise consult.timeoutSec / the agent's limits.maxWallSec.",
      };
    case "prompt_too_large":
      return {
        code,
        message: `${who}: ${detail}. Nothing was sent.`,
        hint: "Shorten the question, or consult an agent whose CLI reads its prompt from stdin (agent:).",
      };
    default:
      return { code, message: `${who} failed: ${detail}.`, hint: "Read the message above; `orchestrate check` validates the CLI and its flags." };
  }
}
