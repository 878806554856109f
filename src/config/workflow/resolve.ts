/**
 * `consult.workflow` (seed 001), resolved and checked at load, so a workflow that cannot run is a
 * startup error rather than a failure several paid steps in: each binding is exactly one of three
 * shapes ({executor: host}, {agent?, execution}, {agents: [...]}) — keys of two shapes together are
 * refused; agents must exist; review is never the host's; apply_patch is always the host's; a mode
 * must be both trusted by the operator (execution_modes) and containable by the agent's backend;
 * and the store must keep full content (a workflow is its stored plans, patches and reports).
 */
import { drivenFacts, drivenName } from "../../backends/driven.ts";
import { adapters } from "../../backends/index.ts";
import { errorLine } from "../format-errors.ts";
import type { WorkflowBlockFile } from "../schema.ts";
import type { AgentConfig, ExecutionMode } from "../types.ts";
import { WORKFLOW_STEPS, type WorkflowBinding, type WorkflowConfig, type WorkflowStepName } from "./types.ts";

export const WORKFLOW_DEFAULTS = Object.freeze({ maxFixRounds: 5, executionTimeoutSec: 900, advanceOnFailedTest: false });

/** The modes an agent is trusted with when its entry says nothing: the two that never touch a tree. */
export const DEFAULT_EXECUTION_MODES: readonly ExecutionMode[] = ["consultation", "patch"];

export function modesOf(agent: AgentConfig): readonly ExecutionMode[] {
  return agent.executionModes ?? DEFAULT_EXECUTION_MODES;
}

interface Ctx {
  agents: Record<string, AgentConfig>;
  errors: string[];
  path: (parts: readonly PropertyKey[]) => string;
}

const AT = ["consult", "workflow"] as const;
const MODES: readonly ExecutionMode[] = ["consultation", "patch", "isolated_write"];
/** Steps whose binding writes code: their execution mode must be said, never defaulted. */
const CODING_STEPS = new Set<WorkflowStepName>(["implement", "fix"]);

export function resolveWorkflow(block: WorkflowBlockFile | undefined, fullContent: boolean, ctx: Ctx): WorkflowConfig | undefined {
  checkAgentModes(ctx);
  if (!block) return undefined;
  if (!fullContent)
    ctx.errors.push(
      errorLine(
        ctx.path(AT),
        "needs store_full_content: true",
        "a workflow is its stored plans, briefs, patches and reports; set store_full_content: true (or remove the workflow block)",
      ),
    );
  const bindings: WorkflowConfig["bindings"] = {};
  for (const [step, raw] of Object.entries(block.bindings ?? {})) {
    if (!isStep(step)) {
      ctx.errors.push(errorLine(ctx.path([...AT, "bindings", step]), "is not a workflow step", `use one of ${WORKFLOW_STEPS.join(", ")}`));
      continue;
    }
    const binding = bindingOf(step, raw, ctx);
    if (binding) bindings[step] = binding;
  }
  return {
    maxFixRounds: block.max_fix_rounds ?? WORKFLOW_DEFAULTS.maxFixRounds,
    roots: [...(block.roots ?? [])],
    advanceOnFailedTest: block.advance_on_failed_test ?? WORKFLOW_DEFAULTS.advanceOnFailedTest,
    executionTimeoutSec: block.execution_timeout_s ?? WORKFLOW_DEFAULTS.executionTimeoutSec,
    reviewPolicy: {
      differentFromImplementer: block.review_policy?.different_from_implementer ?? true,
      differentFromPlanner: block.review_policy?.different_from_planner ?? false,
    },
    bindings,
  };
}

function isMode(value: unknown): value is ExecutionMode {
  return typeof value === "string" && (MODES as readonly string[]).includes(value);
}

function isStep(name: string): name is WorkflowStepName {
  return (WORKFLOW_STEPS as readonly string[]).includes(name);
}

const SHAPES: Record<string, readonly string[]> = { host: ["executor"], agent: ["agent", "execution"], agents: ["agents"] };

function bindingOf(step: WorkflowStepName, raw: Record<string, unknown>, ctx: Ctx): WorkflowBinding | undefined {
  const at = [...AT, "bindings", step];
  const keys = Object.keys(raw);
  const shapes = Object.entries(SHAPES)
    .filter(([, ks]) => ks.some((k) => keys.includes(k)))
    .map(([name]) => name);
  const unknown = keys.filter((k) => !Object.values(SHAPES).flat().includes(k));
  if (unknown.length > 0)
    return void ctx.errors.push(
      errorLine(ctx.path([...at, unknown[0] as string]), "is not a binding key", "a binding is {executor: host}, {agent, execution} or {agents: [...]}"),
    );
  if (shapes.length !== 1) {
    return void ctx.errors.push(
      errorLine(
        ctx.path(at),
        shapes.length === 0 ? "binds nothing" : `mixes the ${shapes.join(" and ")} binding shapes`,
        "write exactly one of {executor: host}, {agent, execution} or {agents: [...]}",
      ),
    );
  }
  if (shapes[0] === "host") return hostBinding(step, raw, at, ctx);
  if (shapes[0] === "agents") return agentsBinding(step, raw, at, ctx);
  return agentBinding(step, raw, at, ctx);
}

