/**
 * workflow_replan, in two calls like a step: the first re-decides the named steps from the config
 * as it is now and stores nothing but a one-time token — the preview shows each step's old and new
 * routing (agent, execution mode, why) and the planned steps that would be cancelled; the second
 * spends the token (asking the person where the client can, the rule steps and reviews follow) and
 * only then writes the new bindings. The token is an HMAC over the workflow, the named steps and a
 * hash of the decisions previewed, re-derived when it is spent: a decision that changed since (the
 * config, another replan) makes it stale, and nothing is applied. Like delete-all's, the token is
 * kept only as a SHA-256 in this process's memory: a restarted server holds none.
 */
import type { AgentConfig, Config } from "../../config/types.ts";
import type { WorkflowStepName } from "../../config/workflow/types.ts";
import { fail, ok, type Result } from "../../result.ts";
import type { Host } from "../../routing/consult-plan.ts";
import type { WorkflowRecord } from "../../store/workflows.ts";
import { bindToken, digest, memoryTokens, sameDigest } from "../shared/tokens.ts";
import type { Runtime } from "../shared/runtime.ts";
import { resolveSnapshot, type StepBinding, type WorkflowSnapshot } from "./snapshot.ts";
import type { StepApprover } from "./spend.ts";
import { snapshotOf } from "./state.ts";

export const REPLAN_TOKEN_TTL_MS = 30 * 60_000;

/** One routing decision as the preview shows it. */
export interface Decision {
  executor: StepBinding["kind"];
  agent?: { id: string; backend: string; model: string | null };
  reviewers?: string[];
  execution?: string;
  why: string;
}

export interface ReplanPreview {
  workflow_id: string;
  steps: WorkflowStepName[];
  decisions: { step: WorkflowStepName; before: Decision; after: Decision; changed: boolean }[];
  /** Planned steps whose tokens die when the replan is applied. */
  cancels: { step_id: string; step: string; round: number }[];
  expires_at: string;
  token: string;
}

export interface ReplanApplied {
  workflow_id: string;
  steps: WorkflowStepName[];
  decisions: ReplanPreview["decisions"];
  cancelled: number;
  approval: "elicitation" | "token";
  bindings: WorkflowSnapshot["bindings"];
}

const pending = memoryTokens<{ workflowId: string; storePath: string; binding: string }>("wfr", REPLAN_TOKEN_TTL_MS);

/** The first call: the decisions and what would be cancelled, and a token for exactly those. Writes nothing to the workflow. */
export function previewReplan(rt: Runtime, workflowId: string, steps: readonly WorkflowStepName[], host: Host): Result<ReplanPreview> {
  const decided = decide(rt, workflowId, steps, host);
  if (!decided.ok) return decided;
  const { wf, named, decisions } = decided.value;
  const { token, expiresAt } = pending.issue(
    (t) => ({ workflowId: wf.id, storePath: rt.store.path, binding: bindToken(t, replanSnapshot(wf.id, named, decisions)) }),
    rt.now(),
  );
  const cancels = rt.store.workflows
    .steps(wf.id)
    .filter((s) => s.status === "planned")
    .map((s) => ({ step_id: s.id, step: s.step, round: s.round }));
  return ok({ workflow_id: wf.id, steps: named, decisions, cancels, expires_at: new Date(expiresAt).toISOString(), token });
}

/** The second call: the token spent once, its decisions re-derived and compared, the person asked, then applied. */
export async function applyReplan(
  rt: Runtime,
  workflowId: string,
  steps: readonly WorkflowStepName[],
  token: string,
  host: Host,
  approver: StepApprover | undefined,
): Promise<Result<ReplanApplied>> {
  // One use, whatever happens next: a refused or declined replan must not leave the token live.
  const found = pending.take(token, rt.now());
  if (!found || found.storePath !== rt.store.path || found.workflowId !== workflowId) {
    return fail(
      "invalid_token",
      `That replan token is unknown, already used, expired, or not workflow ${workflowId}'s (tokens last 30 minutes and belong to the server process that issued them); nothing was changed.`,
      "Call workflow_replan without a token for a new preview.",
    );
  }
  const decided = decide(rt, workflowId, steps, host);
  if (!decided.ok) return decided;
  const { wf, named, decisions, next } = decided.value;
  if (!sameDigest(bindToken(token, replanSnapshot(wf.id, named, decisions)), found.binding)) {
    return fail(
      "invalid_token",
      `The routing that replan token approved is no longer what replanning ${named.join(", ")} would decide (the config, the steps named, or the workflow's bindings changed since the preview); nothing was changed.`,
      "Call workflow_replan without a token, show the new preview, and approve that one.",
    );
  }
  const answer = approver ? await ask(approver, wf.id, decisions) : "accept";
  if (answer !== "accept")
    return fail(
      answer === "decline" ? "replan_declined" : "approval_failed",
      `The replan of ${named.join(", ")} was not approved (${answer}); every step keeps its routing.`,
    );
  const approval = approver ? "elicitation" : "token";
  // Re-checked at the moment of writing: a cancel or an end between preview and approval wins.
  const current = rt.store.workflows.get(wf.id);
  if (!current || current.status !== "active") return fail("workflow_wrong_state", `Workflow ${wf.id} is ${current?.status ?? "gone"}.`);
  const cancelled = rt.store.workflows.cancelPlanned(wf.id, rt.now());
  rt.store.workflows.update(wf.id, { snapshot: next }, rt.now());
  return ok({ workflow_id: wf.id, steps: named, decisions, cancelled, approval, bindings: next.bindings });
}

