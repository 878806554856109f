/**
 * Asks (seed 002's direct HTTP calls) and their legs: what was asked, which deployments were tried
 * and how each leg ended, what it cost. Written once, when the ask ends, in one transaction with
 * its usage row. The served deployment is its model and base-URL host only; content goes through
 * the same gate as every other table's (redacted always, NULL under metadata-only).
 */
import type { Database } from "bun:sqlite";
import { content, metaText, optionalContent, type ContentPolicy } from "./content.ts";
import { eraseRows } from "./erase.ts";
import { newId } from "./ids.ts";
import { insertUsage } from "./usage.ts";

export type AskStatus = "ok" | "failed";
export type AskLegOutcome = "ok" | "non_answer" | "rejected" | "failed" | "cancelled";

export interface AskLegInput {
  capability: string;
  model: string;
  /** The base URL's host (and port), never its path, query or credentials. */
  host: string | null;
  outcome: AskLegOutcome;
  errorCode?: string;
  statusCode?: number | null;
  latencyMs: number;
  retry: number;
  endedAt: number;
}

export interface AskInput {
  capability: string;
  status: AskStatus;
  errorCode?: string;
  errorMessage?: string;
  model?: string | null;
  host?: string | null;
  fallbackUsed: boolean;
  finishReason?: string | null;
  latencyMs: number;
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
  prompt: string;
  system?: string;
  context?: string;
  /** The text answer, or the structured data as JSON text. */
  answer?: string;
  legs: AskLegInput[];
  now?: number;
}

export interface AskLegRecord extends Omit<AskLegInput, "errorCode" | "statusCode" | "endedAt"> {
  n: number;
  errorCode: string | null;
  statusCode: number | null;
  createdAt: number;
}

export interface AskRecord {
  id: string;
  capability: string;
  status: AskStatus;
  errorCode: string | null;
  errorMessage: string | null;
  model: string | null;
  host: string | null;
  fallbackUsed: boolean;
  finishReason: string | null;
  latencyMs: number;
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
  prompt: string | null;
  promptLength: number;
  system: string | null;
  systemLength: number | null;
  context: string | null;
  contextLength: number | null;
  answer: string | null;
  answerLength: number | null;
  createdAt: number;
  legs: AskLegRecord[];
}

/** `olderThan`: only asks made before this time (ms); absent = all of them. */
export interface AskFilter {
  olderThan?: number;
}

export interface AskStore {
  /** Stores a finished ask with its legs and usage row; returns its id. */
  record(input: AskInput): string;
  get(id: string): AskRecord | undefined;
  count(filter?: AskFilter): number;
  /** Deletes one ask with its legs and usage row; false when it was not there. */
  delete(id: string): boolean;
  deleteAll(filter?: AskFilter): number;
  /** What every process sent each deployment (model + host) since `since`: for rpm/tpm and the load-aware strategies. */
  recentLoad(since: number): DeploymentLoad[];
}

/** One deployment's recent traffic, as the history saw it (finished asks only). */
export interface DeploymentLoad {
  model: string;
  host: string | null;
  /** Legs sent (every outcome). */
  requests: number;
  /** Mean latency of its answered legs; null when none answered. */
  meanLatencyMs: number | null;
  /** Tokens of the asks it served. */
  tokens: number;
}

export interface AskSql {
  id: string;
  capability: string;
  status: AskStatus;
  error_code: string | null;
  error_message: string | null;
  model: string | null;
  host: string | null;
  fallback_used: number;
  finish_reason: string | null;
  latency_ms: number;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
  prompt: string | null;
  prompt_len: number;
  system: string | null;
  system_len: number | null;
  context: string | null;
  context_len: number | null;
  answer: string | null;
  answer_len: number | null;
  created_at: number;
}

interface LegSql {
  n: number;
  capability: string;
  model: string;
  host: string | null;
  outcome: AskLegOutcome;
  error_code: string | null;
  status_code: number | null;
  latency_ms: number;
  retry: number;
  created_at: number;
}

function recentLoad(db: Database, since: number): DeploymentLoad[] {
  const legs = db
    .query<{ model: string; host: string | null; requests: number; latency: number | null }, [number]>(
      "SELECT model, host, COUNT(*) AS requests, AVG(CASE WHEN outcome = 'ok' THEN latency_ms END) AS latency FROM ask_legs WHERE created_at >= ? GROUP BY model, host",
    )
    .all(since);
  const served = db
    .query<{ model: string; host: string | null; tokens: number }, [number]>(
      "SELECT model, host, SUM(COALESCE(input_tokens, 0) + COALESCE(output_tokens, 0)) AS tokens FROM asks WHERE created_at >= ? AND model IS NOT NULL GROUP BY model, host",
    )
    .all(since);
  const key = (model: string, host: string | null) => `${model}\0${host ?? ""}`;
  const tokens = new Map(served.map((r) => [key(r.model, r.host), r.tokens]));
  return legs.map((r) => ({ model: r.model, host: r.host, requests: r.requests, meanLatencyMs: r.latency, tokens: tokens.get(key(r.model, r.host)) ?? 0 }));
}

