/**
 * agy's failure wordings (docs/backends/agy.md, "Failure wordings"), verbatim as documented, and the
 * structured `AGY_ERROR: {...}` line agy ≥ 1.2.6 writes on stderr before exiting 3.
 */
import type { FailureClass } from "../contract.ts";
import { asObject, failureFromText, str, type Json } from "../events.ts";

/** the documented headless texts, the observed OAuth wait, `agy models`, the keyring error. */
const AUTH =
  /authentication required|authentication failed or timed out|authentication timed out|Please sign in|not logged into Antigravity|secret keyring is locked|failed to retrieve token|UNAUTHENTICATED/i;
/** the individual quota (5-hour or weekly), RESOURCE_EXHAUSTED, 429 and overload. */
const CAPACITY = /Individual quota reached|RESOURCE_EXHAUSTED|quota exceeded|rate limit|\b429\b|overloaded|\b503\b|UNAVAILABLE/i;
/** Go's net/http wordings for an unreachable endpoint (agy is a Go binary). */
const TRANSPORT =
  /dial tcp|no such host|connection refused|connection reset|network is unreachable|i\/o timeout|TLS handshake timeout|context deadline exceeded/i;

export function agyTextFailure(text: string): FailureClass | undefined {
  // A network error text can carry UNAVAILABLE too; the network wording says more.
  if (TRANSPORT.test(text) && !AUTH.test(text)) return "transport";
  return failureFromText(text, { auth: AUTH, capacity: CAPACITY, transport: TRANSPORT });
}

/** `[agy] print timeout after 5m0s with turn in progress; returning partial output` (≥ 1.2.11). */
export const PRINT_TIMEOUT = /\[agy\] print timeout after (\S+)/;
/** The headless soft-deny notice: a tool needed a permission headless mode cannot ask for. */
export const SOFT_DENY = /jetski: no output produced — a tool required the "([^"]+)" permission/;
/** `--conversation <id>` that is not in this machine's history starts a new conversation. */
export const CONVERSATION_MISSING = /warning: conversation "([^"]*)" not found/;
/** Go's flag package on a usage error, exit 2. */
export const FLAG_ERROR = /flag provided but not defined: (-\S+)|flag needs an argument: (-\S+)|invalid (?:boolean )?value "[^"]*" for (?:flag )?\s*(-\S+?):/;
/** The documented unknown-model envelope text. */
export const UNKNOWN_MODEL = /invalid model selection \(--model "([^"]*)"[^)]*\): (?:model \S+ is not recognized|[^\n]*)/;

/**
 * `Individual quota reached. … Resets in 1h28m45s.`: the quota is the provider's own
 * retry-after, hours away — the agent cools down that long instead of being retried in minutes.
 */
const QUOTA_RESET = /quota reached[^\n]*?Resets in ((?:\d+(?:\.\d+)?(?:h|m|s|ms))+)/i;

export function quotaResetSec(text: string): number | undefined {
  const duration = QUOTA_RESET.exec(text)?.[1];
  return duration === undefined ? undefined : goDurationSec(duration);
}

/** Go's time.Duration text (`1h28m45s`, `5m0s`, `1.5s`, `500ms`) in seconds; undefined when not one. */
export function goDurationSec(text: string): number | undefined {
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== text) return undefined;
  return parts.reduce((sum, p) => sum + Number(p[1]) * (units[p[2] ?? "s"] ?? 0), 0);
}

/** The JSON object of the last `AGY_ERROR: ` line, parsed up to its closing brace (text may follow). */
export function agyErrorOf(stderr: string): Json | undefined {
  const at = stderr.lastIndexOf("AGY_ERROR:");
  if (at < 0) return undefined;
  const start = stderr.indexOf("{", at);
  if (start < 0) return undefined;
  const end = objectEnd(stderr, start);
  if (end < 0) return undefined;
  try {
    return asObject(JSON.parse(stderr.slice(start, end)));
  } catch {
    return undefined;
  }
}

/** Index just past the `}` that closes the object opened at `start`, or -1. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"') i = stringEnd(text, i);
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i + 1;
  }
  return -1;
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return text.length;
}

/**
 * The class an AGY_ERROR names by its canonical status or its HTTP/gRPC code (MON names the keys
 * `status`, `error_code`, `retryable`, `error_id`; other captures use `code`). Only auth and quota
 * are decided here; anything else falls through to the wording, which tells network from capacity.
 */
export function agyErrorClass(error: Json): FailureClass | undefined {
  const status = str(error.status) ?? "";
  const code = typeof error.error_code === "number" ? error.error_code : typeof error.code === "number" ? error.code : undefined;
  if (status === "UNAUTHENTICATED" || status === "PERMISSION_DENIED" || code === 401 || code === 403 || code === 16) return "auth";
  if (status === "RESOURCE_EXHAUSTED" || code === 429 || code === 8) return "capacity";
  return undefined;
}
