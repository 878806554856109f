/**
 * codex's `exec --json` stream → the event union (docs/backends/codex.md, "The stream"):
 * thread.started, turn.started, item.started/updated/completed, turn.completed, turn.failed,
 * error. Codex never names the model in the stream; it is only in the session rollout
 * (machine.ts).
 */
import type { AgentEvent } from "../contract.ts";
import { asObject, parseObject, str, type Json, thinking } from "../events.ts";
import { codexFailureFromText } from "./failure-text.ts";

/**
 * A patch or command codex's sandbox or approval policy rejected never shows in the --json stream
 * (no item at all): only stderr logs it, as `… ERROR codex_core::tools::router: error=patch
 * rejected: writing is blocked by read-only sandbox; rejected by user approval settings`
 * (docs/backends/codex.md, "The stream").
 */
export function parseCodexStderr(line: string): AgentEvent[] {
  const error = /codex_core::tools::router: error=(.*)$/.exec(line)?.[1]?.trim();
  if (!error || !/rejected|blocked|denied|not permitted|sandbox/i.test(error)) return [];
  const tool = /^patch\b/i.test(error) ? "apply_patch" : /^exec|command/i.test(error) ? "shell" : "tool";
  return [{ kind: "refusal", tool, message: error }];
}

export function parseCodexLine(line: string): AgentEvent[] {
  const obj = parseObject(line);
  if (!obj) return [];
  switch (obj.type) {
    case "thread.started":
      return typeof obj.thread_id === "string" ? [{ kind: "session", sessionId: obj.thread_id }] : [];
    case "item.started":
    case "item.updated":
    case "item.completed":
      return itemEvents(asObject(obj.item), obj.type);
    case "turn.completed":
      return [
        { kind: "usage", usage: usageOf(asObject(obj.usage)) },
        { kind: "final", ok: true },
      ];
    case "turn.failed":
      return [{ kind: "final", ok: false, message: str(asObject(obj.error)?.message) ?? "turn failed" }];
    case "error":
      return topLevelError(str(obj.message) ?? "");
    default:
      return [];
  }
}

/** Top-level `error` lines are retry notices ("Reconnecting... 2/5 (…)") unless they lack that prefix. */
function topLevelError(message: string): AgentEvent[] {
  if (message.startsWith("Reconnecting...")) return [retryNotice(message)];
  const failure = codexFailureFromText(message);
  return [{ kind: "error", message, ...(failure ? { failure } : {}) }];
}

/**
 * A retry notice says what failed in its parenthesis: `(exceeded retry limit, last status: 429 Too
 * Many Requests)`, `(unexpected status 503 Service Unavailable: …)`, `(Selected model is at
 * capacity…)` are capacity; `(stream disconnected …)` transport (docs/backends/codex.md, "Retries
 * and their caps"). Offline, codex never exits: after its 5 retries it loops on "waiting for network".
 */
function retryNotice(message: string): AgentEvent {
  if (/waiting for network/i.test(message)) return { kind: "retry", message, hopeless: true, failure: "transport" };
  const failure = codexFailureFromText(message);
  return { kind: "retry", message, ...(failure === "capacity" || failure === "transport" ? { failure } : {}) };
}

function itemEvents(item: Json | undefined, phase: string): AgentEvent[] {
  if (!item) return [];
  const completed = phase === "item.completed";
  switch (item.type) {
    case "agent_message":
      return completed && typeof item.text === "string" ? [{ kind: "text", text: item.text }] : [];
    case "reasoning":
      return completed ? [thinking(item.text)] : [];
    case "command_execution":
      return [commandEvent(item, completed)];
    case "file_change":
      return fileChangeEvents(item, completed);
    case "mcp_tool_call":
      return [toolEvent(`mcp:${str(item.server) ?? "?"}/${str(item.tool) ?? "?"}`, undefined, completed, true)];
    case "web_search":
      return [webSearchEvent(item, completed)];
    case "error":
      return completed ? itemNotice(str(item.message) ?? "") : [];
    default:
      return [];
  }
}

/**
 * A hosted web search (docs/backends/codex.md, "The stream"): `action` says whether the model searched
 * (`query`) or opened a page (`url`); the item's duplicate `id` key makes ids useless here.
 */
function webSearchEvent(item: Json, completed: boolean): AgentEvent {
  const action = asObject(item.action);
  const url = str(action?.url);
  const detail = url ?? str(action?.query) ?? str(item.query);
  return toolEvent("web_search", detail, completed, false, url ? "fetch" : "search");
}

function commandEvent(item: Json, completed: boolean): AgentEvent {
  const exitCode = typeof item.exit_code === "number" ? item.exit_code : undefined;
  const base = toolEvent("shell", str(item.command), completed, true);
  return completed && exitCode !== undefined && base.kind === "tool" ? { ...base, exitCode } : base;
}

function toolEvent(name: string, detail: string | undefined, completed: boolean, acts: boolean, web?: "search" | "fetch"): AgentEvent {
  return { kind: "tool", name, phase: completed ? "end" : "start", acts, ...(detail ? { detail } : {}), ...(web ? { web } : {}) };
}

function fileChangeEvents(item: Json, completed: boolean): AgentEvent[] {
  const tool = toolEvent("apply_patch", undefined, completed, true);
  if (!completed || item.status !== "completed") return [tool];
  const changes = Array.isArray(item.changes) ? item.changes : [];
  const files = changes.flatMap((change): AgentEvent[] => {
    const c = asObject(change);
    const path = str(c?.path);
    return path ? [{ kind: "file_change", path, change: changeKind(c?.kind) }] : [];
  });
  return [tool, ...files];
}

function changeKind(kind: unknown): "add" | "update" | "delete" | "unknown" {
  return kind === "add" || kind === "update" || kind === "delete" ? kind : "unknown";
}

/**
 * Non-fatal `error` items are warnings: codex goes on with the turn, nothing is retried. The one
 * that matters is the server rerouting the model — the only place the --json stream reveals which
 * model actually served.
 */
function itemNotice(message: string): AgentEvent[] {
  const rerouted = /^model rerouted: (\S+) -> (\S+)/.exec(message);
  const notice: AgentEvent = { kind: "warning", message };
  return rerouted?.[2] ? [{ kind: "model", model: rerouted[2] }, notice] : [notice];
}

function usageOf(usage: Json | undefined): { inputTokens?: number; outputTokens?: number; cachedInputTokens?: number } {
  if (!usage) return {};
  return {
    ...(typeof usage.input_tokens === "number" ? { inputTokens: usage.input_tokens } : {}),
    ...(typeof usage.output_tokens === "number" ? { outputTokens: usage.output_tokens } : {}),
    ...(typeof usage.cached_input_tokens === "number" ? { cachedInputTokens: usage.cached_input_tokens } : {}),
  };
}
