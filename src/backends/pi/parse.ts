/**
 * pi's `--mode json` stream → the event union. Written against pi 0.73.1 and 1.6.0 (docs/backends/
 * pi.md, "The stream"; captures in fakes/scenarios/pi/captures/). The two lines share the record types
 * read here; 1.x adds a `role:"system"` message pair, delta-only `message_update`s, `willRetry` on
 * `agent_end` and a closing `agent_settled`, none of which carry anything this parser needs.
 *
 *  - `session` (line 1): the session id (UUIDv7).
 *  - assistant `message_end`: the whole message — text, thinking, usage for that one model call,
 *    `stopReason` (`stop|length|toolUse|error|aborted`) with `errorMessage`, the configured
 *    `model` (an echo only) and `responseModel`, present only when the server named another model.
 *  - `tool_execution_start` / `_end`: tool calls, which run without any approval.
 *  - `auto_retry_start`: pi retrying a transient error by itself (2 s, 4 s, 8 s).
 *  - `agent_end`: the end of one attempt. On 0.73 it repeats once per retry (an `auto_retry_start`
 *    follows); on 1.x `willRetry:true` says so. The last one is the run's verdict.
 * `message_update` lines repeat what `message_end` says (0.73: the whole partial message, twice)
 * and are skipped.
 */
import type { AgentEvent, Usage } from "../contract.ts";
import { asObject, parseObject, str, type Json, thinking } from "../events.ts";
import { piFailureFromText } from "./failure-text.ts";

/** pi's built-in tools that only read; anything else (bash, edit, write, extension tools) can act. */
const READ_ONLY_TOOLS = new Set(["read", "grep", "find", "ls"]);

export function parsePiLine(line: string): AgentEvent[] {
  const obj = parseObject(line);
  if (!obj) return [];
  switch (obj.type) {
    case "session":
      return typeof obj.id === "string" && obj.id !== "" ? [{ kind: "session", sessionId: obj.id }] : [];
    case "message_end":
      return assistantEvents(asObject(obj.message));
    case "tool_execution_start":
      return [toolEvent(obj, "start")];
    case "tool_execution_end":
      return [toolEvent(obj, "end")];
    case "auto_retry_start":
      return [autoRetry(obj)];
    case "agent_end":
      return obj.willRetry === true ? [] : [verdict(obj)];
    default:
      return [];
  }
}

function assistantEvents(msg: Json | undefined): AgentEvent[] {
  if (!msg || msg.role !== "assistant") return [];
  const events: AgentEvent[] = [...modelEvents(msg), ...thinkingEvents(msg)];
  const text = textOf(msg);
  if (text) events.push({ kind: "text", text });
  const usage = usageOf(msg);
  if (usage) events.push({ kind: "usage", usage, delta: true });
  const error = errorOf(msg);
  if (error) events.push(error);
  return events;
}

/** `model` echoes the configured id; only `responseModel` is evidence of what served. */
function modelEvents(msg: Json): AgentEvent[] {
  const served = str(msg.responseModel);
  if (served) return [{ kind: "model", model: served }];
  const echoed = str(msg.model);
  return echoed ? [{ kind: "model", model: echoed, requested: true }] : [];
}

/** The objects of an array field; anything else is dropped. */
function objects(value: unknown): Json[] {
  const out: Json[] = [];
  if (!Array.isArray(value)) return out;
  for (const item of value) {
    const obj = asObject(item);
    if (obj) out.push(obj);
  }
  return out;
}

function blocks(msg: Json): Json[] {
  return objects(msg.content);
}

function textOf(msg: Json): string {
  return blocks(msg)
    .filter((b) => b.type === "text")
    .map((b) => str(b.text) ?? "")
    .join("");
}

function thinkingEvents(msg: Json): AgentEvent[] {
  return blocks(msg)
    .filter((b) => b.type === "thinking")
    .map((b): AgentEvent => {
      const text = str(b.thinking);
      return thinking(text);
    });
}

