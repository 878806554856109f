/**
 * `orchestrate smoke`: one tiny answer-only prompt per configured agent, through the same turn a
 * consultation runs (answer-only sandbox, the CLI's own sign-in, the model check), so a pass means
 * a consult or a route to that agent would reach it. Nothing is stored: a check is not history.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Usage } from "../../backends/contract.ts";
import type { AgentConfig } from "../../config/types.ts";
import type { IdentityVerdict } from "../../config/model-id.ts";
import type { Failure } from "../../result.ts";
import type { ErrorCode } from "../../errors.ts";
import { answerTraits } from "../answer/cli-variant.ts";
import { consultTurn } from "../answer/turn.ts";
import { buildConsultPrompt, CONSULT_CONTRACT } from "../answer/envelope.ts";
import type { Runtime } from "../shared/runtime.ts";

export const SMOKE_PROMPT = "This is a connectivity check. Reply with the single word: pong.";

export interface SmokeResult {
  agent: string;
  backend: string;
  model?: string;
  /** The CLI started, signed in and answered (even if the answer was then refused). */
  reachable: boolean;
  verification: IdentityVerdict | "skipped";
  modelsReported: string[];
  latencyMs: number;
  usage: Usage;
  /** usage.costUsd was estimated from the model's price: the CLI reports tokens but no cost (docs/cost.md). */
  costEstimated?: boolean;
  /** The answer's text when it came back clean. */
  answer?: string;
  error?: Failure;
  /** Why the agent was not asked at all (advisory, disabled). */
  skipped?: string;
}

export interface SmokeOptions {
  agents?: string[];
  timeoutSec?: number;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
}

/** Errors that still prove the CLI ran and talked to its provider. */
const ANSWERED: ReadonlySet<ErrorCode> = new Set<ErrorCode>(["configured_model_unavailable", "bad_output", "action_attempted"]);

export function smokeTargets(rt: Runtime, only?: string[]): { agents: AgentConfig[]; unknown: string[] } {
  const all = Object.values(rt.config.agents);
  if (!only?.length) return { agents: all, unknown: [] };
  return { agents: all.filter((a) => only.includes(a.id)), unknown: only.filter((id) => !rt.config.agents[id]) };
}

export async function smokeAgents(rt: Runtime, opts: SmokeOptions = {}): Promise<SmokeResult[]> {
  const { agents } = smokeTargets(rt, opts.agents);
  return Promise.all(agents.map((agent) => smokeOne(rt, agent, opts)));
}

function skipped(agent: AgentConfig, why: string): SmokeResult {
  return {
    agent: agent.id,
    backend: agent.backend,
    ...(agent.model ? { model: agent.model } : {}),
    reachable: false,
    verification: "skipped",
    modelsReported: [],
    latencyMs: 0,
    usage: {},
    skipped: why,
  };
}

async function smokeOne(rt: Runtime, agent: AgentConfig, opts: SmokeOptions): Promise<SmokeResult> {
  if (!agent.enabled) return skipped(agent, "disabled in the config");
  if (agent.advisory) return skipped(agent, "advisory: orchestrate returns a hint instead of running it");
  const started = rt.now();
  const cwd = mkdtempSync(join(tmpdir(), "orchestrate-smoke-"));
  opts.onProgress?.(`smoke · ${agent.id} (${agent.backend}) · asking`);
  try {
    const traits = await answerTraits(rt, agent);
    const turn = await consultTurn(rt, {
      agent,
      contract: CONSULT_CONTRACT,
      traits,
      prompt: buildConsultPrompt(SMOKE_PROMPT, undefined, "model_knowledge"),
      cwd,
      deadline: started + (opts.timeoutSec ?? 120) * 1000,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const latencyMs = rt.now() - started;
    opts.onProgress?.(`smoke · ${agent.id} · ${turn.error ? turn.error.code : "answered"} in ${(latencyMs / 1000).toFixed(1)} s`);
    return {
      agent: agent.id,
      backend: agent.backend,
      ...(agent.model ? { model: agent.model } : {}),
      reachable: !turn.error || ANSWERED.has(turn.error.code),
      verification: turn.verification,
      modelsReported: turn.models,
      latencyMs,
      usage: turn.usage,
      ...(turn.costEstimated ? { costEstimated: true } : {}),
      ...(turn.content ? { answer: turn.content.answer } : {}),
      ...(turn.error ? { error: turn.error } : {}),
    };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** A run passes when every asked agent answered with its configured model (or could not be checked). */
export function smokePassed(results: SmokeResult[]): boolean {
  const asked = results.filter((r) => !r.skipped);
  return asked.length > 0 && asked.every((r) => r.reachable && !r.error && r.verification !== "mismatch");
}
