/**
 * ACP records (records.ts) → the event union, written against ACP protocol version 1 as the
 * agents captured in docs/acp.md speak it. Updates map one to one: message chunks are streamed
 * text, thought chunks thinking, `tool_call` a tool start whose kind says whether it acts,
 * `tool_call_update` its end (with the exit code from whichever field the agent uses), `plan` a
 * step, `usage_update` the session's cost. The prompt's answer is the final record; a JSON-RPC
 * error at any step is an error event with the unavailable class it reads as.
 */
import type { AcpProfile, AgentEvent, Usage } from "../contract.ts";
import { asObject, str, type Json, thinking } from "../events.ts";
import { acpFailure } from "./failure.ts";
import { kindActs } from "./policy.ts";
import { readRecord, type AcpRecord } from "./records.ts";

export function acpParser(profile: AcpProfile | undefined): (line: string) => AgentEvent[] {
  return (line) => {
    const record = readRecord(line);
    return record ? eventsOf(record, profile) : [];
  };
}

function eventsOf(record: AcpRecord, profile: AcpProfile | undefined): AgentEvent[] {
  switch (record.acp) {
    case "init":
      return [];
    case "wait":
      return [{ kind: "wait", seconds: record.seconds, why: record.why }];
    case "session":
      return [{ kind: "session", sessionId: record.sessionId }];
    case "update":
      return updateEvents(record.update, profile);
    case "permission":
      return record.answer === "rejected"
        ? [{ kind: "refusal", tool: record.title || record.kind, message: "orchestrate rejected the permission request" }]
        : [];
    case "violation":
      return [
        { kind: "tool", name: record.what, phase: "start", acts: true, detail: `kind ${record.kind}` },
        { kind: "error", message: `answer-only: the agent reached for ${record.what} (kind ${record.kind}); the turn was ended` },
      ];
    case "result":
      return resultEvents(record, profile);
    case "error": {
      const failure = acpFailure(record, profile?.failures);
      const login = record.login ? ` (sign in: run \`${record.login}\`)` : "";
      // Past initialize the program is an ACP agent that ran: a refused session/load ("No previous
      // sessions found", gemini) is the attempt's failure, never "not installed" (classify.ts).
      const failed = failure ?? (record.phase === "initialize" ? undefined : "task_failed");
      return [
        { kind: "error", message: `${record.phase}: ${record.message}${record.data ? ` ${record.data}` : ""}${login}`, ...(failed ? { failure: failed } : {}) },
      ];
    }
  }
}

function updateEvents(update: Json, profile: AcpProfile | undefined): AgentEvent[] {
  switch (update.sessionUpdate) {
    case "agent_message_chunk": {
      const text = textOf(update.content);
      if (!text || profile?.noiseText?.test(text)) return [];
      return [{ kind: "text", text, delta: true }];
    }
    case "agent_thought_chunk": {
      const text = textOf(update.content);
      return [thinking(text)];
    }
    case "tool_call":
      return [toolStart(update)];
    case "tool_call_update":
      return toolEnd(update);
    case "plan":
      return [{ kind: "step" }];
    case "usage_update":
      return costOf(update);
    default:
      return [];
  }
}

function textOf(content: unknown): string | undefined {
  const block = asObject(content);
  return block?.type === "text" ? str(block.text) : undefined;
}

/**
 * The title is what the agent says it is doing ("echo x >> README.md", "Read README.md"); the
 * detail, as for the headless drivers, is the command or the file it touches, so progress reads
 * "running npm test" rather than the call's kind.
 */
function toolStart(update: Json): AgentEvent {
  const name = str(update.title) || str(update.kind) || "tool";
  // ACP's `fetch` kind is "retrieving external data": a web call, bounded and granted like the
  // CLIs' own web tools (docs/design.md, web mode), with the URL as its detail where the agent gives one.
  if (update.kind === "fetch") {
    const url = str(asObject(update.rawInput)?.url);
    return { kind: "tool", name, phase: "start", acts: false, web: "fetch", detail: url || name };
  }
  const detail = targetOf(update);
  return { kind: "tool", name, phase: "start", acts: kindActs(update.kind), ...(detail ? { detail } : {}) };
}