function isFailedStop(stop: unknown): boolean {
  return stop === "error" || stop === "aborted";
}

/**
 * One model call's own figures (they add up across the run's messages; a resumed session reports
 * only the new turn's). Cost is pi's own, priced from its model table or models.json `cost` — all
 * zeros when no price is known, which is reported as no cost rather than a free run.
 */
function usageOf(msg: Json): Usage | undefined {
  const u = asObject(msg.usage);
  if (!u) return undefined;
  const usage: Usage = {};
  if (typeof u.input === "number") usage.inputTokens = u.input;
  if (typeof u.output === "number") usage.outputTokens = u.output;
  if (typeof u.cacheRead === "number") usage.cachedInputTokens = u.cacheRead;
  const cost = asObject(u.cost)?.total;
  if (typeof cost === "number" && cost > 0) usage.costUsd = cost;
  // A failed call (each retry of a 429) is not a turn the model took.
  if (!isFailedStop(msg.stopReason)) usage.turns = 1;
  return Object.keys(usage).length > 0 ? usage : undefined;
}

function errorOf(msg: Json): AgentEvent | undefined {
  if (!isFailedStop(msg.stopReason)) return undefined;
  const message = str(msg.errorMessage) ?? `stopReason ${String(msg.stopReason)}`;
  const failure = piFailureFromText(message);
  return { kind: "error", message, ...(failure ? { failure } : {}) };
}

function toolEvent(obj: Json, phase: "start" | "end"): AgentEvent {
  const name = str(obj.toolName) ?? "tool";
  const args = asObject(obj.args);
  const detail = args ? (str(args.command) ?? str(args.path) ?? str(args.pattern)) : undefined;
  // 1.x: `result.structuredContent.exit_code` for bash.
  const exitCode = asObject(asObject(obj.result)?.structuredContent)?.exit_code;
  return {
    kind: "tool",
    name,
    phase,
    acts: !READ_ONLY_TOOLS.has(name),
    ...(detail ? { detail } : {}),
    ...(phase === "end" && typeof exitCode === "number" ? { exitCode } : {}),
  };
}

/**
 * pi's own retry of a failed model call (2 s, 4 s, 8 s; docs/backends/pi.md, "Failures and
 * retries"): what failed is in
 * `errorMessage` (`429 Rate limit …`, `529 {…overloaded_error…}`). `delayMs` is pi's own backoff,
 * not the provider's wait, so it is not reported as a retry-after.
 */
function autoRetry(obj: Json): AgentEvent {
  const failure = piFailureFromText(str(obj.errorMessage) ?? "");
  return { kind: "retry", message: retryMessage(obj), ...(failure === "capacity" || failure === "transport" ? { failure } : {}) };
}

function retryMessage(obj: Json): string {
  const attempt = typeof obj.attempt === "number" ? obj.attempt : "?";
  const max = typeof obj.maxAttempts === "number" ? obj.maxAttempts : "?";
  const delay = typeof obj.delayMs === "number" ? ` in ${Math.round(obj.delayMs / 100) / 10} s` : "";
  return `retry ${attempt}/${max}${delay}: ${str(obj.errorMessage) ?? "transient error"}`;
}

/**
 * The verdict of one attempt, from its last assistant message: JSON mode exits 0 whatever the
 * model call did, so this is the only place success is decided. Only `stop` is an answer: `length`
 * is a reply cut at the output limit, and an attempt that ended on `toolUse` never answered.
 */
function verdict(obj: Json): AgentEvent {
  const last = objects(obj.messages).findLast((m) => m.role === "assistant");
  if (!last) return { kind: "final", ok: false, message: "pi ended without an assistant message" };
  const stop = str(last.stopReason) ?? "unknown";
  if (stop === "stop") return { kind: "final", ok: true, text: textOf(last) };
  const message = str(last.errorMessage) ?? (stop === "length" ? "the reply was cut at the output token limit (stopReason length)" : `stopReason ${stop}`);
  return { kind: "final", ok: false, message };
}
