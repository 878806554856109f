/**
 * Bindings and policy, resolved once at workflow_start (or for the named steps at replan) and
 * stored with the workflow: editing config.yaml never reroutes a running workflow or moves its cap.
 * A step's mode is the agent's execution_modes (operator trust) ∩ what its backend can be contained
 * to do; a refusal names which side said no.
 */
import type { Adapter } from "../../backends/contract.ts";
import { drivenFacts, drivenName } from "../../backends/driven.ts";
import { checkBinding, modesOf } from "../../config/workflow/resolve.ts";
import type { AgentConfig, Config, ExecutionMode } from "../../config/types.ts";
import { STEP_CAPABILITY, WORKFLOW_STEPS, type WorkflowBinding, type WorkflowConfig, type WorkflowStepName } from "../../config/workflow/types.ts";
import { fail, ok, type Result } from "../../result.ts";
import { pickConsultAgent, type Host } from "../../routing/consult-plan.ts";

export type StepBinding =
  | { kind: "host" }
  | { kind: "agent"; agent: string; backend: string; model: string | null; execution: ExecutionMode }
  | { kind: "agents"; agents: string[] };

export interface WorkflowSnapshot {
  bindings: Record<WorkflowStepName, StepBinding>;
  policy: { maxFixRounds: number; advanceOnFailedTest: boolean; executionTimeoutSec: number; reviewPolicy: WorkflowConfig["reviewPolicy"] };
  host: Host;
}

export function resolveSnapshot(
  config: Config,
  adapters: Record<string, Adapter>,
  wf: WorkflowConfig,
  host: Host,
  overrides: Record<string, Record<string, unknown>> = {},
  only?: readonly WorkflowStepName[],
  prior?: WorkflowSnapshot,
): Result<WorkflowSnapshot> {
  const bindings: Partial<Record<WorkflowStepName, StepBinding>> = { ...(prior?.bindings ?? {}) };
  for (const step of WORKFLOW_STEPS) {
    if (only && !only.includes(step) && prior) continue;
    const declared = declaredBinding(config, step, wf, overrides);
    if (!declared.ok) return declared;
    const resolved = bindStep(config, adapters, step, declared.value, host);
    if (!resolved.ok) return resolved;
    bindings[step] = resolved.value;
  }
  const complete = completeBindings(bindings);
  if (!complete) return fail("internal_error", "A workflow step was left without a binding.");
  return ok({
    bindings: complete,
    policy: prior?.policy ?? {
      maxFixRounds: wf.maxFixRounds,
      advanceOnFailedTest: wf.advanceOnFailedTest,
      executionTimeoutSec: wf.executionTimeoutSec,
      reviewPolicy: wf.reviewPolicy,
    },
    host,
  });
}

function completeBindings(b: Partial<Record<WorkflowStepName, StepBinding>>): Record<WorkflowStepName, StepBinding> | undefined {
  const out: Partial<Record<WorkflowStepName, StepBinding>> = {};
  for (const step of WORKFLOW_STEPS) {
    const binding = b[step];
    if (!binding) return undefined;
    out[step] = binding;
  }
  return isComplete(out) ? out : undefined;
}

function isComplete(b: Partial<Record<WorkflowStepName, StepBinding>>): b is Record<WorkflowStepName, StepBinding> {
  return WORKFLOW_STEPS.every((s) => b[s] !== undefined);
}

function declaredBinding(
  config: Config,
  step: WorkflowStepName,
  wf: WorkflowConfig,
  overrides: Record<string, Record<string, unknown>>,
): Result<WorkflowBinding | undefined> {
  const raw = overrides[step];
  if (raw === undefined) return ok(wf.bindings[step]);
  const checked = checkBinding(step, raw, config.agents);
  return checked.ok ? ok(checked.binding) : fail("invalid_arguments", `bindings.${step}: ${checked.message}`);
}

function bindStep(
  config: Config,
  adapters: Record<string, Adapter>,
  step: WorkflowStepName,
  binding: WorkflowBinding | undefined,
  host: Host,
): Result<StepBinding> {
  // Unbound steps are the host's — except review, whose product only the review service writes.
  if (!binding)
    return step === "review"
      ? fail("review_unbound", "The workflow's review step is bound to no reviewers, and a review cannot be the host's; nothing was started.")
      : ok({ kind: "host" });
  if (binding.kind === "host") return ok(binding);
  if (binding.kind === "agents") return ok({ kind: "agents", agents: [...binding.agents] });
  const picked = pickConsultAgent(config, host, STEP_CAPABILITY[step], binding.agent);
  if (!picked.ok) return fail("mode_refused", `Step ${step}: ${picked.error.message}`);
  const refusal = modeRefusal(picked.pick.agent, adapters, binding.execution, step);
  if (refusal) return fail("mode_refused", `Step ${step}: ${refusal}`);
  const agent = picked.pick.agent;
  return ok({ kind: "agent", agent: agent.id, backend: agent.backend, model: agent.model ?? null, execution: binding.execution });
}

/**
 * Why the mode cannot run on this agent for this step, naming the side that said no; undefined when
 * it can. A contained test step needs commands to run and their exit codes read (its report is
 * built from them), so a backend whose contained mode runs none is refused for it.
 */
export function modeRefusal(agent: AgentConfig, adapters: Record<string, Adapter>, mode: ExecutionMode, step?: WorkflowStepName): string | undefined {
  if (!modesOf(agent).includes(mode)) return `operator: ${mode} is not in ${agent.id}'s execution_modes (${modesOf(agent).join(", ")})`;
  const adapter = adapters[agent.backend];
  const writes = adapter ? drivenFacts(adapter, agent.transport).writes : undefined;
  const name = adapter ? drivenName(adapter, agent) : agent.backend;
  if (mode === "isolated_write" && !writes?.isolatedWrite)
    return `backend: ${name} cannot be contained for isolated_write (${writes?.why ?? "unknown backend"})`;
  if (mode === "isolated_write" && step === "test" && writes?.commandsDenied)
    return `backend: ${name} cannot run a test step's commands contained, so nothing would be observed (${writes.commandsDenied}); bind test to the host or to an agent whose contained runs report exit codes`;
  if (mode === "patch" && !writes?.patch) return `backend: ${name} cannot run patch mode (${writes?.why ?? "unknown backend"})`;
  return undefined;
}