export function createAskStore(db: Database, policy: ContentPolicy): AskStore {
  const write = db.transaction((input: AskInput, id: string, now: number) => {
    insertAsk(db, policy, input, id, now);
    for (const [i, leg] of input.legs.entries()) insertLeg(db, id, i + 1, leg);
    // A refusal that sent nothing spent nothing: no usage row, as a run that never started has none.
    if (input.legs.length === 0) return;
    const usage = {
      ...(input.inputTokens !== undefined ? { inputTokens: input.inputTokens } : {}),
      ...(input.outputTokens !== undefined ? { outputTokens: input.outputTokens } : {}),
      ...(input.costUsd !== undefined ? { costUsd: input.costUsd } : {}),
    };
    insertUsage(db, {
      source: "ask",
      refId: id,
      refN: 1,
      agentId: input.capability,
      backend: "http",
      model: input.model ?? null,
      usage,
      latencyMs: input.latencyMs,
      createdAt: now,
    });
  });
  return {
    recentLoad: (since) => recentLoad(db, since),
    record(input) {
      const now = input.now ?? Date.now();
      const id = newId(now);
      write.immediate(input, id, now);
      return id;
    },
    get(id) {
      const row = db.query<AskSql, { id: string }>(`SELECT * FROM asks WHERE id = $id`).get({ id });
      if (!row) return undefined;
      const legs = db.query<LegSql, { id: string }>(`SELECT * FROM ask_legs WHERE ask_id = $id ORDER BY n`).all({ id });
      return { ...toAsk(row), legs: legs.map(toLeg) };
    },
    count({ olderThan } = {}) {
      const row = db
        .query<{ n: number }, { cutoff: number | null }>(`SELECT count(*) AS n FROM asks WHERE $cutoff IS NULL OR created_at < $cutoff`)
        .get({ cutoff: olderThan ?? null });
      return row?.n ?? 0;
    },
    delete(id) {
      return eraseRows(db, () => removeAsks(db, `id = $id`, { id }) > 0);
    },
    deleteAll({ olderThan } = {}) {
      return eraseRows(db, () => removeAsks(db, `$cutoff IS NULL OR created_at < $cutoff`, { cutoff: olderThan ?? null }));
    },
  };
}

/** Usage rows carry no foreign key: removed here, and the rollup's delete trigger keeps usage_hourly exact. */
function removeAsks(db: Database, where: string, params: Record<string, string | number | null>): number {
  db.query(`DELETE FROM usage WHERE source = 'ask' AND ref_id IN (SELECT id FROM asks WHERE ${where})`).run(params);
  db.query(`DELETE FROM ask_legs WHERE ask_id IN (SELECT id FROM asks WHERE ${where})`).run(params);
  return db.query(`DELETE FROM asks WHERE ${where}`).run(params).changes;
}

function insertAsk(db: Database, policy: ContentPolicy, a: AskInput, id: string, now: number): void {
  const prompt = content(a.prompt, policy);
  const system = optionalContent(a.system, policy);
  const context = optionalContent(a.context, policy);
  const answer = optionalContent(a.answer, policy);
  db.query(
    `INSERT INTO asks (id, capability, status, error_code, error_message, model, host, fallback_used, finish_reason, latency_ms,
       input_tokens, output_tokens, cost_usd, prompt, prompt_len, prompt_sha256, system, system_len, context, context_len,
       answer, answer_len, answer_sha256, created_at)
     VALUES ($id, $capability, $status, $errorCode, $errorMessage, $model, $host, $fallback, $finish, $latency,
       $input, $output, $cost, $prompt, $promptLen, $promptSha, $system, $systemLen, $context, $contextLen,
       $answer, $answerLen, $answerSha, $now)`,
  ).run({
    id,
    capability: a.capability,
    status: a.status,
    errorCode: a.errorCode ?? null,
    errorMessage: metaText(a.errorMessage),
    model: a.model ?? null,
    host: a.host ?? null,
    fallback: a.fallbackUsed ? 1 : 0,
    finish: a.finishReason ?? null,
    latency: Math.round(a.latencyMs),
    input: a.inputTokens ?? null,
    output: a.outputTokens ?? null,
    cost: a.costUsd ?? null,
    prompt: prompt.text,
    promptLen: prompt.length,
    promptSha: prompt.sha256,
    system: system?.text ?? null,
    systemLen: system?.length ?? null,
    context: context?.text ?? null,
    contextLen: context?.length ?? null,
    answer: answer?.text ?? null,
    answerLen: answer?.length ?? null,
    answerSha: answer?.sha256 ?? null,
    now,
  });
}

function insertLeg(db: Database, askId: string, n: number, leg: AskLegInput): void {
  db.query(
    `INSERT INTO ask_legs (ask_id, n, capability, model, host, outcome, error_code, status_code, latency_ms, retry, created_at)
     VALUES ($askId, $n, $capability, $model, $host, $outcome, $errorCode, $status, $latency, $retry, $at)`,
  ).run({
    askId,
    n,
    capability: leg.capability,
    model: leg.model,
    host: leg.host,
    outcome: leg.outcome,
    errorCode: leg.errorCode ?? null,
    status: leg.statusCode ?? null,
    latency: Math.round(leg.latencyMs),
    retry: leg.retry,
    at: leg.endedAt,
  });
}

export function toAsk(r: AskSql): Omit<AskRecord, "legs"> {
  return {
    id: r.id,
    capability: r.capability,
    status: r.status,
    errorCode: r.error_code,
    errorMessage: r.error_message,
    model: r.model,
    host: r.host,
    fallbackUsed: r.fallback_used === 1,
    finishReason: r.finish_reason,
    latencyMs: r.latency_ms,
    inputTokens: r.input_tokens,
    outputTokens: r.output_tokens,
    costUsd: r.cost_usd,
    prompt: r.prompt,
    promptLength: r.prompt_len,
    system: r.system,
    systemLength: r.system_len,
    context: r.context,
    contextLength: r.context_len,
    answer: r.answer,
    answerLength: r.answer_len,
    createdAt: r.created_at,
  };
}

function toLeg(r: LegSql): AskLegRecord {
  return {
    n: r.n,
    capability: r.capability,
    model: r.model,
    host: r.host,
    outcome: r.outcome,
    errorCode: r.error_code,
    statusCode: r.status_code,
    latencyMs: r.latency_ms,
    retry: r.retry,
    createdAt: r.created_at,
  };
}
