/**
 * copilot's failure wordings and error types (docs/backends/copilot.md, "Failures"), shared by
 * the parser (`session.error`) and the classifier (stderr).
 */
import type { FailureClass } from "../contract.ts";

/** `session.error` errorType (authentication | rate_limit | query | …) plus status and text. */
export function copilotErrorClass(errorType: string | undefined, status: number, message: string): FailureClass {
  if (errorType === "authentication" || status === 401 || status === 403) return "auth";
  if (errorType === "rate_limit" || status === 429) return "capacity";
  if ([500, 502, 503, 504, 529].includes(status) || /overloaded|capacity|quota/i.test(message)) return "capacity";
  if (TRANSPORT_RE.test(message)) return "transport";
  return "task_failed";
}

export const TRANSPORT_RE =
  /network fetch failed|fetch failed|ECONNREFUSED|ENOTFOUND|ETIMEDOUT|ECONNRESET|getaddrinfo|socket hang up|Connection error|error sending request/i;
