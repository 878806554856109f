/**
 * The consult service: ask one other vendor's agent a question, answer-only,
 * in an empty scratch directory, and return one envelope. No fallback; a failure is the answer.
 * Consultations and turns live in the store, so a later server process can continue or show them.
 */
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Usage } from "../../backends/contract.ts";
import type { AgentConfig } from "../../config/types.ts";
import type { IdentityVerdict } from "../../config/model-id.ts";
import { checkDepth } from "../../safety/depth.ts";
import { redact, redactDeep } from "../../safety/redact.ts";
import type { Failure, Settled } from "../../result.ts";
import { newId } from "../../store/ids.ts";
import { consultTurn, type TurnOutcome } from "../answer/turn.ts";
import { resolveHost, resolveTarget, resumeUnsupported, type ConsultTarget } from "./target.ts";
import { answerTraits, type AnswerTraits } from "../answer/cli-variant.ts";
import { buildConsultPrompt, CONSULT_CONTRACT, type EnvelopeContent, type SourceMode } from "../answer/envelope.ts";
import type { Runtime } from "../shared/runtime.ts";
import { storeLedger, type StoreLedger } from "../shared/store-writes.ts";
import { webGrant, webTurnLimit, withWebSources, type Source } from "../answer/web.ts";
import { seedRoute, seedSourceMode, sourceModeOf, withSeedUsage, type AnySourceMode, type SeedRoute, type SeedUsage } from "./seed-fields.ts";

export interface ConsultRequest {
  prompt: string;
  capability: string;
  context?: string;
  agent?: string;
  consultation_id?: string;
  /** orchestrate's context_only / model_knowledge, or the seed's auto / document / context / model / web. */
  source_mode?: AnySourceMode;
}

export type ConsultEnvelope = ConsultFields & Settled;

interface ConsultFields {
  consultation_id?: string;
  agent?: string;
  backend?: string;
  /** The model the CLI reported, else the configured one, else null (the CLI's own default). */
  model?: string | null;
  model_verification?: IdentityVerdict;
  /** The agent's envelope, with sources as seed 002's {title, locator, source_type} objects. */
  content: (Omit<EnvelopeContent, "sources"> & { sources: Source[] }) | null;
  /** orchestrate's usage, with the seed's prompt_tokens, completion_tokens, total_tokens (and cost_usd) beside it. */
  usage: Usage & Partial<SeedUsage> & { costEstimated?: boolean };
  latency_ms: number;
  /** Seed 001's fields (seed-fields.ts): what was asked for, in which mode, and why this agent. */
  capability_requested: string;
  source_mode_used: "document" | "model" | "web";
  route: SeedRoute | null;
  /** True when a repair turn was needed to get valid JSON. */
  repaired?: boolean;
  /** Why the same agent was run once more after a capacity failure (the latency spans both runs). */
  rerun?: string;
  /** `store_unavailable: …` when the history store refused this turn after the agent answered (services/shared/store-writes.ts). */
  store_notice?: string;
}

export interface ConsultHooks {
  clientName?: string;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
}

export async function consult(rt: Runtime, req: ConsultRequest, hooks: ConsultHooks = {}): Promise<ConsultEnvelope> {
  const started = rt.now();
  const mode = sourceModeOf(req.source_mode, req.context);
  const requested = { capability_requested: req.capability, source_mode_used: seedSourceMode(mode) };
  const refusal = (error: Failure): ConsultEnvelope => ({
    ok: false,
    content: null,
    usage: {},
    latency_ms: rt.now() - started,
    ...requested,
    route: null,
    error,
  });
  const host = resolveHost(rt, hooks.clientName);
  if (!host.ok) return refusal(host.error);
  const depth = checkDepth(rt.env, rt.config.maxDepth);
  if (!depth.ok) return refusal(depth.error);
  // Web mode routes among the agents that may browse; a named or pinned agent is checked instead.
  const routing = mode === "web" && !req.agent && !req.consultation_id ? webAgentsOnly(rt) : rt;
  const target = resolveTarget(routing, host.value, {
    capability: req.capability,
    ...(req.agent ? { agent: req.agent } : {}),
    ...(req.consultation_id ? { consultationId: req.consultation_id } : {}),
  });
  if (!target.ok) return refusal(mode === "web" && !req.agent && !req.consultation_id ? noWebAgent(rt, target.error) : target.error);
  const grant = mode === "web" ? webGrant(rt, target.value.agent) : undefined;
  if (grant && !grant.granted) return refusal(webRefused(target.value.agent, grant.why));
  const traits = await answerTraits(rt, target.value.agent);
  if (target.value.consultation && !traits.supportsResume) return refusal(resumeUnsupported(target.value.agent, target.value.consultation.id));
  const id = target.value.consultation?.id ?? openConsultation(rt, target.value.agent, host.value.runtime);
  const turn = await runInScratch(rt, id, req, mode, target.value, traits, hooks);
  const latency = rt.now() - started;
  // The answer is in hand: a store that refuses its turn gets it later, and the caller is told.
  const ledger = storeLedger(`consult ${id}`);
  record(rt, ledger, id, req, target.value, turn, latency);
  const route = seedRoute(target.value.agent, req.capability, req.agent !== undefined);
  const notice = ledger.notice();
  return { ...envelopeOf(id, target.value.agent, turn, latency, requested.source_mode_used), ...requested, route, ...(notice ? { store_notice: notice } : {}) };
}

