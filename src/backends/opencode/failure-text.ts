/**
 * opencode's failure wordings (docs/backends/opencode.md, "Failures"), shared by the parser, the
 * classifier and the ACP profile.
 */
import type { FailureClass } from "../contract.ts";
import { failureFromText } from "../events.ts";

export const AUTH_TEXT = /invalid[ _]api[ _]key|incorrect api key|unauthori[sz]ed|authentication (failed|error)|invalid x-api-key|no credentials/i;
export const CAPACITY_TEXT = /rate[ _]limit|too many requests|overloaded|quota|capacity|usage limit|resource[ _]exhausted/i;
export const TRANSPORT_TEXT =
  /cannot connect to api|unable to connect|ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|fetch failed|socket hang up|network error/i;

export function textFailure(text: string): FailureClass | undefined {
  return failureFromText(text, { auth: AUTH_TEXT, capacity: CAPACITY_TEXT, transport: TRANSPORT_TEXT });
}
