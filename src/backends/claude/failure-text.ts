/**
 * claude's failure wordings and error kinds (docs/backends/claude.md, "Failure wordings"), shared
 * by the parser (assistant errors, failed results) and the classifier (raw stdout).
 */
import type { FailureClass } from "../contract.ts";

const ERROR_KINDS: Record<string, FailureClass> = {
  authentication_failed: "auth",
  rate_limit: "capacity",
  overloaded: "capacity",
  billing_error: "capacity",
};

const AUTH = /not logged in|please run \/login|invalid api key|oauth token|authentication_error|invalid x-api-key/i;
const CAPACITY = /rate limit|\b429\b|hit your limit|usage limit|overloaded|\b529\b|\b50[023]\b|credit balance is too low/i;
const TRANSPORT = /can't reach the api server|unable to connect|enotfound|econnrefused|connectionrefused|econnreset|fetch failed|socket hang up|network/i;

/** From the assistant `error` kind, the HTTP status, `api_error` and finally the text (docs/backends/claude.md, "Failure wordings"). */
export function claudeFailureOf(kind: string | undefined, status: number | undefined, apiError: string | undefined, text: string): FailureClass | undefined {
  if (kind && ERROR_KINDS[kind]) return ERROR_KINDS[kind];
  if (status === 401 || status === 403) return "auth";
  if (status === 429 || status === 529 || status === 503 || status === 500 || status === 502) return "capacity";
  if (apiError === "connection_failed") return "transport";
  if (AUTH.test(text)) return "auth";
  if (CAPACITY.test(text)) return "capacity";
  if (TRANSPORT.test(text)) return "transport";
  return undefined;
}
