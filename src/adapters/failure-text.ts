import type { FailureClass } from "./types.ts";

/** Each CLI's own wording of the three "unavailable" failures. */
export interface FailurePatterns {
  auth: RegExp;
  capacity: RegExp;
  transport: RegExp;
}

/** The unavailable class an error text reads as, checked auth → capacity → transport; else undefined. */
export function failureFromText(text: string, patterns: FailurePatterns): FailureClass | undefined {
  if (patterns.auth.test(text)) return "auth";
  if (patterns.capacity.test(text)) return "capacity";
  if (patterns.transport.test(text)) return "transport";
  return undefined;
}
