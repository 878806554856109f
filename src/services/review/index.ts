/** The review feature's face to the other features (workflow, jobs): plan → run → finalize. */
export { planReview } from "./plan.ts";
export { approveRun, runReviewers, type Approver, type ReviewJobRequest, type ReviewOutcome } from "./run.ts";
export { finalizeReview, type FinalizeRequest } from "./finalize.ts";
