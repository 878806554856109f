/**
 * claude's `stream-json --verbose` lines → the event union (docs/backends/claude.md, "The
 * stream"): system/init, system/api_retry, assistant, user, result and rate_limit_event. Key order
 * is not stable across versions and line 1 is not always `init`, so everything is parsed by key.
 * API failures arrive as `subtype:"success"` with `is_error:true`.
 */
import type { AgentEvent, Usage } from "../contract.ts";
import { asObject, parseObject, str, type Json, thinking } from "../events.ts";
import { claudeFailureOf } from "./failure-text.ts";

/** Claude Code's own web tools, by what they do: WebSearch (a server-side search) and WebFetch (one URL). */
const WEB_KIND: Record<string, "search" | "fetch"> = { WebSearch: "search", WebFetch: "fetch" };

export function parseClaudeLine(line: string): AgentEvent[] {
  const obj = parseObject(line);
  if (!obj) return [];
  switch (obj.type) {
    case "system":
      return systemEvents(obj);
    case "assistant":
      return assistantEvents(obj);
    case "user":
      return userEvents(obj);
    case "result":
      return resultEvents(obj);
    case "rate_limit_event":
      return rateLimitEvents(asObject(obj.rate_limit_info));
    default:
      return [];
  }
}

const RATE_LIMIT_STATES: Record<string, "ok" | "warning" | "exhausted"> = { allowed: "ok", allowed_warning: "warning", rejected: "exhausted" };

/**
 * `rate_limit_event` on subscription sessions (docs/backends/claude.md, "The stream"): `status`
 * allowed / allowed_warning / rejected, `resetsAt` in epoch seconds, `rateLimitType` five_hour / seven_day / …. Only these
 * fields are read; `utilization` (0–1) when present.
 */
function rateLimitEvents(info: Json | undefined): AgentEvent[] {
  const state = RATE_LIMIT_STATES[str(info?.status) ?? ""];
  if (!info || !state) return [];
  const resetsAt = num(info.resetsAt);
  const utilization = num(info.utilization);
  return [
    {
      kind: "quota",
      window: str(info.rateLimitType) ?? "unknown",
      state,
      source: "claude rate_limit_event",
      ...(resetsAt !== undefined ? { resetsAt: resetsAt < 1e12 ? resetsAt * 1000 : resetsAt } : {}),
      ...(utilization !== undefined ? { usedPercent: Math.round(utilization * 1000) / 10 } : {}),
    },
  ];
}

function systemEvents(obj: Json): AgentEvent[] {
  switch (obj.subtype) {
    case "init": {
      const out: AgentEvent[] = [];
      if (typeof obj.session_id === "string") out.push({ kind: "session", sessionId: obj.session_id });
      // init echoes --model: what was asked for, not what answered.
      if (typeof obj.model === "string") out.push({ kind: "model", model: obj.model, requested: true });
      return out;
    }
    case "api_retry":
      return [apiRetry(obj)];
    case "model_fallback":
      // --fallback-model is never passed, but a person's settings might switch models on 529:
      // what answers is then the fallback model (docs/backends/claude.md, "The stream").
      return typeof obj.fallback_model === "string" ? [{ kind: "model", model: obj.fallback_model }] : [];
    case "thinking_tokens":
      return [{ kind: "thinking" }];
    case "permission_denied":
      // 2.1.332 names a denial as it happens (2.1.197 only in the result's permission_denials).
      return typeof obj.tool_name === "string" ? [refusal(obj.tool_name, str(obj.tool_use_id), undefined, str(obj.message))] : [];
    default:
      return [];
  }
}

/**
 * `system/api_retry`, about 10 ms after each failed request (docs/backends/claude.md, "The stream"):
 * a 429/5xx/529 or `rate_limit`/`overloaded` is capacity, a request that never got a status is
 * transport. `retry_delay_ms` is max(retry-after, the CLI's own backoff of min(500·2^(n-1), 32000)
 * ms plus up to 25 % jitter), so a delay above that backoff is the provider's `retry-after`.
 */
