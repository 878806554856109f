/**
 * opencode's `run --format json` lines → the event union (docs/backends/opencode.md, "The
 * stream"). One JSON object per stdout line: `step_start`, `text` (whole finished parts, no
 * deltas), `reasoning` (only with --thinking), `tool_use` (completed/errored tools only),
 * `step_finish` (tokens + cost of that step), `error`. There is no terminal record: the run ends
 * when the session goes idle, and the exit code is 1 iff an `error` line was written. The model is
 * never in the stream — only `opencode export` (machine.ts). With --print-logs, stderr carries the
 * only retry signal.
 */
import type { AgentEvent, FailureClass } from "../contract.ts";
import { asObject as asRecord, parseObject, thinking } from "../events.ts";
import { textFailure } from "./failure-text.ts";

/** Tools that only read; anything else (bash, edit, write, patch, task, MCP `<server>_<tool>`) acts. */
const READ_ONLY_TOOLS = new Set([
  "read",
  "grep",
  "glob",
  "list",
  "lsp",
  "webfetch",
  "websearch",
  "codesearch",
  "todoread",
  "todowrite",
  "skill",
  "question",
  "plan_enter",
  "plan_exit",
  "invalid",
]);
const EDIT_TOOLS: Record<string, "update" | "unknown"> = {
  edit: "update",
  multiedit: "update",
  patch: "update",
  apply_patch: "update",
  write: "unknown",
};

/**
 * opencode's own web tools: webfetch (one URL, fetched by opencode itself) and websearch (offered
 * by opencode only for its own provider or with OPENCODE_ENABLE_EXA). A denied tool is not even
 * offered to the model (checked against 1.18.33: `read` alone in the request's tools).
 */
export const WEB_TOOLS: Record<string, "search" | "fetch"> = { webfetch: "fetch", websearch: "search" };

export function parseOpencodeLine(line: string): AgentEvent[] {
  const obj = parseObject(line);
  if (!obj || typeof obj.type !== "string") return [];
  const part = asRecord(obj.part);
  switch (obj.type) {
    case "step_start":
      // The model began a step: the first sign of life after a retry, well before its text.
      return [...sessionOf(obj), { kind: "step" }];
    case "text":
      return typeof part?.text === "string" && part.text ? [{ kind: "text", text: part.text }] : [];
    case "reasoning":
      return [thinking(part?.text)];
    case "tool_use":
      return part ? toolEvents(part) : [];
    case "step_finish":
      return part ? stepFinish(part) : [];
    case "error":
      return [...sessionOf(obj), ...errorEvents(asRecord(obj.error))];
    default:
      return [];
  }
}

/**
 * opencode's only retry signal: with `--print-logs` each failed model call logs one line at once,
 * `… level=ERROR … message="stream error" … error.error="AI_APICallError: Rate limit reached …"`,
 * while stdout stays silent for the whole retry schedule (docs/backends/opencode.md, "Retries"). The
 * line has no status, only the provider's text. Other log lines (e.g. "Failed to fetch models.dev")
 * are not retries.
 */
export function parseOpencodeStderr(line: string): AgentEvent[] {
  if (!line.includes('message="stream error"')) return [];
  const text = /error\.error="((?:[^"\\]|\\.)*)"/.exec(line)?.[1]?.replace(/\\(.)/g, "$1") ?? "";
  const failure = textFailure(text);
  const message = `stream error${text ? `: ${text.replace(/^AI_APICallError: /, "")}` : ""}`;
  return [{ kind: "retry", message, ...(failure === "capacity" || failure === "transport" ? { failure } : {}) }];
}

function sessionOf(obj: Record<string, unknown>): AgentEvent[] {
  return typeof obj.sessionID === "string" ? [{ kind: "session", sessionId: obj.sessionID }] : [];
}

function toolEvents(part: Record<string, unknown>): AgentEvent[] {
  const name = typeof part.tool === "string" ? part.tool : "unknown";
  const state = asRecord(part.state);
  const input = asRecord(state?.input);
  const web = WEB_TOOLS[name];
  if (web) return webToolEvents(name, web, firstString(input?.url, input?.query, state?.title));
  const exit = asRecord(state?.metadata)?.exit;
  const detail = firstString(state?.title, input?.command, input?.filePath);
  const tool: AgentEvent = {
    kind: "tool",
    name,
    phase: "end",
    acts: !READ_ONLY_TOOLS.has(name),
    ...(detail ? { detail } : {}),
    ...(typeof exit === "number" ? { exitCode: exit } : {}),
  };
  const change = EDIT_TOOLS[name];
  const path = firstString(input?.filePath);
  if (!change || !path || state?.status !== "completed") return [tool];
  return [tool, { kind: "file_change", path, change }];
}

/**
 * A web call, with the URL or query as its detail (the title adds the content type). opencode
 * writes a tool only once it has finished, so that one record is both the call's start (what the
 * web turn limit and the sources count, services/answer/turn.ts) and its end.
 */
function webToolEvents(name: string, web: "search" | "fetch", detail: string | undefined): AgentEvent[] {
  const tool = { kind: "tool", name, acts: false, web, ...(detail ? { detail } : {}) } as const;
  return [
    { ...tool, phase: "start" },
    { ...tool, phase: "end" },
  ];
}

/** Each step reports its own tokens and cost, so the events are deltas that fold adds up. */
function stepFinish(part: Record<string, unknown>): AgentEvent[] {
  const tokens = asRecord(part.tokens);
  const cache = asRecord(tokens?.cache);
  const events: AgentEvent[] = [
    {
      kind: "usage",
      delta: true,
      usage: {
        ...numberField("inputTokens", tokens?.input),
        ...numberField("outputTokens", tokens?.output),
        ...numberField("cachedInputTokens", cache?.read),
        ...numberField("costUsd", part.cost),
      },
    },
  ];
  if (part.reason === "stop") events.push({ kind: "final", ok: true });
  if (part.reason === "length") events.push({ kind: "final", ok: false, message: "output truncated (finish reason: length)" });
  return events;
}

function errorEvents(error: Record<string, unknown> | undefined): AgentEvent[] {
  const data = asRecord(error?.data);
  const name = typeof error?.name === "string" ? error.name : "Error";
  const ref = typeof data?.ref === "string" ? ` (ref ${data.ref})` : "";
  const message = `${name}: ${firstString(data?.message) ?? "unknown error"}${ref}`;
  const failure = apiFailure(name, data);
  return [
    { kind: "error", message, ...(failure ? { failure } : {}) },
    { kind: "final", ok: false, message },
  ];
}

/** Structured errors are classifiable with high precision (statusCode, name); text is the fallback. */
function apiFailure(name: string, data: Record<string, unknown> | undefined): FailureClass | undefined {
  if (name === "ProviderAuthError") return "auth";
  const status = data?.statusCode;
  if (status === 401 || status === 403) return "auth";
  if (status === 429 || status === 503 || status === 529) return "capacity";
  if (status === 502 || status === 504) return "transport";
  return textFailure(`${firstString(data?.message) ?? ""} ${firstString(data?.responseBody) ?? ""}`);
}

function firstString(...values: unknown[]): string | undefined {
  return values.find((v): v is string => typeof v === "string" && v !== "");
}

function numberField<K extends string>(key: K, value: unknown): Partial<Record<K, number>> {
  return typeof value === "number" && Number.isFinite(value) ? ({ [key]: value } as Partial<Record<K, number>>) : {};
}
