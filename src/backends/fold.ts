import type { AgentEvent, Usage } from "./events.ts";

/** The result of a run, folded from its normalized events. Backend-independent. */
export interface FoldedRun {
  /** The final answer: the CLI's final record when it gave one, else the last assistant text. */
  text: string;
  sessionId?: string;
  /** Every model the CLI revealed, in order of appearance, without repeats. */
  models: string[];
  usage: Usage;
  /**
   * Set by the runner, never by the fold: `usage.costUsd` was computed from the model's price
   * because the CLI reports tokens but no cost (docs/cost.md) — an estimate, not the CLI's figure.
   */
  costEstimated?: boolean;
  structured?: unknown;
  /** True when anything that can change state ran (shell, edit, MCP tool). */
  acted: boolean;
  /** The CLI's own terminal record, if it wrote one. */
  final?: Extract<AgentEvent, { kind: "final" }>;
  errors: string[];
  /** Tool calls the CLI refused, once each (reports of one refusal merged by id). */
  refusals: Refusal[];
}

export interface Refusal {
  tool: string;
  id?: string;
  detail?: string | undefined;
  message?: string | undefined;
}

export function foldEvents(events: readonly AgentEvent[]): FoldedRun {
  const folder = new EventFolder();
  for (const event of events) folder.push(event);
  return folder.result();
}

/**
 * The fold, one event at a time, so a long stream is folded as it arrives instead of being kept
 * whole (a 50 MB stream is ~90k events). Only the current message's text is held, not every one.
 */
export class EventFolder {
  private readonly run: FoldedRun = { text: "", models: [], usage: {}, acted: false, errors: [], refusals: [] };
  private readonly texts: string[] = [];
  private chunked = false;
  /** The latest figures of each scoped message, so a restatement replaces instead of adding. */
  private readonly scoped = new Map<string, Usage>();

  push(event: AgentEvent): void {
    if (event.kind === "usage" && event.scope !== undefined) {
      this.run.usage = restate(this.run.usage, this.scoped.get(event.scope) ?? {}, event.usage);
      this.scoped.set(event.scope, event.usage);
      return;
    }
    // Streamed chunks append to the message they continue; a whole message starts a new one.
    if (event.kind === "text" && event.delta && this.chunked && this.texts.length > 0) {
      this.texts[this.texts.length - 1] += event.text;
      return;
    }
    if (event.kind === "text") {
      this.chunked = event.delta === true;
      // Only the last message can become the answer.
      this.texts.length = 0;
    }
    applyEvent(this.run, this.texts, event);
  }

  result(): FoldedRun {
    return { ...this.run, text: this.run.text || (this.texts.at(-1) ?? "") };
  }
}

function applyEvent(run: FoldedRun, texts: string[], event: AgentEvent): void {
  switch (event.kind) {
    case "session":
      run.sessionId = event.sessionId;
      return;
    case "model":
      if (!event.requested && !run.models.includes(event.model)) run.models.push(event.model);
      return;
    case "text":
      texts.push(event.text);
      return;
    case "tool":
      if (event.acts) run.acted = true;
      return;
    case "file_change":
      run.acted = true;
      return;
    case "usage":
      run.usage = accumulateUsage(run.usage, event);
      return;
    case "error":
      run.errors.push(event.message);
      return;
    case "refusal":
      addRefusal(run.refusals, event);
      return;
    case "final":
      run.final = event;
      if (event.ok && event.text) run.text = event.text;
      if (event.structured !== undefined) run.structured = event.structured;
      return;
    default:
      return;
  }
}

/** A refusal already reported under the same id gains what the new report adds; others are new. */
function addRefusal(refusals: Refusal[], event: Extract<AgentEvent, { kind: "refusal" }>): void {
  const { kind: _kind, ...refusal } = event;
  const same = refusal.id === undefined ? undefined : refusals.find((r) => r.id === refusal.id);
  if (!same) {
    // A runaway stream cannot grow the fold without bound.
    if (refusals.length < MAX_REFUSALS) refusals.push(refusal);
    return;
  }
  same.detail ??= refusal.detail;
  same.message ??= refusal.message;
}

const MAX_REFUSALS = 50;

/** The total with one message's earlier figures swapped for its latest. */
function restate(total: Usage, before: Usage, now: Usage): Usage {
  const out: Usage = { ...total };
  for (const key of new Set([...Object.keys(before), ...Object.keys(now)]) as Set<keyof Usage>) {
    out[key] = (out[key] ?? 0) - (before[key] ?? 0) + (now[key] ?? 0);
  }
  return out;
}

/**
 * The running total after one usage event: most CLIs report cumulative totals (later wins per
 * field); a `delta` event (opencode's per-step figures) adds to them. The budget guard uses this
 * same total, so a multi-step run cannot slip under a limit.
 */
export function accumulateUsage(prev: Usage, event: Extract<AgentEvent, { kind: "usage" }>): Usage {
  const out: Usage = { ...prev };
  for (const [key, value] of Object.entries(event.usage) as [keyof Usage, number | undefined][]) {
    if (value === undefined) continue;
    out[key] = event.delta ? (out[key] ?? 0) + value : value;
  }
  return out;
}