function apiRetry(obj: Json): AgentEvent {
  const message = retryMessage(obj);
  const status = num(obj.error_status);
  const kind = str(obj.error);
  const capacity = kind === "rate_limit" || kind === "overloaded" || (status !== undefined && (status === 429 || status >= 500));
  const transport = !capacity && status === undefined && (kind === undefined || kind === "unknown" || kind === "server_error");
  const retryAfterSec = providerWait(num(obj.attempt), num(obj.retry_delay_ms));
  return {
    kind: "retry",
    message,
    ...(capacity ? { failure: "capacity" } : transport ? { failure: "transport" } : {}),
    ...(capacity && retryAfterSec !== undefined ? { retryAfterSec } : {}),
  };
}

function providerWait(attempt: number | undefined, delayMs: number | undefined): number | undefined {
  if (attempt === undefined || delayMs === undefined) return undefined;
  const backoffMs = Math.min(500 * 2 ** Math.max(0, attempt - 1), 32_000) * 1.25;
  return delayMs > backoffMs ? Math.round(delayMs / 100) / 10 : undefined;
}

function retryMessage(obj: Json): string {
  const status = typeof obj.error_status === "number" ? String(obj.error_status) : "no status";
  return `API retry ${String(obj.attempt ?? "?")}/${String(obj.max_retries ?? "?")} (${status}, ${String(obj.error ?? "unknown")})`;
}

function assistantEvents(obj: Json): AgentEvent[] {
  const message = asObject(obj.message);
  if (!message) return [];
  const content = Array.isArray(message.content) ? message.content : [];
  // Locally generated error messages ("Not logged in", "API Error: …") are not answers.
  if (obj.is_api_error_message === true || typeof obj.error === "string") return apiErrorEvents(obj, content);
  const out: AgentEvent[] = [];
  if (typeof message.model === "string" && message.model !== "<synthetic>") out.push({ kind: "model", model: message.model });
  for (const block of content) out.push(...blockEvents(asObject(block)));
  // Each API message restates its usage on every content block: scoped by id, it counts once, and
  // a token limit can stop the run mid-stream instead of after the result (docs/backends/claude.md).
  const usage = messageUsage(asObject(message.usage));
  if (usage && typeof message.id === "string") out.push({ kind: "usage", usage, scope: message.id });
  return out;
}

/** One message's tokens, and one turn: each API message is a model turn. */
function messageUsage(usage: Json | undefined): Usage | undefined {
  if (!usage) return undefined;
  const input = num(usage.input_tokens);
  const output = num(usage.output_tokens);
  if (input === undefined && output === undefined) return undefined;
  const cached = num(usage.cache_read_input_tokens);
  return { inputTokens: input ?? 0, outputTokens: output ?? 0, ...(cached ? { cachedInputTokens: cached } : {}), turns: 1 };
}

function apiErrorEvents(obj: Json, content: unknown[]): AgentEvent[] {
  const text = content
    .map((b) => str(asObject(b)?.text) ?? "")
    .join("")
    .trim();
  const message = text || `API error (${String(obj.error ?? "unknown")})`;
  const failure = claudeFailureOf(str(obj.error), num(obj.api_error_status), str(obj.api_error), message);
  return [{ kind: "error", message, ...(failure ? { failure } : {}) }];
}

function blockEvents(block: Json | undefined): AgentEvent[] {
  if (!block) return [];
  if (block.type === "text" && typeof block.text === "string") return [{ kind: "text", text: block.text }];
  if (block.type === "thinking") return [thinking(block.thinking)];
  if (block.type !== "tool_use" || typeof block.name !== "string") return [];
  const detail = toolDetail(asObject(block.input));
  const web = WEB_KIND[block.name];
  return [{ kind: "tool", name: block.name, phase: "start", acts: claudeToolActs(block.name), ...(detail ? { detail } : {}), ...(web ? { web } : {}) }];
}

