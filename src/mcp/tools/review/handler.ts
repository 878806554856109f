/** The review tools' handlers, typed by their schemas: call the review services, shape the reply. Never throw. */
import type { ToolContext } from "../../define.ts";
import type { ToolOutcome } from "../../outcome.ts";
import type { Result } from "../../../result.ts";
import { resolveHost } from "../../../services/consult/target.ts";
import { planReview } from "../../../services/review/plan.ts";
import { approveRun, cancelReview, prepareRetry, type Approver, type ReviewJobRequest } from "../../../services/review/run.ts";
import { finalizeReview } from "../../../services/review/finalize.ts";
import { getReview, listReviews, type ReviewView } from "../../../services/review/views.ts";
import type { Runtime } from "../../../services/shared/runtime.ts";
import { runAsJob } from "../../jobs/bridge.ts";
import { withRuntime } from "../runtime.ts";
import { formatPlan, formatReview, formatReviewList } from "./format.ts";
import { reviewKind } from "./kind.ts";
import type { reviewFinalizeInput, reviewIdInput, reviewInput, reviewListInput, reviewRetryInput, reviewRunInput } from "./schema.ts";

export function review(input: typeof reviewInput.infer, ctx: ToolContext): Promise<ToolOutcome> {
  return withRuntime(async (rt) => {
    const host = resolveHost(rt, ctx.clientName);
    if (!host.ok) return { ok: false, error: host.error };
    const plan = await planReview(rt, input, host.value);
    if (!plan.ok) return { ok: false, error: plan.error };
    const data = { ...plan.value, approval: ctx.elicit ? ("elicitation" as const) : ("token" as const) };
    return { ok: true, data, text: formatPlan({ ok: true, ...data }) };
  });
}

/** Approval happens here, while the call is live (elicitation needs it); the reviewers then run as a job. */
export function reviewRun(input: typeof reviewRunInput.infer, ctx: ToolContext): Promise<ToolOutcome> {
  const { background, ...request } = input;
  const elicit = ctx.elicit;
  const approver: Approver | undefined = elicit ? { kind: "elicitation", ask: (question) => elicit(question) } : undefined;
  return withRuntime(async (rt) => asJob(rt, ctx, await approveRun(rt, request, approver), background === true));
}

export function reviewRetry(input: typeof reviewRetryInput.infer, ctx: ToolContext): Promise<ToolOutcome> {
  return withRuntime((rt) => asJob(rt, ctx, prepareRetry(rt, input.review_id, input.reviewers), input.background === true));
}

function asJob(rt: Runtime, ctx: ToolContext, prepared: Result<ReviewJobRequest>, background: boolean): Promise<ToolOutcome> | ToolOutcome {
  if (!prepared.ok) return { ok: false, error: prepared.error };
  const { review_id, agents, secrets } = prepared.value;
  return runAsJob(rt, ctx, { kind: "review", request: { review_id, agents, secrets }, background }, reviewKind);
}

export function reviewGet(input: typeof reviewIdInput.infer): Promise<ToolOutcome> {
  return withRuntime((rt) => viewOutcome(getReview(rt, input.review_id)));
}

export function reviewCancel(input: typeof reviewIdInput.infer): Promise<ToolOutcome> {
  return withRuntime((rt) => viewOutcome(cancelReview(rt, input.review_id)));
}

export function reviewFinalize(input: typeof reviewFinalizeInput.infer): Promise<ToolOutcome> {
  return withRuntime((rt) => viewOutcome(finalizeReview(rt, input)));
}

export function reviewList(input: typeof reviewListInput.infer): Promise<ToolOutcome> {
  return withRuntime((rt) => {
    const reviews = listReviews(rt, { ...(input.status ? { status: input.status } : {}), ...(input.limit ? { limit: input.limit } : {}) });
    return { ok: true, data: { reviews }, text: formatReviewList({ ok: true, reviews }) };
  });
}

function viewOutcome(out: Result<ReviewView & { not_carried?: string[] }>): ToolOutcome {
  if (!out.ok) return { ok: false, error: out.error };
  return { ok: true, data: { ...out.value }, text: formatReview({ ok: true, ...out.value }) };
}
