/** Results at the service boundary: failures are values with a stable code, never thrown. */
export interface Failure<C extends string = string> {
  code: C;
  message: string;
  /** What the person or the calling model should do next. */
  hint?: string;
  details?: Record<string, unknown>;
}

export type Result<T, C extends string = string> = { ok: true; value: T } | { ok: false; error: Failure<C> };

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function fail<C extends string>(code: C, message: string, hint?: string, details?: Record<string, unknown>): { ok: false; error: Failure<C> } {
  return { ok: false, error: { code, message, ...(hint ? { hint } : {}), ...(details ? { details } : {}) } };
}
