/**
 * workflow_plan_step: a preview and a one-time token, sending nothing. The host's context is
 * redacted before it is stored and before it is sent, and the prompt built from it is hashed into
 * the token's binding, so the text the preview described is the text that goes out. A review step
 * is planned by the review service itself: its plan and token are the review's.
 */
import { createHash } from "node:crypto";
import { redact } from "../../safety/redact.ts";
import { fail, ok, type Result } from "../../result.ts";
import { newId } from "../../store/ids.ts";
import type { StepRecord, WorkflowRecord } from "../../store/workflows.ts";
import { planReview } from "../review/index.ts";
import { sameExecution } from "../../routing/review-plan.ts";
import { bindToken, digest, newToken } from "../shared/tokens.ts";
import type { Runtime } from "../shared/runtime.ts";
import type { AgentConfig } from "../../config/types.ts";
import type { WorkflowStepName } from "../../config/workflow/types.ts";
import { buildStepPrompt, type PromptPayload } from "./prompt.ts";
import { asStep, openFindings } from "./order.ts";
import { currentNext, latestReview, snapshotOf } from "./state.ts";
import type { StepBinding, WorkflowSnapshot } from "./snapshot.ts";
import { agentEstimate, sumEstimates, type CostEstimate } from "../shared/price.ts";

export const STEP_TOKEN_TTL_MS = 30 * 60_000;

export interface PlanStepRequest {
  workflow_id: string;
  step: WorkflowStepName;
  context: string;
}

export interface StepPreview {
  workflow_id: string;
  step_id: string;
  step: WorkflowStepName;
  round: number;
  executor: StepBinding["kind"];
  agent?: { id: string; backend: string; model: string | null };
  reviewers?: { id: string; backend: string; model: string | null }[];
  execution?: string;
  review_id?: string;
  commit: string;
  prompt_sha256: string;
  context_chars: number;
  context_redacted: boolean;
  open_findings: number;
  /** The estimated cost of the step's first request per recipient, and their sum (absent for a host step: nothing is sent). */
  cost?: { reviewers: ({ id: string } & CostEstimate)[]; total: ReturnType<typeof sumEstimates> };
  expires_at: string;
  token: string;
}

export async function planStep(rt: Runtime, req: PlanStepRequest): Promise<Result<StepPreview>> {
  const wf = rt.store.workflows.get(req.workflow_id);
  if (!wf) return fail("unknown_workflow", `No workflow "${req.workflow_id}" is stored here.`);
  if (wf.status !== "active") return fail("workflow_wrong_state", `Workflow ${wf.id} is ${wf.status}.`);
  const snapshot = snapshotOf(wf);
  if (!snapshot) return fail("internal_error", `Workflow ${wf.id}'s snapshot cannot be read.`);
  const next = currentNext(rt, wf);
  if (!("step" in next) || next.step !== req.step)
    return fail("wrong_step", `Workflow ${wf.id} expects ${"step" in next ? next.step : `nothing more (${next.end})`}, not ${req.step}.`);
  const binding = snapshot.bindings[req.step];
  const context = redact(req.context);
  const round = req.step === "fix" ? wf.round + 1 : wf.round;
  const findings = openFindings(latestReview(rt, wf.id)).map((f) => ({ id: f.id, severity: f.severity, claim: f.claim, location: f.location }));
  const payload: PromptPayload = {
    step: req.step,
    round,
    goal: wf.goal,
    ...priorOutputs(rt.store.workflows.steps(wf.id)),
    ...(findings.length && (req.step === "fix" || req.step === "review") ? { open_findings: findings } : {}),
    context,
  };
  rt.store.workflows.cancelPlanned(wf.id, rt.now());
  if (binding.kind === "agents") return planReviewStep(rt, wf, binding, payload, context !== req.context, findings.length);
  const prompt = binding.kind === "agent" ? buildStepPrompt(binding.execution, payload) : JSON.stringify(payload);
  const promptSha = createHash("sha256").update(prompt).digest("hex");
  const token = newToken("wfs");
  const expiresAt = rt.now() + STEP_TOKEN_TTL_MS;
  const id = newId(rt.now());
  const added = rt.store.workflows.addStep(
    {
      id,
      workflowId: wf.id,
      step: req.step,
      round,
      executor: binding.kind,
      ...(binding.kind === "agent" ? { agentId: binding.agent, execution: binding.execution } : {}),
      preview: { prompt },
      context,
      promptSha256: promptSha,
      token: { sha256: digest(token), binding: "", expiresAt },
      commitBefore: wf.currentCommit,
    },
    rt.now(),
  );
  if (added.outcome === "step_running") return stepRunning(added.running);
  const step = added.step;
  rt.store.workflows.bind(step.id, bindToken(token, stepSnapshot(step)));
  const cost = binding.kind === "agent" ? await stepCost(rt, binding.agent, prompt.length) : undefined;
  return ok({
    workflow_id: wf.id,
    step_id: id,
    step: req.step,
    round,
    executor: binding.kind,
    ...(binding.kind === "agent" ? { agent: { id: binding.agent, backend: binding.backend, model: binding.model }, execution: binding.execution } : {}),
    commit: wf.currentCommit,
    prompt_sha256: promptSha,
    context_chars: context.length,
    context_redacted: context !== req.context,
    open_findings: findings.length,
    ...(cost ? { cost } : {}),
    expires_at: new Date(expiresAt).toISOString(),
    token,
  });
}

/** A step started while this one was being planned (another call, or another server on the store). */
function stepRunning(running: StepRecord): Result<never> {
  return fail("workflow_wrong_state", `Step ${running.step} (${running.id}) of this workflow is running; wait for it (workflow_status), then plan again.`);
}

