import { type } from "arktype";
import { REVIEW_STATUSES } from "../../../store/vocabulary.ts";
import { planCost, disposition, errorInfo, jobRef, severity } from "../shared.ts";

const reviewId = type("0 < string <= 64");
const agentId = type("0 < string <= 128");
const lines = type("string <= 10000").array().atMostLength(200);

const material = type({ "+": "reject", text: "string <= 2000000", "label?": "0 < string <= 200" }).or({
  "+": "reject",
  path: "0 < string <= 4096",
  "start_line?": "number.integer >= 1",
  "end_line?": "number.integer >= 1",
});

const hostFinding = type({ "+": "reject", severity, claim: "0 < string <= 20000", "location?": "string <= 1000", "evidence?": "string <= 20000" });

export const reviewInput = type({
  "+": "reject",
  goal: "0 < string <= 20000",
  mode: "'standard' | 'deep'",
  material: material.array().atLeastLength(1).atMostLength(100),
  "context?": "string <= 200000",
  "web?": "boolean",
  "reviewers?": agentId.array().atLeastLength(1).atMostLength(5),
});

export const reviewRunInput = type({
  "+": "reject",
  review_id: reviewId,
  token: "0 < string <= 128",
  "host_findings?": hostFinding.array().atMostLength(200),
  "secrets?": "'mask' | 'send_as_is'",
  "background?": "boolean",
});

export const reviewRetryInput = type({
  "+": "reject",
  review_id: reviewId,
  "reviewers?": agentId.array().atLeastLength(1).atMostLength(5),
  "background?": "boolean",
});

export const reviewIdInput = type({ "+": "reject", review_id: reviewId });

export const reviewListInput = type({
  "+": "reject",
  "status?": type.enumerated(...REVIEW_STATUSES),
  "limit?": "1 <= number.integer <= 200",
});

const combinedFinding = type({
  "+": "reject",
  severity,
  claim: "0 < string <= 20000",
  "location?": "string <= 1000",
  "evidence?": "string <= 20000",
  sources: type("0 < string <= 16").array().atMostLength(200),
  "disposition?": disposition,
  "reason?": "string <= 5000",
});

export const reviewFinalizeInput = type({
  "+": "reject",
  review_id: reviewId,
  summary: "0 < string <= 50000",
  recommendation: "0 < string <= 10000",
  checked: lines,
  not_checked: lines,
  combined_findings: combinedFinding.array().atMostLength(500),
  agreements: lines,
  disagreements: lines,
});

const identity = { id: "string", backend: "string", model: "string | null" } as const;

export const reviewPlanOutput = type({
  ok: "boolean",
  "review_id?": "string",
  "mode?": "'standard' | 'deep'",
  "reviewers?": type(identity).array(),
  "excluded?": type({ id: "string", why: "string" }).array(),
  "merged?": type({ id: "string", same_as: "string" }).array(),
  "material?": type({
    items: type({ label: "string", chars: "number", lines: "number" }).array(),
    total: type({ items: "number", chars: "number", lines: "number", approx_tokens: "number" }),
  }),
  "web?": type({
    requested: "boolean",
    granted: "boolean",
    "reviewers?": type({ id: "string", granted: "boolean", "why?": "string" }).array(),
    "note?": "string",
  }),
  "requests?": type({ reviewers: "number", at_most: "number" }),
  "cost?": planCost,
  "secrets?": type({ where: "string", line: "number", column: "number", kind: "string" }).array(),
  "token?": "string",
  "expires_at?": "string",
  "approval?": "'elicitation' | 'token'",
  "error?": errorInfo,
});

const reviewerView = type({
  ...identity,
  status: "string",
  attempts: "number",
  summary: "string | null",
  "reply?": "string",
  "error?": type({ code: "string", message: "string" }),
  model_verification: "string | null",
  latency_ms: "number | null",
  findings: "string[]",
});

const findingView = type({
  id: "string",
  source: "'reviewer' | 'host'",
  reviewer: "string | null",
  severity,
  location: "string | null",
  claim: "string | null",
  evidence: "string | null",
  disposition,
  reason: "string | null",
});

/** One review as review_run, review_retry, review_get, review_cancel and review_finalize answer it. */
export const reviewOutput = type({
  ok: "boolean",
  "review_id?": "string",
  "mode?": "'standard' | 'deep'",
  "status?": "string",
  "approval?": "'elicitation' | 'token' | 'terminal' | null",
  "secrets?": "'mask' | 'send_as_is' | null",
  "goal?": "string | null",
  "plan?": "unknown",
  "reviewers?": reviewerView.array(),
  "findings?": findingView.array(),
  "synthesis?": "unknown",
  "not_carried?": "string[]",
  "next?": "string",
  /** store_unavailable: the history store refused a record after a reviewer answered. */
  "store_notice?": "string",
  "job?": jobRef,
  "error?": errorInfo,
});

export const reviewListOutput = type({
  ok: "boolean",
  "reviews?": type({
    id: "string",
    mode: "'standard' | 'deep'",
    status: "string",
    reviewers: "string[]",
    findings: type({ critical: "number", important: "number", minor: "number" }),
    createdAt: "number",
    updatedAt: "number",
  }).array(),
  "error?": errorInfo,
});
