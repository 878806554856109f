/**
 * copilot's `--output-format json` lines → the event union (docs/backends/copilot.md, "The
 * stream"): `{"type","data","id","timestamp",…}` lines ending with a
 * `{"type":"result","sessionId","exitCode","usage"}` record. Tokens are not on stdout: answer mode's
 * usage file (machine.ts) is the only place they are written.
 */
import type { AgentEvent } from "../contract.ts";
import { asObject, parseObject, str, type Json, thinking } from "../events.ts";
import { copilotErrorClass } from "./failure-text.ts";

/** Tools that only read (copilot 1.0.102 tool list from the captured requests). Anything else may act. */
const READ_ONLY_TOOLS = new Set([
  "view",
  "rg",
  "grep",
  "glob",
  "read_bash",
  "list_bash",
  "fetch_copilot_cli_documentation",
  "skill",
  "read_agent",
  "list_agents",
  "session_store_sql",
  "report_intent",
  "think",
  "web_fetch",
  "web_search",
]);

export function parseCopilotLine(line: string): AgentEvent[] {
  const obj = parseObject(line);
  if (!obj || typeof obj.type !== "string") return [];
  const data = asObject(obj.data) ?? {};
  switch (obj.type) {
    case "assistant.message":
      return assistantMessage(data);
    case "assistant.reasoning":
      return [thinking(str(data.content))];
    case "tool.execution_start":
      return [toolStart(data)];
    case "tool.execution_complete":
      return toolEnd(data);
    case "model.call_failure":
      return callFailure(data);
    case "assistant.turn_retry":
      // The retry itself; the failure it follows was already marked by model.call_failure, so
      // this one carries no class: marking it too would count one transient 429 twice.
      return [{ kind: "retry", message: `model call failed, retrying (${str(data.reason) ?? "unknown"})` }];
    case "session.error":
      return [sessionError(data)];
    case "result":
      return resultRecord(obj);
    default:
      return [];
  }
}

function assistantMessage(data: Json): AgentEvent[] {
  const events: AgentEvent[] = [];
  const model = str(data.model);
  if (model) events.push({ kind: "model", model });
  const content = str(data.content);
  if (content) events.push({ kind: "text", text: content });
  return events;
}

function toolStart(data: Json): AgentEvent {
  const name = str(data.toolName) ?? "tool";
  const args = asObject(data.arguments) ?? {};
  const detail = str(args.command) ?? str(args.path) ?? str(data.toolTitle);
  return { kind: "tool", name, phase: "start", acts: copilotToolActs(name), ...(detail ? { detail } : {}) };
}

/** The completion record carries no tool name; the start event already said whether it acts. */
function toolEnd(data: Json): AgentEvent[] {
  const exitCode = asObject(data.shellExecution)?.exitCode;
  const error = asObject(data.error);
  const message = str(error?.message);
  const end: AgentEvent = {
    kind: "tool",
    name: str(data.toolName) ?? "tool",
    phase: "end",
    acts: false,
    ...(typeof exitCode === "number" ? { exitCode } : {}),
    ...(message ? { detail: message } : {}),
  };
  return error?.code === "denied" ? [end, refusal(data, message)] : [end];
}

/**
 * A write copilot refused (docs/backends/copilot.md, "Refusals"): without --allow-all-tools a writing
 * shell command or file tool ends `success:false`, `error.code:"denied"`, and the run goes on to
 * exit 0 with nothing changed; a --deny-tool rule refuses the same way. The record names no tool:
 * the file tools' telemetry says which (`create`, `edit`), a shell refusal says `permission_denied`.
 */
function refusal(data: Json, message: string | undefined): AgentEvent {
  const telemetry = asObject(asObject(data.toolTelemetry)?.properties);
  const tool = str(telemetry?.command) ?? (telemetry?.shell_error_category === "permission_denied" ? "bash" : "tool");
  const id = str(data.toolCallId);
  return { kind: "refusal", tool, ...(id ? { id } : {}), ...(message ? { message } : {}) };
}

/**
 * copilot's retry signal (docs/backends/copilot.md, "Retries"): `model.call_failure` with the HTTP
 * status, ~5 ms after each failed request — 429 and 5xx are capacity; other statuses (401's
 * transient-auth retries) are only a retry. It has no retry-after: copilot's retryAfter is
 * internal, and the "try again in 20s" of an OpenAI message body is not a header.
 */
function callFailure(data: Json): AgentEvent[] {
  const status = num(data.statusCode);
  const capacity = status === 429 || (status >= 500 && status < 600);
  return [
    {
      kind: "retry",
      message: `model call failed (HTTP ${status || "?"}, attempt ${num(data.retryAttempt) + 1})`,
      ...(capacity ? { failure: "capacity" as const } : {}),
    },
  ];
}

export function copilotToolActs(name: string): boolean {
  return !READ_ONLY_TOOLS.has(name);
}

function sessionError(data: Json): AgentEvent {
  const message = str(data.message) ?? "copilot session error";
  const failure = copilotErrorClass(str(data.errorType), num(data.statusCode), message);
  return { kind: "error", message, failure };
}

function resultRecord(obj: Json): AgentEvent[] {
  const events: AgentEvent[] = [];
  const sessionId = str(obj.sessionId);
  if (sessionId) events.push({ kind: "session", sessionId });
  const changes = asObject(asObject(obj.usage)?.codeChanges);
  const files = Array.isArray(changes?.filesModified) ? changes.filesModified : [];
  for (const path of files) if (typeof path === "string") events.push({ kind: "file_change", path, change: "unknown" });
  const exitCode = num(obj.exitCode);
  events.push({ kind: "final", ok: exitCode === 0, ...(exitCode === 0 ? {} : { message: `copilot exitCode ${exitCode}` }) });
  return events;
}

export function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}
