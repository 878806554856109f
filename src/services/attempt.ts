/**
 * One attempt: resolve the CLI, fingerprint the tree, run the child in its own process group while
 * parsing its stream, then classify how it ended. Knows nothing about fallback; route.ts decides.
 */
import { resolve } from "node:path";
import type { Adapter, AgentEvent, FailureClass, RunRequest } from "../adapters/types.ts";
import { EventFolder, foldEvents, type FoldedRun } from "../adapters/fold.ts";
import { EventLog } from "./event-log.ts";
import type { AgentConfig } from "../config/types.ts";
import { runProcess, type ProcessResult } from "../process/spawn.ts";
import { childEnv } from "../process/env.ts";
import { resolveCommand } from "../process/resolve.ts";
import { fingerprintTree } from "../git/fingerprint.ts";
import { describeEvent, describeUsage } from "./activity.ts";
import { readinessOf } from "./readiness.ts";
import { redact } from "../safety/redact.ts";

export interface AttemptSpec {
  agent: AgentConfig;
  adapter: Adapter;
  request: RunRequest;
  env: Record<string, string | undefined>;
  timeoutMs: number;
  stallMs?: number;
  signal?: AbortSignal;
  /** Fingerprint the cwd before and after (route mode). */
  fingerprint: boolean;
  onActivity?: (text: string) => void;
  onEvent?: (event: AgentEvent) => void;
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
  treeBefore?: string;
  treeAfter?: string;
  stderrTail: string;
}

const FINGERPRINT_TIMEOUT_MS = 20_000;

export async function runAttempt(spec: AttemptSpec): Promise<AttemptResult> {
  const started = Date.now();
  const command = resolveCommand(spec.agent.command ?? spec.agent.backend, { env: spec.env });
  if (!command) return notInstalled(spec, started);
  if (spec.adapter.preflight && (await readinessOf(spec.adapter, command.path, { ...spec.env, ...spec.agent.env })) === "not_ready") return notReady(spec, started, command.path);
  const ignore = (spec.adapter.stateFiles?.(spec.request) ?? []).map((f) => resolve(spec.request.cwd, f));
  const before = spec.fingerprint ? await treeState(spec.request.cwd, ignore) : undefined;
  const log = new EventLog();
  const folder = new EventFolder();
  const guard = new AbortController();
  // Sticky: a run whose streamed usage crossed a limit is never a success, even if it exited first.
  let overLimit = false;
  // A CLI that says it will retry forever (codex offline) is ended now, as the transport failure it is.
  let hopeless = false;
  const signal = spec.signal ? AbortSignal.any([spec.signal, guard.signal]) : guard.signal;
  const invocation = spec.adapter.invocation(spec.request);
  const result = await runProcess({
    command: command.path,
    args: invocation.args,
    cwd: spec.request.cwd,
    env: childEnv({ ...spec.env, ...spec.agent.env }, invocation.env ?? {}),
    ...(invocation.stdin !== undefined ? { stdin: invocation.stdin } : {}),
    timeoutMs: spec.timeoutMs,
    ...(spec.stallMs ? { stallMs: spec.stallMs } : {}),
    signal,
    onLine: (line) => {
      for (const event of spec.adapter.parse(line)) {
        log.push(event);
        folder.push(event);
        spec.onEvent?.(event);
        const text = event.kind === "usage" ? describeUsage(event.usage) : describeEvent(event);
        if (text) spec.onActivity?.(text);
        if (event.kind === "retry" && event.hopeless && !hopeless) {
          hopeless = true;
          guard.abort("cancelled");
        }
        if (event.kind === "usage" && overBudget(spec.agent, folder.result().usage)) {
          overLimit = true;
          guard.abort("budget_exceeded");
        }
      }
    },
  });
  const after = spec.fingerprint && before ? await treeState(spec.request.cwd, ignore, before.top) : undefined;
  const run = folder.result();
  const events = log.events;
  const { failure, reason } = overLimit
    ? { failure: "budget" as const, reason: budgetReason(spec.agent, run) }
    : hopeless && !spec.signal?.aborted
      ? { failure: "transport" as const, reason: "unavailable" }
      : classifyAttempt(spec.adapter, result, events, run);
  return {
    ...(failure ? { failure } : {}),
    reason,
    run,
    events,
    exitCode: result.exitCode,
    durationMs: Date.now() - started,
    spawned: result.endReason !== "spawn_failed",
    commandPath: command.path,
    ...(before !== undefined ? { treeBefore: before.value } : {}),
    ...(after !== undefined ? { treeAfter: after.value } : {}),
    stderrTail: result.stderrTail,
  };
}

