/**
 * workflow_record_host_step: the host did a step itself and records it, spending that step's
 * token. Three steps are checked rather than believed: test (a TestReport whose pass/fail must
 * agree with the exit code, stamped with the commit the workflow holds and reported_by "host"),
 * apply_patch (only a commit that was not there before is evidence the patch was applied), and
 * synthesize (the synthesis is the review service's finalize, so no serious finding is lost).
 */
import { resolve } from "node:path";
import { headCommit } from "../../git/worktree.ts";
import { fail, ok, type Result } from "../../result.ts";
import type { StepRecord } from "../../store/workflows.ts";
import { finalizeReview, type FinalizeRequest } from "../review/index.ts";
import type { Runtime } from "../shared/runtime.ts";
import type { TestReport } from "./order.ts";
import type { StepResult } from "./results.ts";
import type { StepOutcome } from "./run.ts";
import { spendStep, type StepApprover } from "./spend.ts";
import { advance, latestReview } from "./state.ts";

export interface HostTest {
  command: string;
  cwd?: string;
  exit_code?: number;
  status: "pass" | "fail";
  output: string;
  duration_ms: number;
}

export interface RecordHostRequest {
  workflow_id: string;
  step_id: string;
  token: string;
  text?: string;
  test?: HostTest;
  synthesis?: Omit<FinalizeRequest, "review_id">;
}

const MAX_OUTPUT = 64 * 1024;

export async function recordHostStep(rt: Runtime, req: RecordHostRequest, approver: StepApprover | undefined): Promise<Result<StepOutcome>> {
  const planned = rt.store.workflows.step(req.step_id);
  if (!planned || planned.workflowId !== req.workflow_id) return fail("invalid_token", `No step "${req.step_id}" is planned in workflow ${req.workflow_id}.`);
  if (planned.executor !== "host") return fail("not_host_step", `Step ${planned.step} is bound to ${planned.agentId ?? "reviewers"}.`);
  // Checked before the token is spent: the host can record again with what really happened.
  const early = precheck(planned, req);
  if (!early.ok) return early;
  const spent = await spendStep(rt, req.workflow_id, req.step_id, req.token, approver);
  if (!spent.ok) return spent;
  const step = spent.value;
  const done = await perform(rt, step, req);
  if (!done.ok) {
    rt.store.workflows.finishStep(step.id, { status: "failed", errorCode: done.error.code, errorMessage: done.error.message }, rt.now());
    advance(rt, step.workflowId);
    return done;
  }
  rt.store.workflows.finishStep(step.id, { status: "succeeded", result: done.value, approval: step.approvedBy }, rt.now());
  if (step.step === "fix") rt.store.workflows.update(step.workflowId, { round: step.round }, rt.now());
  advance(rt, step.workflowId);
  return ok({ workflow_id: step.workflowId, step_id: step.id, step: step.step, status: "succeeded", approval: step.approvedBy, result: done.value });
}

function precheck(step: StepRecord, req: RecordHostRequest): Result<void> {
  if (step.step === "test") {
    const t = req.test;
    if (!t) return fail("invalid_arguments", "A test step records test: {command, exit_code, status, output, duration_ms}.");
    if (t.status === "pass" && t.exit_code !== 0)
      return fail(
        "test_report_inconsistent",
        `A pass needs exit code 0; ${t.exit_code === undefined ? "no exit code was read (a skipped, denied or killed command)" : `the command returned ${t.exit_code}`}.`,
      );
    if (t.status === "fail" && t.exit_code === 0) return fail("test_report_inconsistent", "A fail cannot have exit code 0.");
  }
  if (step.step === "synthesize" && !req.synthesis)
    return fail(
      "invalid_arguments",
      "A synthesize step records synthesis: the review_finalize fields (summary, recommendation, checked, not_checked, combined_findings, agreements, disagreements).",
    );
  return { ok: true, value: undefined };
}

async function perform(rt: Runtime, step: StepRecord, req: RecordHostRequest): Promise<Result<StepResult>> {
  const wf = rt.store.workflows.get(step.workflowId);
  if (!wf) return fail("unknown_workflow", `Workflow ${step.workflowId} disappeared.`);
  if (step.step === "apply_patch") return applied(rt, step, wf.workdir);
  if (step.step === "test" && req.test) return ok({ report: testReport(req.test, wf.workdir, wf.currentCommit) });
  if (step.step === "synthesize" && req.synthesis) return synthesized(rt, step.workflowId, req.synthesis);
  return ok({ text: req.text ?? "" });
}

/** The only evidence a patch was applied is a commit that was not there before. */
async function applied(rt: Runtime, step: StepRecord, workdir: string): Promise<Result<StepResult>> {
  const head = await headCommit(workdir);
  if (!head.ok) return fail("workdir_not_git", `Cannot read HEAD of ${workdir}: ${head.message}`);
  if (head.value === step.commitBefore)
    return fail("apply_not_committed", `HEAD of ${workdir} is still ${head.value.slice(0, 12)}, the commit this step started from: the step is marked failed.`);
  rt.store.workflows.update(step.workflowId, { currentCommit: head.value }, rt.now());
  return ok({ commit: head.value, from: step.commitBefore });
}

function testReport(t: HostTest, workdir: string, commit: string): TestReport {
  return {
    command: t.command,
    cwd: t.cwd ? resolve(workdir, t.cwd) : workdir,
    exit_code: t.exit_code ?? null,
    status: t.status,
    output: t.output.length > MAX_OUTPUT ? t.output.slice(-MAX_OUTPUT) : t.output,
    duration_ms: t.duration_ms,
    commit,
    reported_by: "host",
    provenance: "host-attested: recorded through workflow_record_host_step; orchestrate did not run the command",
  };
}

function synthesized(rt: Runtime, workflowId: string, synthesis: Omit<FinalizeRequest, "review_id">): Result<StepResult> {
  const review = latestReview(rt, workflowId);
  if (!review) return fail("review_not_finalized", "This workflow has no review to synthesize: run the review step first.");
  const done = finalizeReview(rt, { review_id: review.id, ...synthesis });
  if (!done.ok) return done;
  return ok({ review_id: review.id, not_carried: done.value.not_carried });
}
