/**
 * gemini's `-o stream-json` lines and its stderr → the event union (docs/backends/gemini.md, "The
 * stream" and "Retries and the private home"). JSONL events: `init` (session_id, requested model
 * — literally "auto" without -m), `message` (user echo, assistant `delta:true` chunks),
 * `tool_use`, `tool_result`, `error` (non-fatal, with severity), `result` (terminal; status
 * success|error, token stats, and the models actually called as the keys of `stats.models`).
 * Retries show only on stderr.
 */
import type { AgentEvent } from "../contract.ts";
import { asObject as asRecord, parseObject } from "../events.ts";
import { textFailure } from "./failure-text.ts";
import { geminiQuotaEvents } from "./quota.ts";

/** Tools from the read-only set gemini offers headless in default mode; anything else acts. */
const READ_ONLY_TOOLS = new Set([
  "read_file",
  "read_many_files",
  "list_directory",
  "grep_search",
  "search_file_content",
  "glob",
  "google_web_search",
  "web_fetch",
  "update_topic",
  "enter_plan_mode",
  "exit_plan_mode",
  "write_todos",
  "get_internal_docs",
  // Offered in the read-only default set (docs/backends/gemini.md); its sub-agents inherit that policy.
  "invoke_agent",
]);
const EDIT_TOOLS: Record<string, "update" | "unknown"> = { replace: "update", write_file: "unknown" };

/**
 * gemini announces each retry only on stderr (docs/backends/gemini.md, "Retries and the private
 * home"), ~50 ms after the failure:
 *   `Attempt 1 failed with status 429. Retrying with backoff... _ApiError: {…}` (and 503),
 *   `Attempt 1 failed. Retrying with backoff... Error: exception TypeError: fetch failed …`,
 *   `Suggested retry after 20s.. Retrying after 21409ms...` (a Google RetryInfo body; the HTTP
 *   retry-after header is ignored), and a lone `Suggested retry after 400s.` when the wait is
 *   too long to retry at all. Stack lines and gemini's start-up noise match none of these.
 */
const STATUS_RETRY = /^Attempt \d+ failed with status (\d{3})\. Retrying with backoff/;
const FETCH_RETRY = /^Attempt \d+ failed\. Retrying with backoff\.\.\. Error: .*fetch failed/;
const SUGGESTED_WAIT = /^Suggested retry after (\d+(?:\.\d+)?)s\./;

export function parseGeminiStderr(line: string): AgentEvent[] {
  const text = line.trim();
  const quota = geminiQuotaEvents(text);
  if (quota.length > 0) return quota;
  const status = STATUS_RETRY.exec(text)?.[1];
  if (status) return [{ kind: "retry", message: text.slice(0, 200), ...(status === "429" || status.startsWith("5") ? { failure: "capacity" as const } : {}) }];
  if (FETCH_RETRY.test(text)) return [{ kind: "retry", message: text.slice(0, 200), failure: "transport" }];
  const wait = SUGGESTED_WAIT.exec(text)?.[1];
  if (wait) return [{ kind: "retry", message: text.slice(0, 200), failure: "capacity", retryAfterSec: Number(wait) }];
  return [];
}

export function parseGeminiLine(line: string): AgentEvent[] {
  const obj = parseObject(line);
  if (!obj) return [];
  switch (obj.type) {
    case "init":
      return typeof obj.session_id === "string" ? [{ kind: "session", sessionId: obj.session_id }] : [];
    case "message":
      return obj.role === "assistant" && typeof obj.content === "string" && obj.content
        ? [{ kind: "text", text: obj.content, ...(obj.delta === true ? { delta: true } : {}) }]
        : [];
    case "tool_use":
      return toolUse(obj);
    case "tool_result":
      return [toolResult(obj)];
    case "error":
      // Non-fatal by design (the terminal verdict is `result`), e.g. loop detection warnings.
      return typeof obj.message === "string" ? [{ kind: "retry", message: obj.message }] : [];
    case "result":
      return resultEvents(obj);
    default:
      return [];
  }
}

/** gemini's own web tools; headless answer mode already offers google_web_search (docs/backends/gemini.md). */
const WEB_TOOLS: Record<string, "search" | "fetch" | undefined> = { google_web_search: "search", web_fetch: "fetch" };

