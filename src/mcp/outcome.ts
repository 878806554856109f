/**
 * What a tool's handler returns, and the one wire shape it becomes: structuredContent matching the
 * tool's output schema plus a readable text block; a failure is an `isError` result carrying its
 * code and what to do next. No SDK imports: the tool defs that use this sit on the startup path.
 */
import { errorText } from "../result.ts";
import type { Failure } from "../result.ts";
import { hintFor, isErrorCode } from "../errors.ts";

/** Handlers return this; they never throw on purpose. */
export type ToolOutcome =
  | { ok: true; data: Record<string, unknown>; text: string }
  | {
      ok: false;
      error: Failure;
      data?: Record<string, unknown>;
      text?: string;
      /** structuredContent.error is {code, message} only (seed 002's envelope); the hint stays in the text. */
      bareError?: boolean;
    };

/** A tools/call result (structurally the SDK's CallToolResult). */
export type ToolReply = {
  content: { type: "text"; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: true;
};

/**
 * The text block's ceiling, as opencode caps its tools' output: a delegate may answer with megabytes,
 * and a client pastes the block into its model's context. structuredContent keeps everything.
 */
export const TEXT_MAX_CHARS = 50_000;
export const TEXT_MAX_LINES = 2000;

export function toolReply(outcome: ToolOutcome): ToolReply {
  if (outcome.ok) return { content: [{ type: "text", text: capText(outcome.text) }], structuredContent: { ok: true, ...outcome.data } };
  return failureReply(outcome.error, outcome.data, outcome.text, outcome.bareError);
}

export function failureReply(failure: Failure, data: Record<string, unknown> = {}, detail?: string, bareError = false): ToolReply {
  const error = closed(failure);
  const text = `${errorText(error)}${detail ? `\n\n${detail}` : ""}`;
  return {
    isError: true,
    content: [{ type: "text", text: capText(text) }],
    structuredContent: { ...data, ok: false, error: bareError ? { code: error.code, message: error.message } : error },
  };
}

/**
 * Every reply's code is one of the closed set, with a "what to do next": a code outside the set
 * (a stored record from an older build, a cast somewhere) goes out as internal_error naming it,
 * never as a value callers cannot branch on.
 */
function closed(error: Failure): Failure {
  const code: string = error.code;
  if (!isErrorCode(code))
    return { code: "internal_error", message: `${error.message} (unlisted code ${JSON.stringify(code)})`, hint: hintFor("internal_error") };
  return error.hint ? error : { ...error, hint: hintFor(error.code) };
}

/**
 * Keeps the head (who served, the trace) and the tail (where an answer concludes) of an oversized
 * text, and says in between how much was cut and where the rest is.
 */
export function capText(text: string, maxChars = TEXT_MAX_CHARS, maxLines = TEXT_MAX_LINES): string {
  const lines = text.split("\n");
  if (text.length <= maxChars && lines.length <= maxLines) return text;
  const half = Math.floor(maxChars / 2);
  const headLines = lines.length > maxLines ? lines.slice(0, Math.floor(maxLines / 2)).join("\n") : text;
  const tailLines = lines.length > maxLines ? lines.slice(-Math.floor(maxLines / 2)).join("\n") : text;
  const head = headLines.slice(0, half);
  const tail = tailLines.slice(tailLines.length - half);
  const cut = text.length - head.length - tail.length;
  return `${head}\n\n[… ${cut} characters cut from this text block; structuredContent holds the whole result]\n\n${tail}`;
}
