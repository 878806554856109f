/**
 * Step three: the host's synthesis, refused when it loses a critical finding. Every critical
 * finding of every reviewer (and of the host) must be carried, by id, into a combined finding that
 * is itself critical — even when other reviewers disagree; disagreement is a disposition with a
 * reason, not an omission. Rejecting or accepting the risk of a critical or important finding needs
 * a reason. Reviewer replies alone never finalize: the review stays awaiting_synthesis until this.
 */
import { fail, ok, type Result } from "../../result.ts";
import type { Disposition, FindingRecord, ReviewRecord, Severity } from "../../store/reviews.ts";
import { release } from "./scope.ts";
import { reviewView, type ReviewView } from "./views.ts";
import type { Runtime } from "../shared/runtime.ts";

export interface CombinedFinding {
  severity: Severity;
  claim: string;
  location?: string;
  evidence?: string;
  /** The ids of the findings this one carries (F… from reviewers, H… from the host). */
  sources: string[];
  disposition?: Disposition;
  reason?: string;
}

export interface FinalizeRequest {
  review_id: string;
  summary: string;
  recommendation: string;
  checked: string[];
  not_checked: string[];
  combined_findings: CombinedFinding[];
  agreements: string[];
  disagreements: string[];
}

export type Finalized = ReviewView & { not_carried: string[] };

const RANK: Record<Severity, number> = { critical: 3, important: 2, minor: 1 };
const NEEDS_REASON = new Set<Disposition>(["rejected", "accepted_risk"]);

export function finalizeReview(rt: Runtime, req: FinalizeRequest): Result<Finalized> {
  const record = rt.store.reviews.get(req.review_id);
  if (!record) return fail("unknown_review", `No review "${req.review_id}" is stored here.`);
  const ready = readyToFinalize(record);
  if (!ready.ok) return ready;
  const dispositions = checkSynthesis(record.findings, req.combined_findings);
  if (!dispositions.ok) return dispositions;
  const { review_id: _id, ...synthesis } = req;
  if (!rt.store.reviews.finalize(record.id, synthesis, dispositions.value, rt.now()))
    return fail("review_wrong_state", `Review ${record.id} changed state while it was finalized; call review_get.`);
  release(record.id);
  const carried = new Set(req.combined_findings.flatMap((c) => c.sources));
  const view = reviewView(rt.store.reviews.get(record.id) ?? record);
  return ok({ ...view, not_carried: record.findings.filter((f) => !carried.has(f.id)).map((f) => f.id) });
}

function readyToFinalize(record: ReviewRecord): Result<void> {
  if (record.status === "awaiting_synthesis") return ok(undefined);
  if (record.status === "incomplete") {
    const stuck = record.reviewers.filter((r) => r.status !== "answered").map((r) => `${r.agentId} (${r.status})`);
    return fail("review_incomplete", `Review ${record.id} cannot be finalized: not every reviewer's findings were read (${stuck.join(", ")}).`);
  }
  return fail("review_wrong_state", `Review ${record.id} is ${record.status}; only a review awaiting synthesis is finalized.`);
}

/** The dispositions to record, or why the synthesis is refused. */
export function checkSynthesis(
  findings: readonly FindingRecord[],
  combined: readonly CombinedFinding[],
): Result<{ id: string; disposition: Disposition; reason?: string }[]> {
  const byId = new Map(findings.map((f) => [f.id, f]));
  const unknown = [...new Set(combined.flatMap((c) => c.sources).filter((id) => !byId.has(id)))];
  if (unknown.length > 0) return fail("unknown_finding", `No finding ${unknown.join(", ")} in this review.`);
  const keptCritical = new Set(combined.filter((c) => c.severity === "critical").flatMap((c) => c.sources));
  const dropped = findings.filter((f) => f.severity === "critical" && !keptCritical.has(f.id)).map((f) => f.id);
  if (dropped.length > 0) {
    return fail(
      "critical_finding_dropped",
      `The synthesis loses critical finding${dropped.length === 1 ? "" : "s"} ${dropped.join(", ")}: each must appear in the sources of a critical combined finding, even if another reviewer disagrees.`,
      undefined,
      { finding_ids: dropped },
    );
  }
  const out = new Map<string, { id: string; disposition: Disposition; reason?: string }>();
  for (const c of combined) {
    const disposition = c.disposition ?? "open";
    const worst = Math.max(RANK[c.severity], ...c.sources.map((id) => RANK[byId.get(id)?.severity ?? "minor"]));
    if (NEEDS_REASON.has(disposition) && worst >= RANK.important && !c.reason?.trim()) {
      return fail(
        "disposition_reason_required",
        `Combined finding "${c.claim.slice(0, 80)}" is ${disposition} but carries a ${worst === RANK.critical ? "critical" : "important"} finding (${c.sources.join(", ")}) and gives no reason.`,
      );
    }
    for (const id of c.sources) {
      const prior = out.get(id);
      if (prior && prior.disposition !== disposition)
        return fail(
          "invalid_arguments",
          `Finding ${id} is given two dispositions (${prior.disposition} and ${disposition}).`,
          "Carry each finding into combined findings that agree on its disposition.",
        );
      out.set(id, { id, disposition, ...(c.reason?.trim() ? { reason: c.reason.trim() } : {}) });
    }
  }
  return ok([...out.values()]);
}
