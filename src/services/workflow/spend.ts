/** Spending a step's one-time token: single use, bound to the previewed snapshot, and put to the person where the client can ask. */
import { fail, ok, type Result } from "../../result.ts";
import type { StepRecord } from "../../store/workflows.ts";
import { bindToken, digest, sameDigest } from "../shared/tokens.ts";
import type { Runtime } from "../shared/runtime.ts";
import { stepSnapshot } from "./plan.ts";

export interface StepApprover {
  ask: (question: string) => Promise<"accept" | "decline" | "failed">;
}

export async function spendStep(
  rt: Runtime,
  workflowId: string,
  stepId: string,
  token: string,
  approver: StepApprover | undefined,
): Promise<Result<StepRecord & { approvedBy: "elicitation" | "token" }>> {
  const wf = rt.store.workflows.get(workflowId);
  if (!wf) return fail("unknown_workflow", `No workflow "${workflowId}" is stored here.`);
  if (wf.status !== "active") return fail("workflow_wrong_state", `Workflow ${wf.id} is ${wf.status}.`);
  const out = rt.store.workflows.spend(stepId, digest(token), rt.now());
  if (out.outcome === "unknown") return fail("invalid_token", `No step "${stepId}" is planned in workflow ${workflowId}.`);
  if (out.outcome === "expired") return fail("invalid_token", `Step ${stepId}'s token expired; nothing ran.`, "Plan the step again for a new token.");
  if (out.outcome === "wrong_state") return fail("workflow_wrong_state", `Step ${stepId} is ${out.status}, not waiting to run.`);
  if (out.outcome !== "spent") return fail("invalid_token", `That token does not run step ${stepId}: it is not this preview's, or it was already used.`);
  const step = out.step;
  if (step.workflowId !== workflowId) return fail("invalid_token", `Step ${stepId} belongs to another workflow.`);
  // The review step's binding is the review's own (checked by the review service when it runs).
  if (step.tokenBinding !== "review" && !sameDigest(bindToken(token, stepSnapshot(step)), step.tokenBinding)) {
    rt.store.workflows.finishStep(step.id, { status: "cancelled", errorCode: "invalid_token", errorMessage: "token binding mismatch" }, rt.now());
    return fail("invalid_token", `Step ${stepId}'s token is not bound to what was previewed; nothing ran.`);
  }
  if (!approver || step.tokenBinding === "review") return ok({ ...step, approvedBy: "token" });
  const answer = await approver
    .ask(
      `Run workflow step ${step.step} (round ${step.round})${step.agentId ? ` with ${step.agentId} in ${step.execution} mode` : " as the host"}? Context: ${step.context?.length ?? 0} characters; prompt sha256 ${step.promptSha256.slice(0, 12)}.`,
    )
    .catch(() => "failed" as const);
  if (answer === "accept") return ok({ ...step, approvedBy: "elicitation" });
  rt.store.workflows.finishStep(step.id, { status: "cancelled", errorCode: "step_declined", errorMessage: answer }, rt.now());
  return fail(answer === "decline" ? "step_declined" : "approval_failed", `Step ${step.step} was not approved (${answer}); nothing ran.`);
}
