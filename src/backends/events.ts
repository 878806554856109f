/**
 * The one event union every CLI's stream is normalized into, and the tolerant readers every
 * backend's parser shares (garbage yields undefined, never a throw). Backends import only this
 * file, contract.ts and their own folder.
 */
export type Json = Record<string, unknown>;

/** One stdout line → an object, or undefined for anything else (plain text, arrays, truncated JSON). */
/** A thinking event, with its text only when the CLI streamed some (an empty string counts as none). */
export function thinking(text: unknown): AgentEvent {
  return typeof text === "string" && text !== "" ? { kind: "thinking", text } : { kind: "thinking" };
}

export function parseObject(line: string): Json | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith("{")) return undefined;
  try {
    return asObject(JSON.parse(trimmed));
  } catch {
    return undefined;
  }
}

export function asObject(value: unknown): Json | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

export function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** A finite number, or undefined. */
export function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** Each CLI's own wording of the three "unavailable" failures. */
export interface FailurePatterns {
  auth: RegExp;
  capacity: RegExp;
  transport: RegExp;
}

/** The unavailable class an error text reads as, checked auth → capacity → transport; else undefined. */
export function failureFromText(text: string, patterns: FailurePatterns): FailureClass | undefined {
  if (patterns.auth.test(text)) return "auth";
  if (patterns.capacity.test(text)) return "capacity";
  if (patterns.transport.test(text)) return "transport";
  return undefined;
}

/** Token and cost figures as the CLI reported them; absent fields were not reported. */
export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
  costUsd?: number;
  turns?: number;
}

/**
 * A rate-limit window as the vendor reported it (claude's `rate_limit_event`, agy's and gemini's
 * failure text, codex's rollout `rate_limits`, an HTTP provider's rate-limit headers): recorded per
 * execution identity so the router skips or defers the agent before sending anything
 * (docs/design.md, "Quota"). `resetsAt` is epoch ms; `resetsInSec` a wait relative to when the
 * line was read.
 */
export interface QuotaEvent {
  kind: "quota";
  window: string;
  state: "ok" | "warning" | "exhausted";
  usedPercent?: number;
  resetsAt?: number;
  resetsInSec?: number;
  source: string;
}

/**
 * The normalized event union. Every CLI's stream folds into these; unknown lines are dropped.
 * `activity` events describe what the delegate is doing, for progress messages.
 */
export type AgentEvent =
  | { kind: "session"; sessionId: string }
  /** `requested` marks an echo of the model asked for (claude's init line): no evidence of what served. */
  | { kind: "model"; model: string; requested?: boolean }
  | { kind: "thinking"; text?: string }
  /**
   * The model began a response (opencode's `step_start`): progress, for CLIs that print a reply only
   * once it is whole, so a run recovering from a retry is seen working before its text arrives.
   */
  | { kind: "step" }
  /** `delta` marks a streamed chunk (gemini, Grok Build): consecutive chunks form one message. */
  | { kind: "text"; text: string; delta?: boolean }
  /**
   * A tool the delegate ran. `acts` is true for anything that can change state (shell, edit, MCP).
   * `web` marks the CLI's own web tools (a search, a page fetched): answer-only runs allow only
   * these, and only when web access was granted; `detail` is then the query or the URL.
   */
  | { kind: "tool"; name: string; detail?: string; phase: "start" | "end"; acts: boolean; exitCode?: number; web?: "search" | "fetch" }
  | { kind: "file_change"; path: string; change: "add" | "update" | "delete" | "unknown" }
  /**
   * Cumulative figures (later wins); with `delta` one step's own figures (they add up); with
   * `scope` one message's figures, restated while it streams (claude repeats a message's usage on
   * each of its content blocks): the latest per scope counts, once.
   */
  | { kind: "usage"; usage: Usage; delta?: boolean; scope?: string }
  /**
   * A transient problem the CLI is retrying by itself (not final). `hopeless` marks a retry that
   * will never end on its own (codex offline loops on "waiting for network" forever). `failure`
   * names what the retry is about when the backend can tell (a 429/503 is `capacity`), and
   * `retryAfterSec` the provider's own wait when it gave one: the runner ends a capacity retry
   * loop early instead of waiting out the CLI's schedule, and cools the agent down that long.
   */
  | { kind: "retry"; message: string; hopeless?: boolean; failure?: "capacity" | "transport"; retryAfterSec?: number }
  /** A rate-limit window as the vendor reported it (QuotaEvent above). */
  | QuotaEvent
  /**
   * A non-fatal notice from the CLI that is not a retry (codex's `error` items: "Model metadata …
   * not found", "model rerouted …"): shown as a warning, never counted as a failure text.
   */
  | { kind: "warning"; message: string }
  /**
   * orchestrate itself holds the run before the agent starts, for `seconds`, `why` saying for what
   * ("for gemini's session minute to turn", src/runner/session-minute.ts): progress, not the agent's.
   */
  | { kind: "wait"; seconds: number; why: string }
  /**
   * The CLI refused a tool call the delegate made (claude's permission denials, a patch codex's
   * sandbox rejected): the run goes on, but the work it was asked for may not be done. `id` ties
   * the several reports of one refusal together (claude names it live and again in its result).
   */
  | { kind: "refusal"; tool: string; id?: string; detail?: string; message?: string }
  /** A final error reported in the stream. */
  | { kind: "error"; message: string; failure?: FailureClass }
  /** The CLI's own terminal record (claude `result`, codex `turn.completed`, copilot `result`, …). */
  | { kind: "final"; ok: boolean; text?: string; structured?: unknown; message?: string };

/**
 * Why an attempt did not produce an answer. The first four are "unavailable": the backend never
 * got to work, so a fallback is allowed when the tree is also unchanged.
 */
export type FailureClass =
  | "not_installed"
  | "auth"
  | "capacity"
  | "transport"
  | "timeout"
  | "budget"
  | "stalled"
  | "cancelled"
  | "task_failed"
  | "empty_answer"
  | "tree_changed"
  | "bad_output"
  /** Refused before spawning: the prompt cannot travel the way this CLI takes it (argv size). */
  | "prompt_too_large"
  /** Refused before spawning: this orchestrate was itself started by a delegate at the depth limit. */
  | "recursion_limit";

export const UNAVAILABLE_CLASSES: readonly FailureClass[] = ["not_installed", "auth", "capacity", "transport"];

/** Everything known about a finished process, for classification. */
export interface ExitOutcome {
  exitCode: number | null;
  signal: string | null;
  events: AgentEvent[];
  stderrTail: string;
  /** Lines on stdout that were not JSON (some CLIs print plain text errors there). */
  rawStdoutTail: string;
}
