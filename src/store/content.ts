/**
 * The one gate every text passes before it reaches SQL: redaction always, and the content policy
 * (`store_full_content`) for prompts, answers, context and partial output.
 */
import { createHash } from "node:crypto";
import { redact, redactDeep, Redacted } from "../safety/redact.ts";

export interface ContentPolicy {
  /** false = metadata and routing only: content columns are written as NULL. */
  fullContent: boolean;
}

/** A content column plus the shape that survives when the text itself is not kept. */
export interface StoredContent {
  text: string | null;
  length: number;
  sha256: string;
}

/**
 * Redacted text, or NULL under metadata-only; length and hash always describe the redacted text.
 * Text the scrubber already made a Redacted of (src/safety/redact.ts) is kept as it is.
 */
export function content(raw: string | Redacted, policy: ContentPolicy): StoredContent {
  // Hash the redacted text, never the raw one: a hash of a short secret can be brute-forced.
  const clean = raw instanceof Redacted ? raw.text : redact(raw);
  return { text: policy.fullContent ? clean : null, length: clean.length, sha256: sha256(clean) };
}

export function optionalContent(raw: string | undefined, policy: ContentPolicy): StoredContent | undefined {
  return raw === undefined ? undefined : content(raw, policy);
}

/** Redaction for metadata text (error messages, reasons) that is kept under either policy. */
export function metaText(raw: string | undefined | null): string | null {
  return raw === undefined || raw === null ? null : redact(raw);
}

/**
 * Redact every string inside a JSON value (and values under secret-named keys), then serialize.
 * Redacting the serialized text instead would miss PEM blocks whose newlines became `\n` escapes.
 */
export function redactedJson(value: unknown): string {
  return JSON.stringify(redactDeep(value)) ?? "null";
}

/** Keys whose values are conversation content; dropped from JSON columns under metadata-only. */
const CONTENT_KEYS = new Set([
  "prompt",
  "context",
  "system",
  "answer",
  "text",
  "content",
  "output",
  "partialOutput",
  "finalText",
  "assumptions",
  "uncertainties",
  "follow_up_questions",
  "sources",
  "structured",
  "message",
  // reviews: the goal, what reviewers and the host said, and the synthesis
  "goal",
  "summary",
  "claim",
  "evidence",
  "reply",
  "recommendation",
  "checked",
  "not_checked",
  "agreements",
  "disagreements",
]);
/** Longer strings are treated as content whatever their key: metadata (ids, codes, paths) is short. */
const MAX_META_STRING = 512;

/** Replace content-bearing values with their shape, recursively, for metadata-only storage. */
export function stripContent(value: unknown): unknown {
  if (typeof value === "string") return value.length > MAX_META_STRING ? omitted(value) : value;
  if (Array.isArray(value)) return value.map(stripContent);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key] = CONTENT_KEYS.has(key) ? omitted(inner) : stripContent(inner);
  return out;
}

function omitted(value: unknown): { omitted: true; length?: number } {
  return typeof value === "string" ? { omitted: true, length: value.length } : { omitted: true };
}

/** JSON for a column: redacted always, content fields stripped under metadata-only. */
export function storedJson(value: unknown, policy: ContentPolicy): string {
  return redactedJson(policy.fullContent ? value : stripContent(value));
}

export function parseJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
