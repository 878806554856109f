/**
 * One attempt: prepare (find the delegate, check it can answer, complete the request, fingerprint
 * the tree) → stream (run it through its transport, parse, fold, guards) → classify (pure). Knows
 * nothing about fallback; the route service decides.
 */
import type { Adapter, AgentEvent, Env, ExitOutcome, FailureClass, RunRequest, SideReport } from "../backends/contract.ts";
import { drivenFacts } from "../backends/driven.ts";
import { foldEvents, type FoldedRun } from "../backends/fold.ts";
import type { AgentConfig } from "../config/types.ts";
import { checkDepth } from "../safety/depth.ts";
import { classifyAttempt } from "./classify.ts";
import { attemptGuards, withEstimatedCost, type CostOf } from "./guards.ts";
import { prepareAttempt, type PrepareOutcome } from "./prepare.ts";
import { quotaFromFile } from "./quota-file.ts";
import { pause, rerunDelayMs, rerunReason } from "./rerun.ts";
import { sideChannelReport } from "./side-channel.ts";
import { streamAttempt } from "./stream.ts";
import { treeState } from "./tree.ts";
import { acpTransport } from "./transports/acp.ts";
import { cliTransport } from "./transports/cli.ts";
import type { Speaker, Transport } from "./transports/types.ts";

export interface AttemptSpec {
  agent: AgentConfig;
  adapter: Adapter;
  request: RunRequest;
  env: Env;
  /**
   * The recursion limit (config maxDepth). Required, and checked here before anything starts, so no
   * caller — route, consult, review, workflow step, smoke — can delegate past it (docs/design.md).
   */
  maxDepth: number;
  timeoutMs: number;
  stallMs?: number;
  signal?: AbortSignal;
  /** Fingerprint the cwd before and after (route mode). */
  fingerprint: boolean;
  /** How the delegate is reached. Default: the agent's own (ACP for `transport: acp`, else its CLI). */
  transport?: Transport;
  onActivity?: (text: string) => void;
  onEvent?: (event: AgentEvent) => void;
  /** Web mode: how many web tool calls the run may start (guards.ts webTurnGuard). */
  webTurnLimit?: number;
  /** The model's price, for a CLI that reports tokens but no cost: the run's cost is then estimated from it. */
  costOf?: CostOf;
  /**
   * When to read the backend's side channel (which model served, usage it reports only there):
   * after a served run (default: a failed run's model decides nothing), or after any run that
   * spawned (an answer turn keeps copilot's tokens of a failed turn too), or never (a caller that
   * reports no model).
   */
  sideChannel?: "served" | "spawned" | "never";
}

export interface AttemptResult {
  /** undefined = success. */
  failure?: FailureClass;
  reason: string;
  run: FoldedRun;
  events: AgentEvent[];
  exitCode: number | null;
  durationMs: number;
  spawned: boolean;
  commandPath?: string;
  treeBefore?: string | undefined;
  treeAfter?: string | undefined;
  stderrTail: string;
  /** The request as it ran, completed by the runner (budget) and the transport (installed build, MCP isolation): for side channels. */
  request: RunRequest;
  /** What the backend's side channel said (runner/side-channel.ts); empty when it was not read. */
  side: SideReport;
  /** The backend's words for what a failure's class alone does not say; services add it to their message or hint. */
  explanation?: string;
  /** An unavailable failure's own words from the CLI (redacted), for person-facing surfaces only (see Classified). */
  evidence?: string;
  /** A capacity failure's provider-announced wait, in seconds: the agent cools down at least that long. */
  retryAfterSec?: number;
  /**
   * The earlier run of the same agent that this one re-ran (the backend's capacityRerun), as it
   * ended: a trace shows it before this one. The tree fingerprints then span both runs.
   */
  reran?: AttemptResult[];
}

/** One attempt on one agent: a run, and one re-run where the backend asks for it after a capacity failure. */
export async function runAttempt(spec: AttemptSpec): Promise<AttemptResult> {
  const first = await runOnce(spec);
  const delayMs = rerunDelayMs({
    traits: drivenFacts(spec.adapter, spec.agent.transport).traits,
    first,
    fingerprinted: spec.fingerprint,
    timeoutMs: spec.timeoutMs,
    callerAborted: spec.signal?.aborted === true,
  });
  if (delayMs === undefined || !(await pause(delayMs, spec.signal))) return first;
  const second = await runOnce({ ...spec, timeoutMs: spec.timeoutMs - first.durationMs - delayMs });
  return { ...second, ...(first.treeBefore !== undefined ? { treeBefore: first.treeBefore } : {}), reran: [{ ...first, reason: rerunReason(first) }] };
}

