/**
 * gemini's failure wordings (docs/backends/gemini.md, "Failures"), shared by the parser, the
 * classifier and the ACP profile.
 */
import type { FailureClass } from "../contract.ts";
import { failureFromText } from "../events.ts";

export const AUTH_TEXT = /API key not valid|UNAUTHENTICATED|PERMISSION_DENIED|Please set an Auth method|Invalid auth method|"code":\s*40[13]\b/i;
export const CAPACITY_TEXT =
  /Resource has been exhausted|RESOURCE_EXHAUSTED|exhausted your daily quota|quota|rate limit|overloaded|high traffic|"code":\s*(429|503)\b/i;
export const TRANSPORT_TEXT = /fetch failed|ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|socket hang up|network error/i;

/**
 * Since 2026-06-18 gemini no longer serves individual Google accounts (AI Pro/Ultra, free Code
 * Assist for individuals): the token is accepted, the client refused on tier, exit 1 with
 * `IneligibleTierError: This client is no longer supported for Gemini Code Assist for
 * individuals…` on stderr (docs/backends/gemini.md, "Failures"; gemini 0.58–0.60; exit 55 in ACP mode). A Workspace
 * account reads `IneligibleTierError: DASHER_USER`. Both are sign-in failures.
 */
const RETIRED_TIER = /IneligibleTierError|UNSUPPORTED_CLIENT|no longer supported for Gemini Code Assist for individuals|migrate to the Antigravity suite/i;
export const INDIVIDUALS_RETIRED = /UNSUPPORTED_CLIENT|no longer supported for Gemini Code Assist for individuals|migrate to the Antigravity suite/i;

export function textFailure(text: string): FailureClass | undefined {
  if (RETIRED_TIER.test(text)) return "auth";
  return failureFromText(text, { auth: AUTH_TEXT, capacity: CAPACITY_TEXT, transport: TRANSPORT_TEXT });
}