/** A shell call's command (`command` as text or argv, codex's `cmd`), else the first location's path. */
function targetOf(update: Json): string | undefined {
  const input = asObject(update.rawInput);
  const command = input?.command ?? input?.cmd;
  if (typeof command === "string" && command !== "") return command;
  if (Array.isArray(command) && command.every((c) => typeof c === "string")) return command.join(" ");
  const first = Array.isArray(update.locations) ? asObject(update.locations[0]) : undefined;
  return str(first?.path);
}

/** Only a finished call is an end; `in_progress` updates carry nothing the fold needs. */
function toolEnd(update: Json): AgentEvent[] {
  if (update.status !== "completed" && update.status !== "failed") return [];
  const exitCode = exitCodeOf(update.rawOutput);
  const name = str(update.title) || str(update.kind) || "tool";
  // The start already said whether it acts; an update naming a kind says it again.
  const acts = update.kind !== undefined && kindActs(update.kind);
  return [{ kind: "tool", name, phase: "end", acts, ...(exitCode !== undefined ? { exitCode } : {}) }];
}

/**
 * Each agent puts a shell's exit code somewhere else in `rawOutput` (docs/acp.md): codex
 * `exit_code`, opencode `metadata.exit`, copilot `contents[{type:"shell_exit",exitCode}]`, qwen
 * `exitCode`; claude and gemini report none.
 */
function exitCodeOf(raw: unknown): number | undefined {
  const out = asObject(raw);
  if (!out) return undefined;
  const direct = [out.exit_code, out.exitCode, asObject(out.metadata)?.exit].find((v) => typeof v === "number");
  if (typeof direct === "number") return direct;
  const contents = Array.isArray(out.contents) ? out.contents : [];
  const shell = contents.map(asObject).find((c) => typeof c?.exitCode === "number");
  return typeof shell?.exitCode === "number" ? shell.exitCode : undefined;
}

/** `usage_update.cost` is the session's running total (claude-agent-acp, opencode); `used` is context, not spend. */
function costOf(update: Json): AgentEvent[] {
  const cost = asObject(update.cost);
  if (!cost || cost.currency !== "USD" || typeof cost.amount !== "number" || cost.amount <= 0) return [];
  return [{ kind: "usage", usage: { costUsd: cost.amount } }];
}

function resultEvents(record: Extract<AcpRecord, { acp: "result" }>, profile: AcpProfile | undefined): AgentEvent[] {
  const events: AgentEvent[] = [];
  const meta = record.meta ? profile?.fromMeta?.(record.meta) : undefined;
  for (const model of meta?.models ?? []) events.push({ kind: "model", model });
  const usage = usageOf(record.usage) ?? meta?.usage;
  if (usage) events.push({ kind: "usage", usage });
  events.push(verdict(record.stopReason));
  return events;
}

/** PromptResponse.usage (copilot, claude-agent-acp, opencode): the turn's own figures. */
function usageOf(raw: Json | undefined): Usage | undefined {
  if (!raw) return undefined;
  const usage: Usage = {};
  if (typeof raw.inputTokens === "number") usage.inputTokens = raw.inputTokens;
  if (typeof raw.outputTokens === "number") usage.outputTokens = raw.outputTokens;
  if (typeof raw.cachedReadTokens === "number") usage.cachedInputTokens = raw.cachedReadTokens;
  return Object.keys(usage).length > 0 ? usage : undefined;
}

const STOPS: Record<string, string> = {
  cancelled: "the agent ended the turn as cancelled",
  max_tokens: "the reply was cut at the output token limit (stopReason max_tokens)",
  max_turn_requests: "the agent reached its own limit of model requests in one turn (stopReason max_turn_requests)",
  refusal: "the agent refused to continue (stopReason refusal)",
};

function verdict(stopReason: string): AgentEvent {
  if (stopReason === "end_turn") return { kind: "final", ok: true };
  return { kind: "final", ok: false, message: STOPS[stopReason] ?? `stopReason ${stopReason || "missing"}` };
}