function toolUse(obj: Record<string, unknown>): AgentEvent[] {
  const name = typeof obj.tool_name === "string" ? obj.tool_name : "unknown";
  const params = asRecord(obj.parameters);
  const web = WEB_TOOLS[name];
  const detail = firstString(params?.command, params?.file_path, params?.dir_path, params?.pattern, params?.query, params?.prompt);
  const tool: AgentEvent = { kind: "tool", name, phase: "start", acts: !READ_ONLY_TOOLS.has(name), ...(detail ? { detail } : {}), ...(web ? { web } : {}) };
  const change = EDIT_TOOLS[name];
  const path = firstString(params?.file_path);
  return change && path ? [tool, { kind: "file_change", path, change }] : [tool];
}

/** tool_result carries only the id, which gemini builds as `<tool_name>__<tool_name>_<ts>_<n>`. */
function toolResult(obj: Record<string, unknown>): AgentEvent {
  const id = typeof obj.tool_id === "string" ? obj.tool_id : "";
  const name = id.includes("__") ? id.slice(0, id.indexOf("__")) : "unknown";
  const error = asRecord(obj.error);
  const detail = obj.status === "error" ? firstString(error?.message, "failed") : undefined;
  return { kind: "tool", name, phase: "end", acts: !READ_ONLY_TOOLS.has(name), ...(detail ? { detail } : {}) };
}

/**
 * The models actually called are the keys of `stats.models` (router + main under `auto`); the
 * init line's model only echoes the request, so it is not reported as evidence.
 */
/** A model that only served gemini's own chores (`roles: { utility_router }`, no `main`) did not answer. */
function choreOnly(entry: Record<string, unknown> | undefined): boolean {
  const roles = asRecord(entry?.roles);
  return roles !== undefined && Object.keys(roles).length > 0 && !("main" in roles);
}

function resultEvents(obj: Record<string, unknown>): AgentEvent[] {
  const stats = asRecord(obj.stats);
  const models = Object.entries(asRecord(stats?.models) ?? {}).filter(([, entry]) => !choreOnly(asRecord(entry)));
  const events: AgentEvent[] = models.map(([model]) => ({ kind: "model", model }));
  if (stats) events.push({ kind: "usage", usage: usageOf(stats) });
  if (obj.status === "success") return [...events, { kind: "final", ok: true }];
  const message = firstString(asRecord(obj.error)?.message) ?? "gemini reported an error";
  const failure = textFailure(message);
  return [
    ...events,
    ...suggestedWait(message),
    ...geminiQuotaEvents(message),
    { kind: "error", message, ...(failure ? { failure } : {}) },
    { kind: "final", ok: false, message },
  ];
}

/**
 * With one attempt gemini never prints its "Suggested retry after Ns." stderr line; the wait the
 * provider asked for (a Google RetryInfo body) is then only in the result's text (docs/backends/gemini.md:
 * `…\nSuggested retry after 20s.`). Read as the capacity wait it is: it cools the agent down, and
 * a failure that asked for a wait is not re-run at once.
 */
const SUGGESTED_IN_RESULT = /Suggested retry after (\d+(?:\.\d+)?)s\./;

function suggestedWait(message: string): AgentEvent[] {
  const wait = SUGGESTED_IN_RESULT.exec(message)?.[1];
  return wait ? [{ kind: "retry", message: message.slice(0, 200), failure: "capacity", retryAfterSec: Number(wait) }] : [];
}

export function usageOf(stats: Record<string, unknown>): { inputTokens?: number; outputTokens?: number; cachedInputTokens?: number } {
  return {
    ...numberField("inputTokens", stats.input_tokens),
    ...numberField("outputTokens", stats.output_tokens),
    ...numberField("cachedInputTokens", stats.cached),
  };
}

function firstString(...values: unknown[]): string | undefined {
  return values.find((v): v is string => typeof v === "string" && v !== "");
}

function numberField<K extends string>(key: K, value: unknown): Partial<Record<K, number>> {
  return typeof value === "number" && Number.isFinite(value) ? ({ [key]: value } as Partial<Record<K, number>>) : {};
}
