/**
 * grok's stdout → the event union (docs/backends/grok.md, "The stream" and "Failures"): community
 * lines carry `role` (OpenAI-style messages printed after the run), Grok Build's streaming-json
 * lines carry `type`.
 */
import type { AgentEvent, FailureClass, Usage } from "../contract.ts";
import { asObject, parseObject, str, type Json, thinking } from "../events.ts";

/** Community tools that only read or keep the agent's own todo list. */
const COMMUNITY_READ_ONLY = new Set(["view_file", "search", "create_todo_list", "update_todo_list"]);

export function parseGrokLine(line: string): AgentEvent[] {
  const obj = parseObject(line);
  if (!obj) return [];
  if (typeof obj.role === "string") return communityMessage(obj);
  if (typeof obj.type === "string") return officialEvent(obj);
  return [];
}

const SORRY = "Sorry, I encountered an error:";

function communityMessage(msg: Json): AgentEvent[] {
  if (msg.role === "tool") return [{ kind: "tool", name: "tool", phase: "end", acts: false }];
  if (msg.role !== "assistant") return [];
  const content = str(msg.content) ?? "";
  if (content.startsWith(SORRY)) return [apiError(content.slice(SORRY.length).trim())];
  const events: AgentEvent[] = Array.isArray(msg.tool_calls) ? msg.tool_calls.map(toolCall) : [];
  if (content.startsWith("Error: ")) return [...events, { kind: "error", message: content, failure: grokErrorClass(content) }];
  if (content) events.push({ kind: "text", text: content });
  return events;
}

function toolCall(call: unknown): AgentEvent {
  const fn = asObject(asObject(call)?.function) ?? {};
  const name = str(fn.name) ?? "tool";
  const args = parseObject(str(fn.arguments) ?? "") ?? {};
  const detail = str(args.command) ?? str(args.path) ?? str(args.query);
  return { kind: "tool", name, phase: "start", acts: !COMMUNITY_READ_ONLY.has(name), ...(detail ? { detail } : {}) };
}

function apiError(message: string): AgentEvent {
  return { kind: "error", message, failure: grokErrorClass(message) };
}

/** `Grok API error: 429 Rate limit…`, `Grok API error: Connection error.`, or free text. */
export function grokErrorClass(message: string): FailureClass {
  const status = Number(/\b([45]\d\d)\b/.exec(message)?.[1] ?? 0);
  if (status === 401 || status === 403 || /not signed in|unauthori[sz]ed|invalid api key|api key required/i.test(message)) return "auth";
  if (status === 429 || status >= 500 || /rate limit|overloaded|quota|capacity|resource exhausted/i.test(message)) return "capacity";
  if (/Connection error|ECONNREFUSED|ENOTFOUND|ETIMEDOUT|fetch failed|network|timed out/i.test(message)) return "transport";
  return "task_failed";
}

function officialEvent(ev: Json): AgentEvent[] {
  switch (ev.type) {
    case "thought":
      return [thinking(str(ev.data))];
    case "text":
      return str(ev.data) ? [{ kind: "text", text: str(ev.data) as string, delta: true }] : [];
    case "error": {
      const message = str(ev.message) ?? str(ev.data) ?? "grok error";
      return [apiError(message)];
    }
    case "end":
      return endEvent(ev);
    default:
      return [];
  }
}

function endEvent(ev: Json): AgentEvent[] {
  const events: AgentEvent[] = [];
  const sessionId = str(ev.sessionId);
  if (sessionId) events.push({ kind: "session", sessionId });
  const usage = officialUsage(ev);
  if (usage) events.push({ kind: "usage", usage });
  const stop = str(ev.stopReason) ?? "EndTurn";
  events.push({ kind: "final", ok: stop === "EndTurn", ...(stop === "EndTurn" ? {} : { message: `stopReason ${stop}` }) });
  return events;
}

/** The `end` usage object is only known from third-party adapters; accept both key spellings. */
function officialUsage(ev: Json): Usage | undefined {
  const u = asObject(ev.usage) ?? {};
  const usage: Usage = {};
  const input = pickNum(u, "input_tokens", "inputTokens");
  const output = pickNum(u, "output_tokens", "outputTokens");
  const cached = pickNum(u, "cache_read_input_tokens", "cachedInputTokens");
  if (input !== undefined) usage.inputTokens = input;
  if (output !== undefined) usage.outputTokens = output;
  if (cached !== undefined) usage.cachedInputTokens = cached;
  if (typeof ev.total_cost_usd === "number") usage.costUsd = ev.total_cost_usd;
  if (typeof ev.num_turns === "number") usage.turns = ev.num_turns;
  return Object.keys(usage).length ? usage : undefined;
}

function pickNum(obj: Json, ...keys: string[]): number | undefined {
  for (const key of keys) if (typeof obj[key] === "number") return obj[key] as number;
  return undefined;
}
