/**
 * How a stored review reads to its callers: reviewers with their outcome, findings by id with their
 * disposition, the synthesis once there is one, and what to do next. Deep mode never shows a
 * reviewer's answer before the host's own findings are recorded.
 */
import { fail, ok, type Result } from "../../result.ts";
import type { Approval, Disposition, ReviewMode, ReviewRecord, ReviewStatus, ReviewSummary, SecretsMode, Severity } from "../../store/reviews.ts";
import type { Runtime } from "../shared/runtime.ts";

export interface ReviewerView {
  id: string;
  backend: string;
  model: string | null;
  status: string;
  attempts: number;
  summary: string | null;
  /** What an unparseable reviewer replied, kept so nothing it said is lost. */
  reply?: string;
  error?: { code: string; message: string };
  model_verification: string | null;
  latency_ms: number | null;
  findings: string[];
}

export interface FindingView {
  id: string;
  source: "reviewer" | "host";
  reviewer: string | null;
  severity: Severity;
  location: string | null;
  claim: string | null;
  evidence: string | null;
  disposition: Disposition;
  reason: string | null;
}

export interface ReviewView {
  review_id: string;
  mode: ReviewMode;
  status: ReviewStatus;
  approval: Approval | null;
  secrets: SecretsMode | null;
  goal: string | null;
  plan: unknown;
  reviewers: ReviewerView[];
  findings: FindingView[];
  synthesis: unknown;
  next: string;
}

export function getReview(rt: Runtime, id: string): Result<ReviewView> {
  const record = rt.store.reviews.get(id);
  if (!record) return fail("unknown_review", `No review "${id}" is stored here.`);
  return ok(reviewView(record));
}

export function listReviews(rt: Runtime, opts: { limit?: number; status?: ReviewStatus }): ReviewSummary[] {
  return rt.store.reviews.list(opts);
}

export function reviewView(r: ReviewRecord): ReviewView {
  // Deep mode: the host commits to its own findings before it may read any reviewer's.
  const hidden = r.mode === "deep" && !r.findings.some((f) => f.source === "host");
  const findings = r.findings.filter((f) => !(hidden && f.source === "reviewer"));
  return {
    review_id: r.id,
    mode: r.mode,
    status: r.status,
    approval: r.approval,
    secrets: r.secrets,
    goal: r.goal,
    plan: r.plan,
    reviewers: r.reviewers.map((v) => ({
      id: v.agentId,
      backend: v.backend,
      model: v.model,
      status: v.status,
      attempts: v.attempts,
      summary: hidden ? null : v.summary,
      ...(v.reply !== null && !hidden ? { reply: v.reply } : {}),
      ...(v.errorCode ? { error: { code: v.errorCode, message: v.errorMessage ?? "" } } : {}),
      model_verification: v.modelVerified,
      latency_ms: v.latencyMs,
      findings: findings.filter((f) => f.agentId === v.agentId).map((f) => f.id),
    })),
    findings: findings.map((f) => ({
      id: f.id,
      source: f.source,
      reviewer: f.agentId,
      severity: f.severity,
      location: f.location,
      claim: f.claim,
      evidence: f.evidence,
      disposition: f.disposition,
      reason: f.dispositionReason,
    })),
    synthesis: r.synthesis ?? null,
    next: nextStep(r),
  };
}

function nextStep(r: ReviewRecord): string {
  const stuck = r.reviewers.filter((v) => v.status === "failed" || v.status === "unparseable" || v.status === "cancelled").map((v) => v.agentId);
  switch (r.status) {
    case "planned":
      return "Show this plan to the person; once they agree, call review_run with review_id and token.";
    case "approving":
      return "Waiting for the person to approve the plan.";
    case "running":
      return "Reviewers are answering; wait for the job (job_wait) or call review_get again.";
    case "awaiting_synthesis":
      return "Read every reviewer's findings, then call review_finalize: carry every critical finding id into combined_findings.";
    case "incomplete":
      return `Not every reviewer's findings are in (${stuck.join(", ")}); call review_retry for them before review_finalize.`;
    case "finalized":
      return "Finalized; nothing left to do.";
    default:
      return `The review is ${r.status}; plan a new one with the review tool if it is still needed.`;
  }
}