/** The runtime as routing sees it in web mode: only agents web.ts grants the web. */
function webAgentsOnly(rt: Runtime): Runtime {
  const agents = Object.fromEntries(Object.entries(rt.config.agents).filter(([, a]) => webGrant(rt, a).granted));
  return { ...rt, config: { ...rt.config, agents } };
}

function noWebAgent(rt: Runtime, error: Failure): Failure {
  const able = Object.values(rt.adapters)
    .flatMap((a) => (a.web ? [a.backend] : []))
    .join(", ");
  return {
    ...error,
    message: `${error.message} (web mode considers only agents trusted with the web whose CLI can browse)`,
    hint: `Add capabilities: [web_search] to an agent on ${able} (web_search: true in an Orchestrator MCP config), or ask without source_mode web.`,
  };
}

/** Refused before anything runs: a web question answered without the web would read as researched. */
function webRefused(agent: AgentConfig, why: string): Failure {
  return {
    code: "agent_not_eligible",
    message: `Agent ${agent.id} cannot answer in web mode: ${why}.`,
    hint: "Ask another agent with agent:, or ask without source_mode web.",
  };
}

function openConsultation(rt: Runtime, agent: AgentConfig, hostRuntime: string): string {
  return rt.store.consultations.create({
    id: newId(rt.now()),
    agentId: agent.id,
    backend: agent.backend,
    ...(agent.model ? { model: agent.model } : {}),
    hostRuntime,
  });
}

/** The scratch cwd is named after the consultation: claude finds a session to resume by its cwd. */
export function scratchDirFor(consultationId: string): string {
  return join(tmpdir(), `orchestrate-consult-${consultationId}`);
}

async function runInScratch(
  rt: Runtime,
  id: string,
  req: ConsultRequest,
  mode: SourceMode,
  target: ConsultTarget,
  traits: AnswerTraits,
  hooks: ConsultHooks,
): Promise<TurnOutcome<EnvelopeContent>> {
  const { agent } = target;
  const cwd = scratchDirFor(id);
  const started = rt.now();
  let activity = "starting";
  const say = () => hooks.onProgress?.(`consult · ${agent.id} (${agent.backend}) · ${activity} · ${Math.round((rt.now() - started) / 1000)} s elapsed`);
  say();
  const timer = hooks.onProgress ? setInterval(say, 2000) : undefined;
  const timeoutSec = agent.limits.maxWallSec ?? rt.config.consult.timeoutSec;
  try {
    return await consultTurn(rt, {
      agent,
      contract: CONSULT_CONTRACT,
      traits,
      prompt: buildConsultPrompt(req.prompt, req.context, mode),
      ...(mode === "web" ? { web: { turnLimit: webTurnLimit(rt) } } : {}),
      ...(target.consultation?.nativeSessionId ? { resumeSessionId: target.consultation.nativeSessionId } : {}),
      cwd,
      deadline: started + timeoutSec * 1000,
      ...(hooks.signal ? { signal: hooks.signal } : {}),
      onActivity: (text) => {
        activity = text;
      },
    });
  } finally {
    if (timer) clearInterval(timer);
    rmSync(cwd, { recursive: true, force: true });
  }
}

function record(
  rt: Runtime,
  ledger: StoreLedger,
  id: string,
  req: ConsultRequest,
  target: ConsultTarget,
  turn: TurnOutcome<EnvelopeContent>,
  latencyMs: number,
): void {
  const store = rt.store.consultations;
  const session = turn.sessionId;
  if (session && session !== target.consultation?.nativeSessionId) ledger.write(() => store.setNativeSession(id, session));
  const entry = {
    prompt: req.prompt,
    ...(req.context !== undefined ? { context: req.context } : {}),
    ...(turn.content ? { answer: turn.content } : {}),
    ...(turn.error ? { errorCode: turn.error.code, errorMessage: turn.error.message } : {}),
    ...(turn.models.length ? { modelReported: turn.models.at(-1) as string } : {}),
    modelVerified: turn.verification,
    usage: turn.usage,
    ...(turn.costEstimated ? { costEstimated: true } : {}),
    latencyMs,
  };
  ledger.write(() => store.addTurn(id, entry));
  // A consultation whose first turn failed before any session existed has nothing to continue.
  const hasSession = Boolean(turn.sessionId ?? target.consultation?.nativeSessionId);
  ledger.write(() => store.setStatus(id, turn.error && !hasSession ? "failed" : "open"));
}

function envelopeOf(
  id: string,
  agent: AgentConfig,
  turn: TurnOutcome<EnvelopeContent>,
  latencyMs: number,
  mode: Source["source_type"],
): Omit<ConsultFields, "capability_requested" | "source_mode_used" | "route"> & Settled {
  const base = {
    consultation_id: id,
    agent: agent.id,
    backend: agent.backend,
    model: turn.models.at(-1) ?? agent.model ?? null,
    model_verification: turn.verification,
    usage: { ...withSeedUsage(turn.usage), ...(turn.costEstimated ? { costEstimated: true } : {}) },
    latency_ms: latencyMs,
    ...(turn.repaired ? { repaired: true } : {}),
    ...(turn.reruns.length > 0 ? { rerun: redact(turn.reruns.join("; ")) } : {}),
  };
  if (turn.error || !turn.content) {
    const error = turn.error ?? { code: "bad_output", message: "No answer was produced." };
    return { ok: false, ...base, content: null, error: { ...error, message: redact(error.message) } };
  }
  const sources = withWebSources(turn.content.sources, turn.webCalls, mode);
  return { ok: true, ...base, content: redactDeep({ ...turn.content, sources }) };
}
