/**
 * arktype definitions shared by the tools' schemas. This module (like every tools/<group>/schema.ts)
 * imports arktype, so it is loaded lazily — at build time to generate the wire JSON Schemas, and at
 * the first tool call to validate arguments — never on the startup path.
 */
import { type } from "arktype";

export const tier = type("'light' | 'standard' | 'heavy'");

export const errorInfo = type({
  code: "string",
  message: "string",
  "hint?": "string",
});

export const usage = type({
  "inputTokens?": "number",
  "outputTokens?": "number",
  "cachedInputTokens?": "number",
  "costUsd?": "number",
  "turns?": "number",
});

/** Returned instead of a result when a call continues in the background. */
export const jobRef = type({
  id: "string",
  status: "string",
  instruction: "string",
});
