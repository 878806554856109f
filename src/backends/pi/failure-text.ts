/**
 * pi's failure wordings (docs/backends/pi.md, "Failures and retries"), as `errorMessage` of a
 * failed assistant message
 * or as stderr before exit 1. 0.73 writes `<status> <message>` (`429 Rate limit reached for
 * requests. …`, `529 {"type":"error","error":{"type":"overloaded_error",…}}`), 1.x writes
 * `<status>: <json body>` (`401: {"message":"Incorrect API key provided: dummy.",…,"code":
 * "invalid_api_key"}`); the status leads either way. Without credentials pi says `No API key
 * found for the selected model.` (or `… for <provider>.`) on stderr and exits 1.
 */
import type { FailureClass } from "../contract.ts";
import { failureFromText } from "../events.ts";

const AUTH =
  /^\s*40[13]\b|No API key found|Incorrect API key|invalid_api_key|authentication_error|permission_error|unauthori[sz]ed|credentials_not_configured|OAuth token (?:has )?expired/im;
/** The statuses and words pi's own retry rule treats as transient server-side trouble (docs/backends/pi.md). */
const CAPACITY =
  /^\s*(?:429|500|502|503|504|529)\b|rate.?limit|too many requests|overloaded|server_overloaded|service.?unavailable|resource.?exhausted|insufficient_quota|quota exceeded/im;
const TRANSPORT =
  /connection error|network.?error|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|fetch failed|socket hang up|request timed out|\bterminated\b/i;

export function piFailureFromText(text: string): FailureClass | undefined {
  return failureFromText(text, { auth: AUTH, capacity: CAPACITY, transport: TRANSPORT });
}

/** `Error: Unknown option: --no-approve` — the 1.x flags on a 0.73 pi, or a flag this pi lacks. */
export const UNKNOWN_OPTION = /Unknown option: (\S+)/;
/** `Error: Unknown provider "x". Use --list-models …` */
export const UNKNOWN_PROVIDER = /Unknown provider "([^"]*)"/;
/** `No session found matching 'x'` — the session to resume is not in this cwd's session folder. */
export const SESSION_MISSING = /No session found matching '([^']*)'/;
/** A session of another cwd: headless, pi asks to fork it, reads EOF as "no" and exits 0 silently. */
export const SESSION_ELSEWHERE = /Session found in different project/;
/** 1.x started by a Node older than 22.19 (it needs `module.enableCompileCache`). */
export const OLD_NODE = /enableCompileCache|does not provide an export named/;
