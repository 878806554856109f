/**
 * Closed vocabularies of the stored records, each written once and imported by nothing: the store's
 * types, the tools' schemas (mcp/tools/shared.ts, mcp/tools/review/schema.ts,
 * mcp/tools/workflow/schema.ts) and the reviewer's reply contract (services/review/envelope.ts) all
 * read these lists, so a new status or severity is added in one place and the compiler finds the rest.
 */
export const REVIEW_STATUSES = [
  "planned",
  "approving",
  "running",
  "awaiting_synthesis",
  "incomplete",
  "finalized",
  "declined",
  "cancelled",
  "stale",
  "expired",
] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export const SEVERITIES = ["critical", "important", "minor"] as const;
export type Severity = (typeof SEVERITIES)[number];

export const DISPOSITIONS = ["open", "fixed", "rejected", "accepted_risk"] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

export const STEP_STATUSES = ["planned", "running", "awaiting_host_apply", "succeeded", "failed", "cancelled"] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];