/** Tools that only read or answer; anything else (Bash, Edit, Write, Task, Skill, mcp__*) can act. */
const READ_ONLY_TOOLS = new Set([
  "Read",
  "Glob",
  "Grep",
  "LS",
  "NotebookRead",
  "WebSearch",
  "WebFetch",
  "TodoWrite",
  "ToolSearch",
  "ListAgents",
  "CronList",
  "StructuredOutput",
]);

export function claudeToolActs(name: string): boolean {
  return !READ_ONLY_TOOLS.has(name);
}

function toolDetail(input: Json | undefined): string | undefined {
  if (!input) return undefined;
  return str(input.command) ?? str(input.file_path) ?? str(input.path) ?? str(input.pattern) ?? str(input.url) ?? str(input.query);
}

/** `user` lines carry tool results; Write/Edit results name the file they touched. */
function userEvents(obj: Json): AgentEvent[] {
  const result = asObject(obj.tool_use_result);
  const path = str(result?.filePath);
  if (!path) return [];
  const change = result?.type === "create" ? "add" : "update";
  return [{ kind: "file_change", path, change }];
}

/**
 * A tool call claude refused under its permission mode or allowlist. The run goes on and ends
 * `success`, exit 0 (docs/backends/claude.md, "Refusals"): this list is the only sign the work was
 * blocked.
 */
function refusal(tool: string, id: string | undefined, input: Json | undefined, message: string | undefined): AgentEvent {
  const detail = toolDetail(input);
  return { kind: "refusal", tool, ...(id ? { id } : {}), ...(detail ? { detail } : {}), ...(message ? { message } : {}) };
}

function denials(obj: Json): AgentEvent[] {
  const list = Array.isArray(obj.permission_denials) ? obj.permission_denials : [];
  return list.flatMap((item): AgentEvent[] => {
    const d = asObject(item);
    const tool = str(d?.tool_name);
    return tool ? [refusal(tool, str(d?.tool_use_id), asObject(d?.tool_input), undefined)] : [];
  });
}

function resultEvents(obj: Json): AgentEvent[] {
  const out: AgentEvent[] = [...denials(obj)];
  if (typeof obj.session_id === "string") out.push({ kind: "session", sessionId: obj.session_id });
  for (const model of Object.keys(asObject(obj.modelUsage) ?? {})) out.push({ kind: "model", model });
  out.push({ kind: "usage", usage: resultUsage(obj) });
  if (obj.is_error === true) return [...out, ...resultFailure(obj)];
  const structured = obj.structured_output;
  out.push({ kind: "final", ok: true, text: str(obj.result) ?? "", ...(structured !== undefined ? { structured } : {}) });
  return out;
}

function resultFailure(obj: Json): AgentEvent[] {
  const errors = Array.isArray(obj.errors) ? obj.errors.filter((e): e is string => typeof e === "string") : [];
  const message = str(obj.result) || errors.join("; ") || `claude failed (${String(obj.subtype ?? "error")})`;
  const failure = claudeFailureOf(undefined, num(obj.api_error_status), str(obj.api_error), message);
  return [
    { kind: "error", message, ...(failure ? { failure } : {}) },
    { kind: "final", ok: false, message },
  ];
}

function resultUsage(obj: Json): Usage {
  const usage = asObject(obj.usage);
  const out: Usage = {};
  if (typeof usage?.input_tokens === "number") out.inputTokens = usage.input_tokens;
  if (typeof usage?.output_tokens === "number") out.outputTokens = usage.output_tokens;
  if (typeof usage?.cache_read_input_tokens === "number") out.cachedInputTokens = usage.cache_read_input_tokens;
  if (typeof obj.total_cost_usd === "number") out.costUsd = obj.total_cost_usd;
  if (typeof obj.num_turns === "number") out.turns = obj.num_turns;
  return out;
}

function num(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}
