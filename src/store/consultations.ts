/** Consultations (a pinned agent/runtime/model + native session) and their turns. */
import type { Database } from "bun:sqlite";
import type { Usage } from "../backends/contract.ts";
import { content, metaText, optionalContent, parseJson, redactedJson, type ContentPolicy } from "./content.ts";
import { eraseRows } from "./erase.ts";
import { newId } from "./ids.ts";
import { removeJobsNaming } from "./jobs.ts";
import { insertUsage } from "./usage.ts";

export type ConsultationStatus = "open" | "failed" | "closed";
export type ModelVerification = "verified" | "unverified" | "mismatch";

export interface CreateConsultationInput {
  id?: string;
  agentId: string;
  backend: string;
  model?: string;
  hostRuntime?: string;
  nativeSessionId?: string;
  status?: ConsultationStatus;
  now?: number;
}

export interface TurnInput {
  prompt: string;
  context?: string;
  /** The validated envelope content; stored as JSON. */
  answer?: unknown;
  errorCode?: string;
  errorMessage?: string;
  modelReported?: string;
  modelVerified: ModelVerification;
  usage?: Usage;
  /** The usage's cost was estimated from the model's price (the CLI reports none; migration 010). */
  costEstimated?: boolean;
  latencyMs: number;
  now?: number;
}

export interface TurnRecord {
  consultationId: string;
  n: number;
  prompt: string | null;
  promptLength: number;
  promptSha256: string;
  context: string | null;
  contextLength: number | null;
  answer: unknown;
  answerLength: number | null;
  errorCode: string | null;
  errorMessage: string | null;
  modelReported: string | null;
  modelVerified: ModelVerification;
  usage: Usage | undefined;
  latencyMs: number;
  createdAt: number;
}

export interface ConsultationRecord {
  id: string;
  agentId: string;
  backend: string;
  model: string | null;
  hostRuntime: string | null;
  nativeSessionId: string | null;
  status: ConsultationStatus;
  createdAt: number;
  updatedAt: number;
  turns: TurnRecord[];
}

/** A consultation without its turns' content, for listings. */
export interface ConsultationSummary {
  id: string;
  agentId: string;
  backend: string;
  model: string | null;
  status: ConsultationStatus;
  createdAt: number;
  updatedAt: number;
  turnCount: number;
}

/** `olderThan`: only consultations last updated before this time (ms); absent = all of them. */
export interface ConsultationFilter {
  olderThan?: number;
}

export interface ConsultationStore {
  create(input: CreateConsultationInput): string;
  /** Appends the next turn and returns its number (1-based). */
  addTurn(consultationId: string, turn: TurnInput): number;
  get(id: string): ConsultationRecord | undefined;
  setNativeSession(id: string, nativeSessionId: string, now?: number): boolean;
  setStatus(id: string, status: ConsultationStatus, now?: number): boolean;
  /** Newest first. */
  list(opts?: { limit?: number }): ConsultationSummary[];
  count(filter?: ConsultationFilter): number;
  /** Deletes one consultation with its turns, usage rows and finished jobs; false when it was not there. */
  delete(id: string): boolean;
  /** Deletes every matching consultation with its turns, usage rows and finished jobs; returns how many went. */
  deleteAll(filter?: ConsultationFilter): number;
}

interface ConsultationRow {
  id: string;
  agent_id: string;
  backend: string;
  model: string | null;
  host_runtime: string | null;
  native_session_id: string | null;
  status: ConsultationStatus;
  created_at: number;
  updated_at: number;
}

interface TurnRow {
  consultation_id: string;
  n: number;
  prompt: string | null;
  prompt_len: number;
  prompt_sha256: string;
  context: string | null;
  context_len: number | null;
  answer_json: string | null;
  answer_len: number | null;
  error_code: string | null;
  error_message: string | null;
  model_reported: string | null;
  model_verified: ModelVerification;
  usage_json: string | null;
  latency_ms: number;
  created_at: number;
}

