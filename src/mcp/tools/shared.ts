/**
 * arktype definitions shared by the tools' schemas. This module (like every tools/<group>/schema.ts)
 * imports arktype, so it is loaded lazily — at build time to generate the wire JSON Schemas, and at
 * the first tool call to validate arguments — never on the startup path.
 */
import { type } from "arktype";
import { ERROR_CODE_LIST } from "../../errors.ts";
import { TIERS } from "../../config/types.ts";
import { DISPOSITIONS, SEVERITIES } from "../../store/vocabulary.ts";

export const tier = type.enumerated(...TIERS);
export const severity = type.enumerated(...SEVERITIES);
export const disposition = type.enumerated(...DISPOSITIONS);

/** Every reply's error.code is one of the closed set, advertised as an enum. */
export const errorInfo = type({
  code: type.enumerated(...ERROR_CODE_LIST),
  message: "string",
  "hint?": "string",
});

export const usage = type({
  "inputTokens?": "number",
  "outputTokens?": "number",
  "cachedInputTokens?": "number",
  "costUsd?": "number",
  /** costUsd was computed from the model's price: the CLI reports tokens but no cost (docs/cost.md). */
  "costEstimated?": "boolean",
  "turns?": "number",
});

/** A cost figured before sending (services/shared/price.ts): usd absent = the model has no price, unknown. */
export const costEstimate = type({
  estimate: "true",
  method: "string",
  inputTokens: "number",
  maxOutputTokens: "number",
  outputBound: "'limit' | 'typical'",
  price: "'config' | 'catalog' | 'unknown'",
  "usdLow?": "number",
  "usdHigh?": "number",
});

/** A plan's cost: each recipient's estimate and their sum (unknown as soon as one is). */
export const planCost = type({
  reviewers: costEstimate.and({ id: "string" }).array(),
  total: { price: "'known' | 'unknown'", "usdLow?": "number", "usdHigh?": "number" },
});

/** Returned instead of a result when a call continues in the background. */
export const jobRef = type({
  id: "string",
  status: "string",
  instruction: "string",
});
