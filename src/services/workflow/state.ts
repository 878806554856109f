/** Reading a workflow back: its snapshot, its next step, its latest review row, and moving its status when the loop ends. */
import type { ReviewRecord } from "../../store/reviews.ts";
import type { WorkflowRecord } from "../../store/workflows.ts";
import type { Runtime } from "../shared/runtime.ts";
import { loopChecks, loopDone, nextStep, type Next } from "./order.ts";
import type { WorkflowSnapshot } from "./snapshot.ts";

export function snapshotOf(wf: WorkflowRecord): WorkflowSnapshot | undefined {
  return isSnapshot(wf.snapshot) ? wf.snapshot : undefined;
}

function isSnapshot(value: unknown): value is WorkflowSnapshot {
  return (
    typeof value === "object" &&
    value !== null &&
    "bindings" in value &&
    "policy" in value &&
    "host" in value &&
    typeof value.bindings === "object" &&
    typeof value.policy === "object"
  );
}

/** The review row of the workflow's latest review step: findings are read from there, never copied into workflow storage. */
export function latestReview(rt: Runtime, workflowId: string): ReviewRecord | undefined {
  const step = [...rt.store.workflows.steps(workflowId)]
    .reverse()
    .find((s) => s.step === "review" && s.reviewId && s.status !== "planned" && s.status !== "cancelled");
  return step?.reviewId ? rt.store.reviews.get(step.reviewId) : undefined;
}

export function currentNext(rt: Runtime, wf: WorkflowRecord): Next {
  const snapshot = snapshotOf(wf);
  if (!snapshot) return { end: "needs_attention" };
  const steps = rt.store.workflows.steps(wf.id);
  return nextStep(wf, steps, snapshot, () => loopDone(loopChecks(wf, steps, latestReview(rt, wf.id))));
}

/** After a step: a loop that is done completes the workflow; the cap with the loop not done ends it needs_attention. */
export function advance(rt: Runtime, workflowId: string): void {
  const wf = rt.store.workflows.get(workflowId);
  if (!wf || wf.status !== "active") return;
  const next = currentNext(rt, wf);
  if ("end" in next) rt.store.workflows.update(wf.id, { status: next.end }, rt.now());
}
