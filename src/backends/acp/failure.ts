/**
 * How an ACP agent's errors read. ACP reserves -32000 for "authentication required" (gemini,
 * copilot, codex-acp and qwen answer `session/new` with it when signed out; claude-agent-acp the
 * first prompt); gemini puts the HTTP status in the JSON-RPC code (429, 503); the rest use -32603
 * with the provider's words in the message or data. Those words are read with the agent's own
 * patterns first, then with the common ones below.
 */
import type { FailureClass, FailurePatterns } from "../contract.ts";
import { failureFromText } from "../events.ts";
import type { AcpRecord } from "./records.ts";

const AUTH_REQUIRED = -32000;
const CAPACITY_STATUS = new Set([429, 500, 502, 503, 504, 529]);

export const COMMON_PATTERNS: FailurePatterns = {
  auth: /authentication required|not (?:signed|logged) in|api key is missing|invalid api key|unauthori[sz]ed|\b401\b|credentials/i,
  capacity: /\b(?:429|503|529)\b|rate.?limit|too many requests|overloaded|resource (?:has been )?exhausted|quota|capacity/i,
  transport: /ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|fetch failed|socket hang up|cannot connect to api|network error/i,
};

export function acpFailure(record: Extract<AcpRecord, { acp: "error" }>, patterns: FailurePatterns | undefined): FailureClass | undefined {
  if (record.code === AUTH_REQUIRED) return "auth";
  if (record.code !== undefined && CAPACITY_STATUS.has(record.code)) return "capacity";
  return failureText(`${record.message} ${record.data ?? ""}`, patterns);
}

export function failureText(text: string, patterns: FailurePatterns | undefined): FailureClass | undefined {
  return (patterns ? failureFromText(text, patterns) : undefined) ?? failureFromText(text, COMMON_PATTERNS);
}
