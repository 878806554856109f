/**
 * Who a consultation goes to: the host (env, else the client's clientInfo, else config), then either
 * the pinned agent of an existing consultation or the routing pick for the capability. A resumed
 * consultation never moves: another agent, runtime or model is `session_target_mismatch`.
 * Whether the agent's CLI can resume at all is the caller's check (see cli-variant.ts).
 */
import type { AgentConfig } from "../../config/types.ts";
import { BACKENDS } from "../../backends/index.ts";
import { ineligible, pickConsultAgent, type Host } from "../../routing/consult-plan.ts";
import { detectHostRuntime } from "../../routing/host.ts";
import { fail, ok, type Failure, type Result } from "../../result.ts";
import type { ConsultationRecord } from "../../store/consultations.ts";
import type { Runtime } from "../shared/runtime.ts";

export interface ConsultTarget {
  agent: AgentConfig;
  /** Present when continuing a stored consultation. */
  consultation?: ConsultationRecord;
}

export function resolveHost(rt: Runtime, clientName: string | undefined): Result<Host> {
  const configured = rt.config.host;
  const detected = detectHostRuntime(rt.env, clientName);
  const withModel = (runtime: Host["runtime"]): Host => ({ runtime, ...(configured.model ? { model: configured.model } : {}) });
  if (detected.runtime === undefined) {
    // The config's host block is trusted startup configuration too; it is only a fallback here.
    if (configured.runtime) return ok(withModel(configured.runtime));
    return fail(
      "host_unknown",
      `consult refuses to run: ${detected.problem}.`,
      `Register orchestrate with ORCHESTRATE_HOST_RUNTIME set to the runtime of the client that calls it (${BACKENDS.join(", ")}).`,
    );
  }
  if (configured.runtime && configured.runtime !== detected.runtime) {
    return fail(
      "host_mismatch",
      `The config names host runtime ${configured.runtime} but this client runs on ${detected.runtime}.`,
      "Fix host.runtime in the config or ORCHESTRATE_HOST_RUNTIME so they agree.",
    );
  }
  return ok(withModel(detected.runtime));
}

export interface TargetRequest {
  capability: string;
  agent?: string;
  consultationId?: string;
}

export function resolveTarget(rt: Runtime, host: Host, req: TargetRequest): Result<ConsultTarget> {
  if (req.consultationId !== undefined) return pinnedTarget(rt, host, req.consultationId, req.agent);
  const pick = pickConsultAgent(rt.config, host, req.capability, req.agent);
  if (!pick.ok) return fail(pick.error.code, pick.error.message, "Call list_agents to see which agents can answer which capability from this host.");
  return ok({ agent: pick.pick.agent });
}

function pinnedTarget(rt: Runtime, host: Host, id: string, requested: string | undefined): Result<ConsultTarget> {
  const record = rt.store.consultations.get(id);
  if (!record) return fail("unknown_consultation", `No consultation "${id}" is stored here.`, "Start a new consultation without consultation_id.");
  const mismatch = pinProblem(rt, record, requested);
  if (mismatch)
    return fail(
      "session_target_mismatch",
      `Consultation ${id} is pinned to agent ${record.agentId} (${record.backend}${record.model ? ` · ${record.model}` : ""}), but ${mismatch}.`,
      "Continue it with the agent it started on, or start a new consultation without consultation_id.",
    );
  const agent = rt.config.agents[record.agentId] as AgentConfig;
  // The host rule holds on every turn: the caller may now be running on the agent's runtime. The
  // score is not re-checked (a follow-up may be about anything), hence the stand-in capability.
  const why = ineligible({ ...agent, scores: { follow_up: 1 } }, host, "follow_up");
  if (why) return fail("agent_not_eligible", `Agent ${agent.id} cannot continue consultation ${id} from a ${host.runtime} host: ${why}.`);
  return ok({ agent, consultation: record });
}

/** Checked by the caller once it knows the installed CLI (grok: community has no sessions). */
export function resumeUnsupported(agent: AgentConfig, id: string): Failure {
  return {
    code: "resume_unsupported",
    message: `${agent.backend} cannot resume a session in answer mode, so consultation ${id} cannot be continued.`,
    hint: "Start a new consultation and include the earlier answer in context.",
  };
}

/** Why this call cannot continue the stored session, or undefined when it can. */
function pinProblem(rt: Runtime, record: ConsultationRecord, requested: string | undefined): string | undefined {
  if (requested !== undefined && requested !== record.agentId) return `this call asks for agent ${requested}`;
  const agent = rt.config.agents[record.agentId];
  if (!agent) return `agent ${record.agentId} is no longer configured`;
  if (agent.backend !== record.backend) return `agent ${agent.id} now runs on ${agent.backend}`;
  if ((agent.model ?? null) !== record.model) return `agent ${agent.id} is now configured with model ${agent.model ?? "(CLI default)"}`;
  if (!agent.enabled) return `agent ${agent.id} is disabled`;
  return undefined;
}
