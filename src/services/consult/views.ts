/**
 * Read-only views for the consult tools: the configured agents with their eligibility for this
 * host (no env values, no commands' secrets — names and numbers only), and one stored consultation.
 */
import { quotaSummaries } from "../shared/quota.ts";
import type { Readiness } from "../../backends/contract.ts";
import type { Backend } from "../../backends/index.ts";
import type { AgentConfig } from "../../config/types.ts";
import { readinessOf } from "../../runner/readiness.ts";
import { answerTraits } from "../answer/cli-variant.ts";
import { ineligible, type Host } from "../../routing/consult-plan.ts";
import { resolveCommand } from "../../process/resolve.ts";
import { fail, ok, type Result } from "../../result.ts";
import type { ConsultationRecord } from "../../store/consultations.ts";
import { resolveHost } from "./target.ts";
import type { Runtime } from "../shared/runtime.ts";

export interface AgentView {
  id: string;
  backend: Backend;
  model: string | null;
  provider: string;
  /** Capability → score, only the positive ones (the rest are ineligible). */
  scores: Record<string, number>;
  priority: number;
  enabled: boolean;
  installed: boolean;
  resumable: boolean;
  /** One bit from the CLI's own status command ("unknown" where it has none); no credential is read. */
  readiness: Readiness;
  /** Whether this host may consult the agent at all (capability aside). */
  eligible: boolean;
  excluded_reason?: string;
  /** The last quota its CLI reported, where one is still in its window: "five_hour 92 % used, resets …". */
  quota?: string;
}

export interface AgentListing {
  host: { runtime: Backend; model?: string } | null;
  host_problem?: string;
  agents: AgentView[];
}

export async function listAgents(rt: Runtime, clientName: string | undefined): Promise<AgentListing> {
  const host = resolveHost(rt, clientName);
  const listed = Object.values(rt.config.agents)
    .filter((a) => !a.advisory)
    .sort((a, b) => a.id.localeCompare(b.id));
  const ready = await Promise.all(listed.map((agent) => readinessFor(rt, agent)));
  // grok's resume depends on which grok is installed (Grok Build resumes, the community CLI does not).
  const traits = await Promise.all(listed.map((agent) => answerTraits(rt, agent)));
  const quota = quotaSummaries(rt);
  const agents = listed.map((agent, i): AgentView => {
    const why = host.ok ? hostRule(agent, host.value) : "the host runtime is unknown";
    return {
      id: agent.id,
      backend: agent.backend,
      model: agent.model ?? null,
      provider: agent.provider,
      scores: Object.fromEntries(Object.entries(agent.scores).filter(([, s]) => s > 0)),
      priority: agent.priority,
      enabled: agent.enabled,
      installed:
        resolveCommand(agent.command ?? agent.backend, { env: { ...rt.env, ...agent.env }, homeDirs: rt.adapters[agent.backend].installDirs }) !== undefined,
      resumable: traits[i]?.supportsResume ?? rt.adapters[agent.backend].supportsResume,
      readiness: ready[i] ?? "unknown",
      eligible: why === undefined,
      ...(why ? { excluded_reason: why } : {}),
      ...optionalQuota(quota.get(agent.id)),
    };
  });
  return { host: host.ok ? host.value : null, ...(host.ok ? {} : { host_problem: host.error.message }), agents };
}

/** The host and enablement rules without the capability score (scores are listed separately). */
function hostRule(agent: Parameters<typeof ineligible>[0], host: Host): string | undefined {
  return ineligible({ ...agent, scores: { any: 1 } }, host, "any");
}

export interface ConsultationView {
  id: string;
  agent: string;
  backend: string;
  model: string | null;
  host_runtime: string | null;
  native_session_id: string | null;
  status: string;
  created_at: string;
  updated_at: string;
  turns: {
    n: number;
    prompt: string | null;
    context: string | null;
    content: unknown;
    error: { code: string; message: string } | null;
    model_reported: string | null;
    model_verification: string;
    usage: unknown;
    latency_ms: number;
    created_at: string;
  }[];
}

export function getConsultation(rt: Runtime, id: string): Result<ConsultationView> {
  const record = rt.store.consultations.get(id);
  if (!record)
    return fail("not_found", `No consultation "${id}" is stored here.`, "The id comes from a consult reply; deleted or pruned consultations are gone.");
  return ok(viewOf(record));
}

function viewOf(r: ConsultationRecord): ConsultationView {
  return {
    id: r.id,
    agent: r.agentId,
    backend: r.backend,
    model: r.model,
    host_runtime: r.hostRuntime,
    native_session_id: r.nativeSessionId,
    status: r.status,
    created_at: new Date(r.createdAt).toISOString(),
    updated_at: new Date(r.updatedAt).toISOString(),
    turns: r.turns.map((t) => ({
      n: t.n,
      prompt: t.prompt,
      context: t.context,
      content: t.answer ?? null,
      error: t.errorCode ? { code: t.errorCode, message: t.errorMessage ?? "" } : null,
      model_reported: t.modelReported,
      model_verification: t.modelVerified,
      usage: t.usage ?? null,
      latency_ms: t.latencyMs,
      created_at: new Date(t.createdAt).toISOString(),
    })),
  };
}

async function readinessFor(rt: Runtime, agent: AgentConfig): Promise<Readiness> {
  const env = { ...rt.env, ...agent.env };
  const found = resolveCommand(agent.command ?? agent.backend, { env, homeDirs: rt.adapters[agent.backend].installDirs });
  return found ? readinessOf(rt.adapters[agent.backend], found.path, env) : "not_ready";
}

function optionalQuota(quota: string | undefined): { quota?: string } {
  return quota === undefined ? {} : { quota };
}