async function runOnce(spec: AttemptSpec): Promise<AttemptResult> {
  const started = Date.now();
  const depth = checkDepth(spec.env, spec.maxDepth);
  if (!depth.ok) return refused(spec, { ok: false, failure: "recursion_limit", reason: depth.error.message }, started);
  const prepared = await prepareAttempt(spec, spec.transport ?? (spec.agent.transport === "acp" ? acpTransport : cliTransport));
  if (!prepared.ok) return refused(spec, prepared, started);
  const { channel, request, ignorePaths, before, speaks } = prepared.value;
  // Over ACP the stream is the transport's records, not the backend's headless output.
  const reader: Speaker = speaks ?? spec.adapter;
  const parseStderr = speaks ? undefined : spec.adapter.parseStderr;
  const streamed = await streamAttempt({
    channel,
    parse: (line) => reader.parse(line),
    ...(parseStderr ? { parseStderr: (line: string) => parseStderr(line) } : {}),
    guards: attemptGuards(spec.agent.limits, undefined, spec.webTurnLimit, spec.costOf),
    timeoutMs: spec.timeoutMs,
    ...(spec.stallMs ? { stallMs: spec.stallMs } : {}),
    ...(spec.signal ? { signal: spec.signal } : {}),
    ...(spec.onActivity ? { onActivity: spec.onActivity } : {}),
    ...(spec.onEvent ? { onEvent: spec.onEvent } : {}),
  });
  const { end, trip } = streamed;
  const events = [...streamed.events, ...writtenQuota(spec, started, end.endReason !== "spawn_failed")];
  const estimated = withEstimatedCost(streamed.run.usage, spec.costOf);
  const run: FoldedRun = estimated ? { ...streamed.run, usage: estimated, costEstimated: true } : streamed.run;
  const adapter = reader;
  const { failure, reason, explanation, evidence } = classifyAttempt({
    end,
    events,
    run,
    trip,
    callerAborted: spec.signal?.aborted === true,
    limits: spec.agent.limits,
    classify: (outcome) => adapter.classify(outcome),
    ...(adapter.explain ? { explain: (outcome: ExitOutcome) => adapter.explain?.(outcome) } : {}),
  });
  // After the run, the tree's second fingerprint and the side channel (often a second spawn of
  // the CLI) are independent reads: done together, the slower one is the whole wait.
  const spawned = end.endReason !== "spawn_failed";
  const when = spec.sideChannel ?? "served";
  const readSide = spawned && when !== "never" && (when === "spawned" || !failure);
  const [after, side] = await Promise.all([
    before ? treeState(request.cwd, ignorePaths, before.repo) : undefined,
    readSide ? sideOf(spec, request, run.sessionId ?? request.resumeSessionId) : NO_SIDE,
  ]);
  const retryAfterSec = failure === "capacity" ? retryAfterOf(events) : undefined;
  return {
    ...(failure ? { failure } : {}),
    reason,
    ...(explanation ? { explanation } : {}),
    ...(evidence ? { evidence } : {}),
    ...(retryAfterSec !== undefined ? { retryAfterSec } : {}),
    run,
    events,
    exitCode: end.exitCode,
    durationMs: Date.now() - started,
    spawned,
    commandPath: channel.target,
    ...(before !== undefined ? { treeBefore: before.value } : {}),
    ...(after !== undefined ? { treeAfter: after.value } : {}),
    stderrTail: end.stderrTail,
    request,
    side,
  };
}

const NO_SIDE: SideReport = { models: [] };

function sideOf(spec: AttemptSpec, request: RunRequest, sessionId: string | undefined): Promise<SideReport> {
  return sideChannelReport({
    adapter: spec.adapter,
    command: spec.agent.command ?? spec.agent.backend,
    env: { ...spec.env, ...spec.agent.env },
    request,
    sessionId,
  });
}

/**
 * The quota windows the CLI wrote beside its stream during this run (codex's rollout), as quota
 * events after the streamed ones. A second of slack: file times come from a coarser clock.
 */
function writtenQuota(spec: AttemptSpec, started: number, spawned: boolean): AgentEvent[] {
  const file = spec.adapter.quotaFile;
  return file && spawned ? quotaFromFile(file, { ...spec.env, ...spec.agent.env }, started - 1000) : [];
}

/** The wait the last capacity retry announced, if it named one. */
function retryAfterOf(events: readonly AgentEvent[]): number | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event?.kind === "retry" && event.failure === "capacity") return event.retryAfterSec;
  }
  return undefined;
}

/** Refused before anything started (not installed, a build that cannot be driven, signed out). */
function refused(spec: AttemptSpec, why: Extract<PrepareOutcome, { ok: false }>, started: number): AttemptResult {
  return {
    failure: why.failure,
    reason: why.reason,
    run: foldEvents([]),
    events: [],
    exitCode: null,
    durationMs: Date.now() - started,
    spawned: false,
    ...(why.target ? { commandPath: why.target } : {}),
    stderrTail: "",
    request: spec.request,
    side: NO_SIDE,
  };
}
