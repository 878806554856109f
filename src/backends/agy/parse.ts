/**
 * agy's `--output-format stream-json` (written against agy 1.2.17, docs/backends/agy.md; the
 * shapes are Google's headless page plus third-party captures of 1.1.10–1.2.17, not a run of ours).
 * One JSON object per line; `event` names the type and the payload sits under a key of that name:
 *   init         {conversation_id (top level), init:{cwd, tools, permission_mode, model?}}
 *   step_update  {step_update:{conversation_id, step_index, state ACTIVE|DONE|ERROR, step_type
 *                user_input|agent_response|tool|checkpoint|system_message|error_message|unknown,
 *                tool_name?, text_delta?, usage?, tool_info?:{name, parameters, output, error}}}
 *   result       {result:{conversation_id, status SUCCESS|ERROR|CANCELED|…, response, error?,
 *                structured_output?, denied_actions?, num_turns, usage (conversation-cumulative)}}
 *   command_result (slash-command reports; orchestrate never sends one) and unknown events: dropped.
 */
import type { AgentEvent, FailureClass, Usage } from "../contract.ts";
import { asObject, parseObject, str, type Json } from "../events.ts";
import { agyTextFailure, quotaResetSec } from "./failure-text.ts";

export function parseAgyLine(line: string): AgentEvent[] {
  const obj = parseObject(line);
  if (!obj) return [];
  switch (obj.event) {
    case "init":
      return initEvents(obj);
    case "step_update":
      return stepEvents(asObject(obj.step_update));
    case "result":
      return resultEvents(asObject(obj.result));
    default:
      return [];
  }
}

/**
 * The conversation id sits at the top level of the init line. `init.model` appears only when
 * --model was passed and echoes it: what was asked for, not evidence of what served.
 */
function initEvents(obj: Json): AgentEvent[] {
  const out: AgentEvent[] = [];
  const id = str(obj.conversation_id);
  if (id) out.push({ kind: "session", sessionId: id });
  const model = str(asObject(obj.init)?.model);
  if (model) out.push({ kind: "model", model, requested: true });
  return out;
}

function stepEvents(step: Json | undefined): AgentEvent[] {
  if (!step) return [];
  const out = stepBody(step);
  // Each DONE step carries the usage of its own model call (the checkpoint's too); summed they
  // make this run's figures, while result.usage counts the whole conversation.
  const usage = step.state === "DONE" ? usageOf(asObject(step.usage)) : undefined;
  if (usage) out.push({ kind: "usage", usage, delta: true });
  return out;
}

function stepBody(step: Json): AgentEvent[] {
  switch (step.step_type) {
    case "agent_response": {
      const text = str(step.text_delta);
      // Fragments arrive ~25 ms apart and concatenate into the reply (Google's jq recipe).
      return text ? [{ kind: "text", text, delta: true }] : [];
    }
    case "tool":
      return toolEvents(step);
    case "error_message": {
      // Seen on 1.1.18 without a documented payload; the verdict is always the result line.
      const message = str(step.text_delta) ?? str(step.error) ?? "agy reported an error step";
      return [{ kind: "retry", message }];
    }
    default:
      return [];
  }
}

/**
 * Tools that only read. Everything else — run_command, write_to_file, call_mcp_tool, browser_*,
 * invoke_subagent, and any name not listed — counts as acting, so answer mode fails closed.
 * The names are agy's as captured (list_dir, view_file) plus the read tools of the
 * Antigravity toolset [INF].
 */
const READ_ONLY_TOOLS = new Set([
  "list_dir",
  "view_file",
  "view_file_outline",
  "view_code_item",
  "grep_search",
  "find_by_name",
  "codebase_search",
  "read_url_content",
  "search_web",
  "read_file",
  "ask_permission",
]);
const WRITE_TOOLS: Record<string, "add" | "update" | "unknown"> = {
  write_to_file: "unknown",
  replace_file_content: "update",
  multi_replace_file_content: "update",
};

export function agyToolActs(name: string): boolean {
  return !READ_ONLY_TOOLS.has(name);
}

