/** The review job kind: how a review run (or retry) reads as a tool answer, live or read back from the store. */
import { outcomeOf, shapedKind } from "../../jobs/shaped.ts";
import { formatReview, type ReviewOutput } from "./format.ts";

export const reviewKind = shapedKind(
  (outcome: ReviewOutput) => {
    const { ok, error, ...data } = outcome;
    return outcomeOf(ok, error, data, formatReview(outcome), "review");
  },
  async () => (await import("./schema.ts")).reviewOutput,
);
