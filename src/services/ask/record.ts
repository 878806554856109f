/**
 * Every ask that reached the service goes into the history when it ends — answered, refused at the
 * boundary, out of budget — in one transaction with its legs and usage row. A store that cannot
 * take it never costs the caller the reply: the envelope still goes out, with a store_unavailable notice.
 * Its id names the history row a job's result links to (the dashboard's /asks/<id>).
 */
import { storeLedger } from "../shared/store-writes.ts";
import type { AskInput } from "../../store/asks.ts";
import type { Runtime } from "../shared/runtime.ts";
import type { AskEnvelope } from "./envelope.ts";
import type { AskRequest } from "./request.ts";
import { hostOf, type LegEntry } from "./trail.ts";

export interface Ended {
  request: AskRequest;
  envelope: AskEnvelope;
  legs: readonly LegEntry[];
  /** The deployment that answered (or gave the final non-answer), for its host. */
  servedUrl?: string;
}

/**
 * Stores the ask. A store that refuses it (disk full) is told again until it takes it; the caller
 * gets the `store_unavailable` notice to put beside the reply (services/shared/store-writes.ts).
 */
export function recordAsk(rt: Runtime, ended: Ended): { notice?: string; id?: string } {
  const ledger = storeLedger("ask");
  const input = scrubbed(askInput(ended, rt.now()), askKeyValues(rt));
  let id: string | undefined;
  ledger.write(() => {
    id = rt.store.asks.record(input);
  });
  const notice = ledger.notice();
  return { ...(notice ? { notice } : {}), ...(id !== undefined ? { id } : {}) };
}

function askInput({ request, envelope: e, legs, servedUrl }: Ended, now: number): AskInput {
  const answer = e.content ?? (e.data !== null && e.data !== undefined ? JSON.stringify(e.data) : undefined);
  const host = servedUrl !== undefined ? hostOf(servedUrl) : null;
  return {
    capability: request.capability.slice(0, 64),
    status: e.ok ? "ok" : "failed",
    ...(e.error ? { errorCode: e.error.code, errorMessage: e.error.message } : {}),
    model: e.model_used,
    host,
    fallbackUsed: e.fallback_used,
    finishReason: e.finish_reason,
    latencyMs: e.latency_ms,
    ...(e.usage ? { inputTokens: e.usage.prompt_tokens, outputTokens: e.usage.completion_tokens } : {}),
    ...(e.usage?.cost_usd !== undefined ? { costUsd: e.usage.cost_usd } : {}),
    prompt: request.prompt,
    ...(request.system !== undefined ? { system: request.system } : {}),
    ...(request.context !== undefined ? { context: request.context } : {}),
    ...(answer !== undefined ? { answer } : {}),
    legs: [...legs],
    now,
  };
}

/** Every key value this server could send, whatever its shape: the store's scrubber knows only credential shapes. */
export function askKeyValues(rt: Runtime): string[] {
  const names = new Set(Object.values(rt.config.ask.capabilities).flatMap((c) => c.deployments.flatMap((d) => (d.keyEnv ? [d.keyEnv] : []))));
  return [...names].flatMap((name) => rt.env[name] ?? []).filter((value) => value.length >= MIN_KEY_CHARS);
}

/** Shorter values would scrub ordinary words out of a prompt; no provider issues keys this short. */
const MIN_KEY_CHARS = 8;

const TEXT_FIELDS = ["prompt", "system", "context", "answer", "errorMessage"] as const;

/** A key pasted into a prompt, echoed in an answer or an error: replaced by value before the store sees it. */
function scrubbed(input: AskInput, keys: readonly string[]): AskInput {
  if (keys.length === 0) return input;
  const out = { ...input };
  for (const field of TEXT_FIELDS) {
    const text = out[field];
    if (text !== undefined) out[field] = keys.reduce((t, key) => t.split(key).join("[REDACTED:key]"), text);
  }
  return out;
}