/** ACTIVE starts a tool; DONE or ERROR ends it. A short step may arrive only as DONE. */
function toolEvents(step: Json): AgentEvent[] {
  const info = asObject(step.tool_info);
  const name = str(step.tool_name) ?? str(info?.name) ?? "tool";
  const params = asObject(info?.parameters);
  const target = str(params?.TargetFile) ?? str(params?.AbsolutePath) ?? str(params?.DirectoryPath);
  const detail = str(params?.CommandLine) ?? target ?? str(params?.Url) ?? str(params?.Query);
  const failed = str(asObject(info?.error)?.message);
  const phase = step.state === "ACTIVE" ? "start" : "end";
  const tool: AgentEvent = { kind: "tool", name, phase, acts: agyToolActs(name), ...(failed ? { detail: failed } : detail ? { detail } : {}) };
  const change = WRITE_TOOLS[name];
  if (step.state === "DONE" && change && target) return [tool, { kind: "file_change", path: target, change }];
  return [tool];
}

function resultEvents(result: Json | undefined): AgentEvent[] {
  if (!result) return [];
  const out: AgentEvent[] = [];
  const id = str(result.conversation_id);
  // A failed run reports "".
  if (id) out.push({ kind: "session", sessionId: id });
  if (result.status === "SUCCESS") return [...out, successFinal(result)];
  const status = str(result.status) ?? "no status";
  const message = str(result.error) || `agy ended the turn with status ${status}`;
  const failure = resultFailure(message);
  return [...out, { kind: "error", message, ...(failure ? { failure } : {}) }, { kind: "final", ok: false, message }];
}

/**
 * SUCCESS is not an answer by itself: a tool headless mode could not ask approval for is
 * soft-denied and the run still ends SUCCESS, often with an empty response and `denied_actions`
 * (docs/backends/agy.md). With nothing to show, that is a failure that names what was denied.
 */
function successFinal(result: Json): AgentEvent {
  const text = trimReplyNewline(str(result.response) ?? "");
  const structured = result.structured_output;
  const denied = deniedActions(result.denied_actions);
  if (!text.trim() && structured === undefined && denied.length > 0) {
    return {
      kind: "final",
      ok: false,
      message: `agy auto-denied ${denied.join(", ")}: headless mode cannot ask for approval, and the turn ended with no answer`,
    };
  }
  return { kind: "final", ok: true, text, ...(structured !== undefined ? { structured } : {}) };
}

/** agy ends every reply with one newline of its own. */
function trimReplyNewline(text: string): string {
  return text.endsWith("\n") ? text.slice(0, -1) : text;
}

function deniedActions(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    const action = asObject(entry);
    const name = str(action?.action) ?? str(action?.display_name);
    return name ? [`"${name}"`] : [];
  });
}

/** The 1.1.x print-timeout ends as an ERROR result with this text. */
function resultFailure(message: string): FailureClass | undefined {
  if (/timeout waiting for response/i.test(message)) return "timeout";
  return agyTextFailure(message);
}

/** `output_tokens` already includes `thinking_tokens`; `input_tokens` excludes the cache reads. */
function usageOf(usage: Json | undefined): Usage | undefined {
  if (!usage) return undefined;
  const out: Usage = {};
  if (typeof usage.input_tokens === "number") out.inputTokens = usage.input_tokens;
  if (typeof usage.output_tokens === "number") out.outputTokens = usage.output_tokens;
  if (typeof usage.cache_read_tokens === "number") out.cachedInputTokens = usage.cache_read_tokens;
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * agy retries 502/503/504 and per-minute 429s in-process and says nothing while it does: there
 * is no mid-run signal to read. What stderr does say, at the end, is when an
 * exhausted quota resets — the provider's retry-after, hours away — so the cooldown lasts that long.
 */
export function parseAgyStderr(line: string): AgentEvent[] {
  const resetSec = quotaResetSec(line);
  if (resetSec === undefined) return [];
  return [
    { kind: "retry", message: line.trim().slice(0, 200), failure: "capacity", retryAfterSec: resetSec },
    { kind: "quota", window: "individual", state: "exhausted", resetsInSec: resetSec, source: "agy failure text" },
  ];
}
