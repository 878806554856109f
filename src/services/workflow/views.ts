/** workflow_status: a workflow, its steps, what comes next and the loop_done checks, computed from the rows. */
import type { StepRecord, WorkflowRecord } from "../../store/workflows.ts";
import type { Runtime } from "../shared/runtime.ts";
import { fail, ok, type Result } from "../../result.ts";
import { loopChecks, loopDone, openFindings, reportOf, type LoopChecks, type TestReport } from "./order.ts";
import { currentNext, latestReview } from "./state.ts";

export interface WorkflowView {
  workflow_id: string;
  status: WorkflowRecord["status"];
  goal: string;
  workdir: string;
  baseline_commit: string;
  current_commit: string;
  round: number;
  max_fix_rounds: number | null;
  next: string;
  loop_done: boolean;
  checks: LoopChecks;
  open_findings: { id: string; severity: string; claim: string | null }[];
  last_test?: TestReport;
  steps: {
    step_id: string;
    step: string;
    round: number;
    status: string;
    executor: string;
    agent: string | null;
    execution: string | null;
    review_id: string | null;
    error?: { code: string; message: string | null };
    result?: unknown;
  }[];
}

export function workflowView(rt: Runtime, wf: WorkflowRecord): WorkflowView {
  const steps = rt.store.workflows.steps(wf.id);
  const review = latestReview(rt, wf.id);
  const checks = loopChecks(wf, steps, review);
  const next = wf.status === "active" ? currentNext(rt, wf) : undefined;
  const lastTest = reportOf([...steps].reverse().find((s) => s.step === "test" && s.status === "succeeded"));
  const policy =
    typeof wf.snapshot === "object" &&
    wf.snapshot !== null &&
    "policy" in wf.snapshot &&
    typeof wf.snapshot.policy === "object" &&
    wf.snapshot.policy !== null &&
    "maxFixRounds" in wf.snapshot.policy &&
    typeof wf.snapshot.policy.maxFixRounds === "number"
      ? wf.snapshot.policy.maxFixRounds
      : null;
  return {
    workflow_id: wf.id,
    status: wf.status,
    goal: wf.goal,
    workdir: wf.workdir,
    baseline_commit: wf.baselineCommit,
    current_commit: wf.currentCommit,
    round: wf.round,
    max_fix_rounds: policy,
    next: next === undefined ? `nothing: the workflow is ${wf.status}` : "step" in next ? `plan ${next.step} (workflow_plan_step)` : next.end,
    loop_done: wf.status === "completed" || loopDone(checks),
    checks,
    open_findings: openFindings(review).map((f) => ({ id: f.id, severity: f.severity, claim: f.claim })),
    ...(lastTest ? { last_test: lastTest } : {}),
    steps: steps.map(stepView),
  };
}

function stepView(s: StepRecord): WorkflowView["steps"][number] {
  return {
    step_id: s.id,
    step: s.step,
    round: s.round,
    status: s.status,
    executor: s.executor,
    agent: s.agentId,
    execution: s.execution,
    review_id: s.reviewId,
    ...(s.errorCode ? { error: { code: s.errorCode, message: s.errorMessage } } : {}),
    ...(s.result !== null ? { result: s.result } : {}),
  };
}

export function getWorkflow(rt: Runtime, id: string): Result<WorkflowView> {
  const wf = rt.store.workflows.get(id);
  return wf ? ok(workflowView(rt, wf)) : fail("unknown_workflow", `No workflow "${id}" is stored here.`);
}

export function listWorkflows(rt: Runtime): { workflow_id: string; status: string; goal: string; round: number; updated_at: string }[] {
  return rt.store.workflows
    .list()
    .map((w) => ({ workflow_id: w.id, status: w.status, goal: w.goal.slice(0, 200), round: w.round, updated_at: new Date(w.updatedAt).toISOString() }));
}