export function createConsultationStore(db: Database, policy: ContentPolicy): ConsultationStore {
  const appendTurn = db.transaction((consultationId: string, turn: TurnInput, now: number): number => {
    const owner = db
      .query<{ agent_id: string; backend: string; model: string | null }, { id: string }>(`SELECT agent_id, backend, model FROM consultations WHERE id = $id`)
      .get({ id: consultationId });
    if (!owner) throw new Error(`unknown consultation ${consultationId}`);
    const next = db
      .query<{ n: number }, { id: string }>(`SELECT coalesce(max(n), 0) + 1 AS n FROM turns WHERE consultation_id = $id`)
      .get({ id: consultationId });
    const n = next?.n ?? 1;
    insertTurn(db, policy, consultationId, n, turn, now);
    db.query(`UPDATE consultations SET updated_at = $now WHERE id = $id`).run({ id: consultationId, now });
    insertUsage(db, {
      source: "turn",
      refId: consultationId,
      refN: n,
      agentId: owner.agent_id,
      backend: owner.backend,
      model: turn.modelReported ?? owner.model,
      usage: turn.usage,
      ...(turn.costEstimated ? { costEstimated: true } : {}),
      latencyMs: turn.latencyMs,
      createdAt: now,
    });
    return n;
  });

  return {
    create(input) {
      const now = input.now ?? Date.now();
      const id = input.id ?? newId(now);
      db.query(
        `INSERT INTO consultations (id, agent_id, backend, model, host_runtime, native_session_id, status, created_at, updated_at)
         VALUES ($id, $agentId, $backend, $model, $hostRuntime, $session, $status, $now, $now)`,
      ).run({
        id,
        agentId: input.agentId,
        backend: input.backend,
        model: input.model ?? null,
        hostRuntime: input.hostRuntime ?? null,
        session: input.nativeSessionId ?? null,
        status: input.status ?? "open",
        now,
      });
      return id;
    },

    addTurn(consultationId, turn) {
      return appendTurn.immediate(consultationId, turn, turn.now ?? Date.now());
    },

    get(id) {
      const row = db.query<ConsultationRow, { id: string }>(`SELECT * FROM consultations WHERE id = $id`).get({ id });
      if (!row) return undefined;
      const turns = db.query<TurnRow, { id: string }>(`SELECT * FROM turns WHERE consultation_id = $id ORDER BY n`).all({ id }).map(toTurn);
      return toConsultation(row, turns);
    },

    setNativeSession(id, nativeSessionId, now = Date.now()) {
      const q = db.query(`UPDATE consultations SET native_session_id = $session, updated_at = $now WHERE id = $id`);
      return q.run({ id, session: nativeSessionId, now }).changes > 0;
    },

    setStatus(id, status, now = Date.now()) {
      return db.query(`UPDATE consultations SET status = $status, updated_at = $now WHERE id = $id`).run({ id, status, now }).changes > 0;
    },

    list({ limit = 50 } = {}) {
      return db
        .query<ConsultationRow & { turn_count: number }, { limit: number }>(
          `SELECT c.*, (SELECT count(*) FROM turns t WHERE t.consultation_id = c.id) AS turn_count
           FROM consultations c ORDER BY c.updated_at DESC, c.id DESC LIMIT $limit`,
        )
        .all({ limit })
        .map(toSummary);
    },

    count({ olderThan } = {}) {
      const row = db
        .query<{ n: number }, { cutoff: number | null }>(`SELECT count(*) AS n FROM consultations WHERE $cutoff IS NULL OR updated_at < $cutoff`)
        .get({ cutoff: olderThan ?? null });
      return row?.n ?? 0;
    },

    delete(id) {
      return eraseRows(db, () => removeConsultations(db, `id = $id`, { id }) > 0);
    },

    deleteAll({ olderThan } = {}) {
      return eraseRows(db, () => removeConsultations(db, `$cutoff IS NULL OR updated_at < $cutoff`, { cutoff: olderThan ?? null }));
    },
  };
}

/** Turns go by ON DELETE CASCADE; usage rows and the jobs that delivered a consultation carry no
 * foreign key, so they are removed here. */
function removeConsultations(db: Database, where: string, params: Record<string, string | number | null>): number {
  removeJobsNaming(db, "$.consultation_id", `SELECT id FROM consultations WHERE ${where}`, params);
  db.query(`DELETE FROM usage WHERE source = 'turn' AND ref_id IN (SELECT id FROM consultations WHERE ${where})`).run(params);
  db.query(`DELETE FROM turns WHERE consultation_id IN (SELECT id FROM consultations WHERE ${where})`).run(params);
  return db.query(`DELETE FROM consultations WHERE ${where}`).run(params).changes;
}

function insertTurn(db: Database, policy: ContentPolicy, consultationId: string, n: number, turn: TurnInput, now: number): void {
  const prompt = content(turn.prompt, policy);
  const context = optionalContent(turn.context, policy);
  const answerJson = turn.answer === undefined ? null : redactedJson(turn.answer);
  db.query(
    `INSERT INTO turns (consultation_id, n, prompt, prompt_len, prompt_sha256, context, context_len, answer_json,
       answer_len, error_code, error_message, model_reported, model_verified, usage_json, latency_ms, created_at)
     VALUES ($id, $n, $prompt, $promptLen, $promptSha, $context, $contextLen, $answer, $answerLen, $errorCode,
       $errorMessage, $modelReported, $modelVerified, $usage, $latency, $now)`,
  ).run({
    id: consultationId,
    n,
    prompt: prompt.text,
    promptLen: prompt.length,
    promptSha: prompt.sha256,
    context: context?.text ?? null,
    contextLen: context?.length ?? null,
    answer: policy.fullContent ? answerJson : null,
    answerLen: answerJson?.length ?? null,
    errorCode: turn.errorCode ?? null,
    errorMessage: metaText(turn.errorMessage),
    modelReported: turn.modelReported ?? null,
    modelVerified: turn.modelVerified,
    usage: turn.usage ? redactedJson(turn.costEstimated ? { ...turn.usage, costEstimated: true } : turn.usage) : null,
    latency: Math.round(turn.latencyMs),
    now,
  });
}

function toConsultation(r: ConsultationRow, turns: TurnRecord[]): ConsultationRecord {
  return {
    id: r.id,
    agentId: r.agent_id,
    backend: r.backend,
    model: r.model,
    hostRuntime: r.host_runtime,
    nativeSessionId: r.native_session_id,
    status: r.status,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    turns,
  };
}

function toSummary(r: ConsultationRow & { turn_count: number }): ConsultationSummary {
  return {
    id: r.id,
    agentId: r.agent_id,
    backend: r.backend,
    model: r.model,
    status: r.status,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    turnCount: r.turn_count,
  };
}

function toTurn(r: TurnRow): TurnRecord {
  return {
    consultationId: r.consultation_id,
    n: r.n,
    prompt: r.prompt,
    promptLength: r.prompt_len,
    promptSha256: r.prompt_sha256,
    context: r.context,
    contextLength: r.context_len,
    answer: parseJson(r.answer_json),
    answerLength: r.answer_len,
    errorCode: r.error_code,
    errorMessage: r.error_message,
    modelReported: r.model_reported,
    modelVerified: r.model_verified,
    usage: parseJson(r.usage_json) as Usage | undefined,
    latencyMs: r.latency_ms,
    createdAt: r.created_at,
  };
}
