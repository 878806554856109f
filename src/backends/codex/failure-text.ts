/** codex's failure wordings (docs/backends/codex.md, "Failures"), shared by the parser and the classifier. */
import type { FailureClass } from "../contract.ts";
import { failureFromText } from "../events.ts";

const AUTH = /\b401\b|unauthorized|missing bearer|incorrect api key|invalid_api_key|not logged in|refresh token|token (?:has )?expired/i;
const CAPACITY = /\b429\b|too many requests|usage limit|rate limit|at capacity|high demand|\b50[23]\b|\b529\b|overloaded|service unavailable|quota/i;
const TRANSPORT =
  /stream disconnected|failed to lookup address|name does not resolve|connection failed|error sending request|connection refused|connection reset|waiting for network|dns error|tls handshake|timed out/i;

/** Recognizable failure wordings of 0.171.0 and public issues (docs/backends/codex.md, "Failures"). */
export function codexFailureFromText(text: string): FailureClass | undefined {
  return failureFromText(text, { auth: AUTH, capacity: CAPACITY, transport: TRANSPORT });
}
