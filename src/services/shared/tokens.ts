/**
 * One-time tokens, the parts every checkpoint shares (history's delete-all, a review's run): a
 * random token handed to the caller, only its SHA-256 kept, and — where a token approves a snapshot
 * — an HMAC keyed by the token over exactly that snapshot, so the binding can be checked by whoever
 * presents the token and by nobody who only reads where it is kept. Single use is the keeper's
 * rule (a map delete, a conditional UPDATE); this module only makes and compares.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export function newToken(prefix: string): string {
  return `${prefix}_${randomBytes(24).toString("base64url")}`;
}

export function digest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The token's binding to a snapshot: HMAC-SHA256 keyed by the token. */
export function bindToken(token: string, snapshot: string): string {
  return createHmac("sha256", token).update(snapshot).digest("hex");
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/**
 * One-time tokens kept in this process's memory, as only their SHA-256: issued with what they
 * approve, taken once (gone whatever the caller does next), dead after `ttlMs` or a restart — a
 * token seen in a transcript later approves nothing.
 */
export interface MemoryTokens<T> {
  /** `valueFor` gets the new token, so what is kept may be bound to it (bindToken). */
  issue(valueFor: (token: string) => T, now: number): { token: string; expiresAt: number };
  /** What the token was issued for, once; undefined for an unknown, used or expired token. */
  take(token: string, now: number): T | undefined;
}

export function memoryTokens<T>(prefix: string, ttlMs: number): MemoryTokens<T> {
  const pending = new Map<string, { value: T; expiresAt: number }>();
  const sweep = (now: number) => {
    for (const [key, entry] of pending) if (entry.expiresAt <= now) pending.delete(key);
  };
  return {
    issue(valueFor, now) {
      sweep(now);
      const token = newToken(prefix);
      const expiresAt = now + ttlMs;
      pending.set(digest(token), { value: valueFor(token), expiresAt });
      return { token, expiresAt };
    },
    take(token, now) {
      sweep(now);
      const key = digest(token);
      const found = pending.get(key);
      pending.delete(key);
      return found?.value;
    },
  };
}