/** One agent's estimate for the step's prompt, in the review plan's shape (one recipient, its own total). */
async function stepCost(rt: Runtime, agentId: string, chars: number): Promise<StepPreview["cost"]> {
  const agent = rt.config.agents[agentId];
  if (!agent) return undefined;
  const estimate = { id: agentId, ...(await agentEstimate(rt.config, agent, chars)) };
  return { reviewers: [estimate], total: sumEstimates([estimate]) };
}

/** What a token approves: the step, its agent and mode, its round, the commit, and the prompt's hash. */
export function stepSnapshot(
  step: Pick<StepRecord, "id" | "workflowId" | "step" | "round" | "executor" | "agentId" | "execution" | "commitBefore" | "promptSha256">,
): string {
  return JSON.stringify([step.id, step.workflowId, step.step, step.round, step.executor, step.agentId, step.execution, step.commitBefore, step.promptSha256]);
}

function priorOutputs(steps: readonly StepRecord[]): Pick<PromptPayload, "plan" | "brief"> {
  const text = (name: string) => {
    const s = [...steps].reverse().find((x) => x.step === name && x.status === "succeeded");
    const r = s?.result;
    return typeof r === "object" && r !== null && "text" in r && typeof r.text === "string" ? r.text : undefined;
  };
  const plan = text("plan");
  const brief = text("author_execution_prompt");
  return { ...(plan ? { plan } : {}), ...(brief ? { brief } : {}) };
}

async function planReviewStep(
  rt: Runtime,
  wf: WorkflowRecord,
  binding: Extract<StepBinding, { kind: "agents" }>,
  payload: PromptPayload,
  redacted: boolean,
  findings: number,
): Promise<Result<StepPreview>> {
  const snapshot = snapshotOf(wf);
  const barred = snapshot ? barredBy(rt, wf, snapshot.policy.reviewPolicy) : [];
  const reviewers = binding.agents.filter((id) => {
    const agent = rt.config.agents[id];
    return agent && !barred.some((b) => sameExecution(agent, b.agent));
  });
  if (reviewers.length === 0)
    return fail(
      "mode_refused",
      `operator: ${barred.map((b) => `review_policy.${b.rule} (${b.agent.id})`).join(" and ")} leaves no reviewer: every bound reviewer runs the same model.`,
    );
  const patch = latestPatch(rt.store.workflows.steps(wf.id));
  const material = [{ text: payload.context || "(no context supplied)", label: "context" }, ...(patch ? [{ text: patch, label: "patch" }] : [])];
  const plan = await planReview(
    rt,
    {
      goal: wf.goal,
      mode: reviewers.length === 1 ? "standard" : "deep",
      material,
      ...(payload.open_findings ? { context: JSON.stringify({ open_findings: payload.open_findings }) } : {}),
      reviewers,
    },
    snapshot?.host,
  );
  if (!plan.ok) return plan;
  const id = newId(rt.now());
  const expiresAt = Date.parse(plan.value.expires_at);
  const added = rt.store.workflows.addStep(
    {
      id,
      workflowId: wf.id,
      step: "review",
      round: wf.round,
      executor: "agents",
      preview: plan.value,
      context: payload.context,
      promptSha256: digest(JSON.stringify(material)),
      token: { sha256: digest(plan.value.token), binding: "review", expiresAt },
      commitBefore: wf.currentCommit,
      reviewId: plan.value.review_id,
    },
    rt.now(),
  );
  if (added.outcome === "step_running") return stepRunning(added.running);
  return ok({
    workflow_id: wf.id,
    step_id: id,
    step: asStep("review"),
    round: wf.round,
    executor: "agents",
    reviewers: plan.value.reviewers,
    review_id: plan.value.review_id,
    commit: wf.currentCommit,
    prompt_sha256: digest(JSON.stringify(material)),
    context_chars: payload.context.length,
    context_redacted: redacted,
    open_findings: findings,
    cost: plan.value.cost,
    expires_at: plan.value.expires_at,
    token: plan.value.token,
  });
}

/**
 * Who the review policy keeps off the review, by execution identity (so two agent ids on one model
 * are one reviewer): the latest implementer, and the planner when different_from_planner is set.
 */
function barredBy(rt: Runtime, wf: WorkflowRecord, policy: WorkflowSnapshot["policy"]["reviewPolicy"]): { rule: string; agent: AgentConfig }[] {
  const steps = [...rt.store.workflows.steps(wf.id)].reverse();
  const agentOf = (names: readonly string[]) => {
    const id = steps.find((s) => names.includes(s.step) && s.agentId)?.agentId;
    return id ? rt.config.agents[id] : undefined;
  };
  const implementer = policy.differentFromImplementer ? agentOf(["implement", "fix"]) : undefined;
  const planner = policy.differentFromPlanner ? agentOf(["plan"]) : undefined;
  return [
    ...(implementer ? [{ rule: "different_from_implementer", agent: implementer }] : []),
    ...(planner ? [{ rule: "different_from_planner", agent: planner }] : []),
  ];
}

/** The patch the host last applied: what a review reads beside the context. */
function latestPatch(steps: readonly StepRecord[]): string | undefined {
  const s = [...steps].reverse().find((x) => (x.step === "implement" || x.step === "fix") && (x.status === "awaiting_host_apply" || x.status === "succeeded"));
  const r = s?.result;
  return typeof r === "object" && r !== null && "patch" in r && typeof r.patch === "string" ? r.patch : undefined;
}