interface Decided {
  wf: WorkflowRecord;
  named: WorkflowStepName[];
  decisions: ReplanPreview["decisions"];
  next: WorkflowSnapshot;
}

/** The named steps re-decided from the config as it is now; every other step and the policy kept. */
function decide(rt: Runtime, workflowId: string, steps: readonly WorkflowStepName[], host: Host): Result<Decided> {
  const wf = rt.store.workflows.get(workflowId);
  if (!wf) return fail("unknown_workflow", `No workflow "${workflowId}" is stored here.`);
  if (wf.status !== "active") return fail("workflow_wrong_state", `Workflow ${wf.id} is ${wf.status}.`);
  const wfConfig = rt.config.consult.workflow;
  const prior = snapshotOf(wf);
  if (!wfConfig || !prior) return fail("workflows_not_configured", "The config has no consult.workflow block.");
  const next = resolveSnapshot(rt.config, rt.adapters, wfConfig, host, {}, steps, prior);
  if (!next.ok) return next;
  const named = [...new Set(steps)];
  const decisions = named.map((step) => {
    const before = decision(rt.config, prior.bindings[step], "as snapshotted at workflow_start or the last replan");
    const after = decision(rt.config, next.value.bindings[step], whyNow(rt.config, step, next.value.bindings[step]));
    return { step, before, after, changed: JSON.stringify(routing(before)) !== JSON.stringify(routing(after)) };
  });
  return ok({ wf, named, decisions, next: next.value });
}

function decision(config: Config, b: StepBinding, why: string): Decision {
  if (b.kind === "host") return { executor: "host", why };
  if (b.kind === "agents") return { executor: "agents", reviewers: [...b.agents], why };
  const agent: AgentConfig | undefined = config.agents[b.agent];
  return { executor: "agent", agent: { id: b.agent, backend: agent?.backend ?? b.backend, model: b.model }, execution: b.execution, why };
}

/** A decision without its explanation: what "changed" compares. */
function routing(d: Decision): Omit<Decision, "why"> {
  const { why: _why, ...rest } = d;
  return rest;
}

function whyNow(config: Config, step: WorkflowStepName, b: StepBinding): string {
  const declared = config.consult.workflow?.bindings[step];
  const where = `consult.workflow.bindings.${step}`;
  if (b.kind === "host") return declared ? `${where} names the host` : `${where} is unset, so the step is the host's`;
  if (b.kind === "agents") return `${where} names the reviewers ${b.agents.join(", ")}`;
  const chosen = declared?.kind === "agent" && declared.agent ? `${where} names ${b.agent}` : `${where} leaves the agent to the best score, now ${b.agent}`;
  return `${chosen}; ${b.execution} is in its execution_modes and ${b.backend} can run it`;
}

/** What the token approves: the workflow, the steps named, and the decisions previewed (old and new). */
function replanSnapshot(workflowId: string, steps: readonly WorkflowStepName[], decisions: ReplanPreview["decisions"]): string {
  return JSON.stringify([workflowId, steps, digest(JSON.stringify(decisions.map((d) => [d.step, routing(d.before), routing(d.after)])))]);
}

async function ask(approver: StepApprover, workflowId: string, decisions: ReplanPreview["decisions"]): Promise<"accept" | "decline" | "failed"> {
  const lines = decisions.map((d) => `${d.step}: ${describe(d.before)} → ${describe(d.after)}`);
  return approver.ask(`Replan workflow ${workflowId}? ${lines.join("; ")}. Planned steps' tokens die.`).catch(() => "failed" as const);
}

function describe(d: Decision): string {
  if (d.executor === "host") return "the host";
  if (d.executor === "agents") return `reviewers ${(d.reviewers ?? []).join(", ")}`;
  return `${d.agent?.id ?? "?"} (${d.execution ?? "?"})`;
}
