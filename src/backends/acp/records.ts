/**
 * The records src/runner/transports/acp.ts writes, one JSON line each, for what an ACP
 * conversation said: the runner's stream reads an ACP agent exactly like a CLI's stdout, and this
 * folder's parser (parse.ts) turns the records into the one event union. A record is what the
 * transport saw, nothing decided: the parser and classify.ts do the deciding, purely.
 */
import { asObject, parseObject, str, type Json } from "../events.ts";

/** The steps of one conversation, in order; an error names the step that failed. */
export type AcpPhase = "initialize" | "session" | "mode" | "model" | "prompt";

export type AcpRecord =
  /** The agent's `initialize` answer: protocol version, agentInfo, capabilities, auth methods. */
  | { acp: "init"; protocolVersion: number; agent?: string; version?: string; login?: string }
  /** The transport holds the run this many seconds before it starts the agent, `why` saying for what. */
  | { acp: "wait"; seconds: number; why: string }
  /** `session/new` (or `session/load` when resuming) answered. */
  | { acp: "session"; sessionId: string; loaded: boolean; model?: string }
  /** One `session/update` notification's `update`, as the agent sent it. */
  | { acp: "update"; update: Json }
  /** How orchestrate answered a `session/request_permission`. */
  | { acp: "permission"; title: string; kind: string; answer: "allowed" | "rejected" }
  /** An answer-only run reached for something that acts: the transport ended the turn at once. */
  | { acp: "violation"; what: string; kind: string }
  /** The `session/prompt` answer. */
  | { acp: "result"; stopReason: string; usage?: Json; meta?: Json }
  /** A JSON-RPC error (or a broken connection) at one step; `login` is the agent's own sign-in command. */
  | { acp: "error"; phase: AcpPhase; code?: number; message: string; data?: string; login?: string };

export function acpLine(record: AcpRecord): string {
  return JSON.stringify(record);
}

/** One line back into a record; anything else (a line no transport wrote) is undefined. */
export function readRecord(line: string): AcpRecord | undefined {
  const obj = parseObject(line);
  switch (obj?.acp) {
    case "init":
      return typeof obj.protocolVersion === "number"
        ? { acp: "init", protocolVersion: obj.protocolVersion, ...optional(obj, ["agent", "version", "login"]) }
        : undefined;
    case "wait":
      return typeof obj.seconds === "number" ? { acp: "wait", seconds: obj.seconds, why: str(obj.why) ?? "" } : undefined;
    case "session":
      return typeof obj.sessionId === "string"
        ? { acp: "session", sessionId: obj.sessionId, loaded: obj.loaded === true, ...optional(obj, ["model"]) }
        : undefined;
    case "update": {
      const update = asObject(obj.update);
      return update ? { acp: "update", update } : undefined;
    }
    case "permission":
      return { acp: "permission", title: str(obj.title) ?? "", kind: str(obj.kind) ?? "other", answer: obj.answer === "allowed" ? "allowed" : "rejected" };
    case "violation":
      return { acp: "violation", what: str(obj.what) ?? "a tool call", kind: str(obj.kind) ?? "other" };
    case "result": {
      const usage = asObject(obj.usage);
      const meta = asObject(obj.meta);
      return { acp: "result", stopReason: str(obj.stopReason) ?? "", ...(usage ? { usage } : {}), ...(meta ? { meta } : {}) };
    }
    case "error":
      return {
        acp: "error",
        phase: phaseOf(obj.phase),
        message: str(obj.message) ?? "",
        ...(typeof obj.code === "number" ? { code: obj.code } : {}),
        ...optional(obj, ["data", "login"]),
      };
    default:
      return undefined;
  }
}

const PHASES: readonly AcpPhase[] = ["initialize", "session", "mode", "model", "prompt"];

function phaseOf(value: unknown): AcpPhase {
  return PHASES.find((p) => p === value) ?? "prompt";
}

function optional<K extends string>(obj: Json, keys: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const key of keys) {
    const value = str(obj[key]);
    if (value !== undefined) out[key] = value;
  }
  return out;
}
