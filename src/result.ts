/** Results at the service boundary: failures are values with a stable code, never thrown. */
import type { ErrorCode } from "./errors.ts";

/** `code` is one of the closed set in errors.ts: the compiler refuses any other string. */
export interface Failure<C extends ErrorCode = ErrorCode> {
  code: C;
  message: string;
  /** What the person or the calling model should do next. */
  hint?: string;
  details?: Record<string, unknown>;
}

/**
 * How a service call ended, beside whatever else its answer carries: a failure always has its error,
 * a success never has one. Intersect it with the answer's fields (`RouteFields & Settled`).
 */
export type Settled = { ok: true; error?: never } | { ok: false; error: Failure };

export type Result<T, C extends ErrorCode = ErrorCode> = { ok: true; value: T } | { ok: false; error: Failure<C> };

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function fail<C extends ErrorCode>(code: C, message: string, hint?: string, details?: Record<string, unknown>): { ok: false; error: Failure<C> } {
  return { ok: false, error: { code, message, ...(hint ? { hint } : {}), ...(details ? { details } : {}) } };
}

/**
 * A failure as one block of text, the way every reply and shell command prints it:
 * `Error [code]: message`, then `Next: hint` on its own line when there is one.
 */
export function errorText(error: { code: string; message: string; hint?: string | undefined }): string {
  return `Error [${error.code}]: ${error.message}${error.hint ? `\nNext: ${error.hint}` : ""}`;
}