function hostBinding(step: WorkflowStepName, raw: Record<string, unknown>, at: readonly PropertyKey[], ctx: Ctx): WorkflowBinding | undefined {
  if (raw.executor !== "host")
    return void ctx.errors.push(
      errorLine(ctx.path([...at, "executor"]), `${JSON.stringify(raw.executor)} is not an executor`, "write executor: host, or bind an agent"),
    );
  // review's product is a review row only the review service writes; a host outcome would be a synthesis written into a step.
  if (step === "review") return void ctx.errors.push(errorLine(ctx.path(at), "cannot be the host's", "bind reviewers: review: {agents: [id, …]}"));
  return { kind: "host" };
}

function agentsBinding(step: WorkflowStepName, raw: Record<string, unknown>, at: readonly PropertyKey[], ctx: Ctx): WorkflowBinding | undefined {
  if (step !== "review")
    return void ctx.errors.push(errorLine(ctx.path([...at, "agents"]), "lists agents, which only review takes", "bind one agent: {agent: id, execution: …}"));
  const ids = raw.agents;
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > 5 || !ids.every((id): id is string => typeof id === "string")) {
    return void ctx.errors.push(errorLine(ctx.path([...at, "agents"]), "must list one to five agent ids", "write agents: [codex-sol, claude-opus]"));
  }
  const missing = ids.filter((id) => !ctx.agents[id]);
  if (missing.length > 0)
    return void ctx.errors.push(errorLine(ctx.path([...at, "agents"]), `names no agent ${missing.join(", ")}`, "list agents defined under agents:"));
  return { kind: "agents", agents: [...new Set(ids)] };
}

function agentBinding(step: WorkflowStepName, raw: Record<string, unknown>, at: readonly PropertyKey[], ctx: Ctx): WorkflowBinding | undefined {
  if (step === "apply_patch")
    return void ctx.errors.push(
      errorLine(ctx.path(at), "is the host's: applying a patch is a side effect on your tree", "write apply_patch: {executor: host}"),
    );
  if (step === "review") return void ctx.errors.push(errorLine(ctx.path(at), "takes reviewers", "write review: {agents: [id, …]}"));
  const execution = raw.execution ?? (CODING_STEPS.has(step) ? undefined : "consultation");
  if (!isMode(execution)) {
    return void ctx.errors.push(
      errorLine(
        ctx.path([...at, "execution"]),
        execution === undefined ? "missing: a coding step says how it may write" : `${JSON.stringify(execution)} is not an execution mode`,
        "write execution: patch or execution: isolated_write",
      ),
    );
  }
  const mode = execution;
  if (raw.agent === undefined) return { kind: "agent", execution: mode };
  const agent = typeof raw.agent === "string" ? ctx.agents[raw.agent] : undefined;
  if (!agent)
    return void ctx.errors.push(
      errorLine(
        ctx.path([...at, "agent"]),
        `names no agent ${JSON.stringify(raw.agent)}`,
        "name an agent defined under agents:, or leave agent out to route by score",
      ),
    );
  if (!modesOf(agent).includes(mode))
    return void ctx.errors.push(
      errorLine(
        ctx.path([...at, "execution"]),
        `${mode} is not in ${agent.id}'s execution_modes (the operator's trust)`,
        `add ${mode} to ${agent.id}'s execution_modes, or choose another mode`,
      ),
    );
  return { kind: "agent", agent: agent.id, execution: mode };
}

/** A binding given as a tool argument (workflow_start's bindings), checked by the same rules as the file's. */
export function checkBinding(
  step: string,
  raw: Record<string, unknown>,
  agents: Record<string, AgentConfig>,
): { ok: true; binding: WorkflowBinding } | { ok: false; message: string } {
  const errors: string[] = [];
  const ctx: Ctx = { agents, errors, path: (parts) => parts.map(String).slice(2).join(".") };
  if (!isStep(step)) return { ok: false, message: `${step} is not a workflow step (${WORKFLOW_STEPS.join(", ")})` };
  const binding = bindingOf(step, raw, ctx);
  return binding ? { ok: true, binding } : { ok: false, message: errors.join("; ") || `bindings.${step} is not a binding` };
}

/** Seed 001: an agent that declares isolated_write on a runtime that cannot be contained is refused at startup. */
function checkAgentModes(ctx: Ctx): void {
  for (const agent of Object.values(ctx.agents)) {
    if (!agent.executionModes?.includes("isolated_write")) continue;
    const { writes } = drivenFacts(adapters[agent.backend], agent.transport);
    if (!writes.isolatedWrite)
      ctx.errors.push(
        errorLine(
          ctx.path(["agents", agent.id, "executionModes"]),
          `isolated_write cannot be contained on ${drivenName(adapters[agent.backend], agent)}: ${writes.why}`,
          "remove isolated_write from this agent (patch mode works on every backend)",
        ),
      );
  }
}