function notInstalled(spec: AttemptSpec, started: number): AttemptResult {
  const name = spec.agent.command ?? spec.agent.backend;
  return {
    failure: "not_installed",
    reason: `${name} was not found on PATH or in the usual install locations`,
    run: foldEvents([]),
    events: [],
    exitCode: null,
    durationMs: Date.now() - started,
    spawned: false,
    stderrTail: "",
  };
}

/** Signed out, found before launch: a fast, clean auth failure (the trace still says only "unavailable"). */
function notReady(spec: AttemptSpec, started: number, commandPath: string): AttemptResult {
  return {
    failure: "auth",
    // Never "not signed in" in a trace: it would leak per-provider credential health.
    reason: "unavailable",
    run: foldEvents([]),
    events: [],
    exitCode: null,
    durationMs: Date.now() - started,
    spawned: false,
    commandPath,
    stderrTail: "",
  };
}

async function treeState(cwd: string, ignorePaths: string[], top?: string): Promise<{ value: string; top: string } | undefined> {
  const fp = await fingerprintTree(cwd, { timeoutMs: FINGERPRINT_TIMEOUT_MS, ignorePaths, ...(top ? { top } : {}) });
  return fp.ok ? { value: fp.value, top: fp.top } : undefined;
}

/** How the process ended decides first; only a normal exit is left to the adapter's reading. */
function classifyAttempt(adapter: Adapter, result: ProcessResult, events: AgentEvent[], run: FoldedRun): { failure?: FailureClass; reason: string } {
  switch (result.endReason) {
    case "timeout":
      return { failure: "timeout", reason: "timed out; the process group was ended" };
    case "stalled":
      return { failure: "stalled", reason: "no output for the stall limit; the process group was ended" };
    case "cancelled":
    case "shutdown":
      return { failure: "cancelled", reason: result.endReason === "shutdown" ? "the server shut down" : "cancelled by the client" };
    case "budget_exceeded":
      return { failure: "budget", reason: "token/cost/turn budget exceeded; the process group was ended" };
    case "spawn_failed":
      return { failure: "not_installed", reason: `could not start the CLI (${result.spawnError ?? "spawn failed"})` };
    default:
      break;
  }
  const failure = adapter.classify({ exitCode: result.exitCode, signal: result.signal, events, stderrTail: result.stderrTail, rawStdoutTail: result.rawStdoutTail });
  if (!failure) return { reason: "answered" };
  return { failure, reason: failureReason(failure, run, result) };
}

function failureReason(failure: FailureClass, run: FoldedRun, result: ProcessResult): string {
  if (failure === "auth" || failure === "capacity" || failure === "transport") return "unavailable";
  const detail = run.final?.message ?? run.errors.at(-1) ?? lastLine(result.stderrTail);
  const exit = result.exitCode !== null ? `exit ${result.exitCode}` : `signal ${result.signal ?? "?"}`;
  // Redact before cutting: a secret split by the cut would no longer match the scrubber.
  return detail ? `${failure} (${exit}): ${redact(detail).slice(0, 300)}` : `${failure} (${exit})`;
}

function lastLine(text: string): string | undefined {
  return text.trim().split("\n").at(-1)?.trim() || undefined;
}

function budgetReason(agent: AgentConfig, run: FoldedRun): string {
  const { maxTokens, maxCostUsd, maxTurns } = agent.limits;
  const used = `${(run.usage.inputTokens ?? 0) + (run.usage.outputTokens ?? 0)} tokens${run.usage.costUsd !== undefined ? `, $${run.usage.costUsd.toFixed(4)}` : ""}${run.usage.turns !== undefined ? `, ${run.usage.turns} turns` : ""}`;
  const limits = [maxTokens !== undefined ? `${maxTokens} tokens` : "", maxCostUsd !== undefined ? `$${maxCostUsd}` : "", maxTurns !== undefined ? `${maxTurns} turns` : ""].filter(Boolean).join(", ");
  return `budget exceeded (used ${used}; limit ${limits}); the process group was ended`;
}

function overBudget(agent: AgentConfig, usage: { inputTokens?: number; outputTokens?: number; costUsd?: number; turns?: number }): boolean {
  const { maxTokens, maxCostUsd, maxTurns } = agent.limits;
  const tokens = (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
  if (maxTokens !== undefined && tokens > maxTokens) return true;
  if (maxCostUsd !== undefined && (usage.costUsd ?? 0) > maxCostUsd) return true;
  return maxTurns !== undefined && (usage.turns ?? 0) > maxTurns;
}
