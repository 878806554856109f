/** Route runs (route, consult, run-cli) and their attempt traces. */
import type { Database } from "bun:sqlite";
import type { FailureClass, Usage } from "../backends/contract.ts";
import type { Tier } from "../config/types.ts";
import type { IdentityVerdict } from "../config/model-id.ts";
import { content, metaText, parseJson, redactedJson, type ContentPolicy } from "./content.ts";
import { eraseRows } from "./erase.ts";
import { newId } from "./ids.ts";
import { removeJobsNaming } from "./jobs.ts";
import { insertUsage } from "./usage.ts";

export type RunTool = "route" | "consult" | "run-cli";
export type RunStatus = "running" | "ok" | "failed" | "cancelled";
export type AttemptOutcome = "ok" | FailureClass | "skipped";

export interface StartRunInput {
  /** Defaults to a fresh time-sortable id. */
  id?: string;
  tool: RunTool;
  tier?: Tier;
  cwd: string;
  prompt: string;
  /** The server process that owns the run; defaults to this process. */
  pid?: number;
  startedAt?: number;
}

export interface AttemptInput {
  runId: string;
  /** 1-based position in the trace, as the service numbered it. */
  n: number;
  agentId: string;
  backend: string;
  model?: string;
  provider: string;
  outcome: AttemptOutcome;
  reason: string;
  exitCode: number | null;
  durationMs: number;
  sessionId?: string;
  usage?: Usage;
  /** The usage's cost was estimated from the model's price (the CLI reports none). */
  costEstimated?: boolean;
  fellBack: boolean;
  createdAt?: number;
  /** For an attempt that ran: the configured model checked against what the CLI reported. */
  modelVerification?: IdentityVerdict;
  modelsReported?: string[];
}

export interface FinishRunInput {
  status: Exclude<RunStatus, "running">;
  servedBy?: string;
  errorCode?: string;
  errorMessage?: string;
  answer?: string;
  treeChanged?: boolean | null;
  endedAt?: number;
}

export interface AttemptRecord {
  runId: string;
  n: number;
  agentId: string;
  backend: string;
  model: string | null;
  provider: string;
  outcome: AttemptOutcome;
  reason: string;
  exitCode: number | null;
  durationMs: number;
  sessionId: string | null;
  /** `costEstimated` marks a cost computed from the model's price rather than reported by the CLI. */
  usage: (Usage & { costEstimated?: boolean }) | undefined;
  fellBack: boolean;
  createdAt: number;
  /** For an attempt that ran: the configured model checked against what the CLI reported. */
  modelVerification?: IdentityVerdict;
  modelsReported?: string[];
}

export interface RunSummary {
  id: string;
  tool: RunTool;
  tier: Tier | null;
  cwd: string;
  /** NULL under metadata-only storage; length and hash remain. */
  prompt: string | null;
  promptLength: number;
  promptSha256: string;
  status: RunStatus;
  servedBy: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  answer: string | null;
  answerLength: number | null;
  answerSha256: string | null;
  startedAt: number;
  endedAt: number | null;
  pid: number;
  treeChanged: boolean | null;
  attemptCount: number;
}

export interface RunRecord extends RunSummary {
  attempts: AttemptRecord[];
}

/** `olderThan`: only runs started before this time (ms). Running runs are never bulk-deleted. */
export interface RunFilter {
  olderThan?: number;
}

export type DeleteOutcome = "deleted" | "not_found" | "running";

export interface RunStore {
  startRun(input: StartRunInput): string;
  addAttempt(input: AttemptInput): void;
  /** false when the run is unknown or already finished (the first finish wins). */
  finishRun(id: string, input: FinishRunInput): boolean;
  getRun(id: string): RunRecord | undefined;
  /** Newest first; `before` is the id of the last run of the previous page. */
  listRuns(opts?: { limit?: number; before?: string | undefined }): RunSummary[];
  /** Marks running runs whose server process is dead as failed/server_died; returns their ids. */
  /** `isAlive(pid, startedAt)`: the run started after its owner did, so a later-born process on that pid is not it. */
  reconcileOrphans(isAlive: (pid: number, startedAt: number) => boolean, now?: number): string[];
  /** Finished runs matching the filter. */
  countRuns(filter?: RunFilter): number;
  /** One run with its attempts and usage rows; a run still running is left alone. */
  deleteRun(id: string): DeleteOutcome;
  /** Every finished run matching the filter, with attempts and usage rows; returns how many went. */
  deleteRuns(filter?: RunFilter): number;
}

interface RunRow {
  id: string;
  tool: RunTool;
  tier: Tier | null;
  cwd: string;
  prompt: string | null;
  prompt_len: number;
  prompt_sha256: string;
  status: RunStatus;
  served_by: string | null;
  error_code: string | null;
  error_message: string | null;
  answer: string | null;
  answer_len: number | null;
  answer_sha256: string | null;
  started_at: number;
  ended_at: number | null;
  pid: number;
  tree_changed: number | null;
  attempt_count: number;
}

interface AttemptRow {
  run_id: string;
  n: number;
  agent_id: string;
  backend: string;
  model: string | null;
  provider: string;
  outcome: AttemptOutcome;
  reason: string;
  exit_code: number | null;
  duration_ms: number;
  session_id: string | null;
  usage_json: string | null;
  fell_back: number;
  created_at: number;
  model_verified: IdentityVerdict | null;
  models_reported: string | null;
}

const RUN_COLUMNS = `r.*, (SELECT count(*) FROM attempts a WHERE a.run_id = r.id AND a.outcome != 'skipped') AS attempt_count`;

export function createRunStore(db: Database, policy: ContentPolicy): RunStore {
  const insertAttempt = db.transaction((input: AttemptInput, createdAt: number) => {
    db.query(
      `INSERT INTO attempts (run_id, n, agent_id, backend, model, provider, outcome, reason, exit_code,
         duration_ms, session_id, usage_json, fell_back, created_at, model_verified, models_reported)
       VALUES ($runId, $n, $agentId, $backend, $model, $provider, $outcome, $reason, $exitCode,
         $durationMs, $sessionId, $usage, $fellBack, $createdAt, $verified, $reported)`,
    ).run({
      runId: input.runId,
      n: input.n,
      agentId: input.agentId,
      backend: input.backend,
      model: input.model ?? null,
      provider: input.provider,
      outcome: input.outcome,
      reason: metaText(input.reason) ?? "",
      exitCode: input.exitCode,
      durationMs: Math.round(input.durationMs),
      sessionId: input.sessionId ?? null,
      usage: input.usage ? redactedJson(input.costEstimated ? { ...input.usage, costEstimated: true } : input.usage) : null,
      fellBack: input.fellBack ? 1 : 0,
      createdAt,
      verified: input.modelVerification ?? null,
      reported: input.modelsReported ? JSON.stringify(input.modelsReported) : null,
    });
    // A skipped attempt never ran, so it is not a call for usage purposes.
    if (input.outcome === "skipped") return;
    insertUsage(db, {
      source: "attempt",
      refId: input.runId,
      refN: input.n,
      agentId: input.agentId,
      backend: input.backend,
      model: input.model ?? null,
      usage: input.usage,
      ...(input.costEstimated ? { costEstimated: true } : {}),
      latencyMs: input.durationMs,
      createdAt,
    });
  });

  return {
    startRun(input) {
      const startedAt = input.startedAt ?? Date.now();
      const id = input.id ?? newId(startedAt);
      const prompt = content(input.prompt, policy);
      db.query(
        `INSERT INTO runs (id, tool, tier, cwd, prompt, prompt_len, prompt_sha256, status, started_at, pid)
         VALUES ($id, $tool, $tier, $cwd, $prompt, $len, $sha, 'running', $startedAt, $pid)`,
      ).run({
        id,
        tool: input.tool,
        tier: input.tier ?? null,
        cwd: input.cwd,
        prompt: prompt.text,
        len: prompt.length,
        sha: prompt.sha256,
        startedAt,
        pid: input.pid ?? process.pid,
      });
      return id;
    },

    addAttempt(input) {
      // IMMEDIATE: take the write lock up front so a busy file waits (busy_timeout) instead of
      // failing on a read-to-write upgrade.
      insertAttempt.immediate(input, input.createdAt ?? Date.now());
    },

    finishRun(id, input) {
      const answer = input.answer === undefined ? undefined : content(input.answer, policy);
      const changes = db
        .query(
          `UPDATE runs SET status = $status, served_by = $servedBy, error_code = $errorCode,
             error_message = $errorMessage, answer = $answer, answer_len = $answerLen,
             answer_sha256 = $answerSha, tree_changed = $treeChanged, ended_at = $endedAt
           WHERE id = $id AND status = 'running'`,
        )
        .run({
          id,
          status: input.status,
          servedBy: input.servedBy ?? null,
          errorCode: input.errorCode ?? null,
          errorMessage: metaText(input.errorMessage),
          answer: answer?.text ?? null,
          answerLen: answer?.length ?? null,
          answerSha: answer?.sha256 ?? null,
          treeChanged: input.treeChanged === undefined || input.treeChanged === null ? null : input.treeChanged ? 1 : 0,
          endedAt: input.endedAt ?? Date.now(),
        }).changes;
      return changes > 0;
    },

    getRun(id) {
      const row = db.query<RunRow, { id: string }>(`SELECT ${RUN_COLUMNS} FROM runs r WHERE r.id = $id`).get({ id });
      if (!row) return undefined;
      const attempts = db.query<AttemptRow, { id: string }>(`SELECT * FROM attempts WHERE run_id = $id ORDER BY n`).all({ id }).map(toAttempt);
      return { ...toSummary(row), attempts };
    },

    listRuns({ limit = 50, before } = {}) {
      const rows =
        before === undefined
          ? db.query<RunRow, { limit: number }>(`SELECT ${RUN_COLUMNS} FROM runs r ORDER BY r.started_at DESC, r.id DESC LIMIT $limit`).all({ limit })
          : db
              .query<RunRow, { limit: number; before: string }>(
                `SELECT ${RUN_COLUMNS} FROM runs r, (SELECT started_at, id FROM runs WHERE id = $before) b
                 WHERE r.started_at < b.started_at OR (r.started_at = b.started_at AND r.id < b.id)
                 ORDER BY r.started_at DESC, r.id DESC LIMIT $limit`,
              )
              .all({ limit, before });
      return rows.map(toSummary);
    },

    reconcileOrphans(isAlive, now = Date.now()) {
      const running = db.query<{ id: string; pid: number; started_at: number }, []>(`SELECT id, pid, started_at FROM runs WHERE status = 'running'`).all();
      const mark = db.query(
        `UPDATE runs SET status = 'failed', error_code = 'server_died', error_message = $message, ended_at = $now
         WHERE id = $id AND status = 'running'`,
      );
      const message = "The orchestrate server running this exited before it finished.";
      return running.filter((r) => !isAlive(r.pid, r.started_at) && mark.run({ id: r.id, message, now }).changes > 0).map((r) => r.id);
    },

    countRuns({ olderThan } = {}) {
      const row = db
        .query<{ n: number }, { cutoff: number | null }>(`SELECT count(*) AS n FROM runs WHERE ${FINISHED_BEFORE}`)
        .get({ cutoff: olderThan ?? null });
      return row?.n ?? 0;
    },

    deleteRun(id) {
      const row = db.query<{ status: RunStatus }, { id: string }>(`SELECT status FROM runs WHERE id = $id`).get({ id });
      if (!row) return "not_found";
      if (row.status === "running") return "running";
      return eraseRows(db, () => removeRuns(db, `id = $id AND status != 'running'`, { id })) > 0 ? "deleted" : "not_found";
    },

    deleteRuns({ olderThan } = {}) {
      return eraseRows(db, () => removeRuns(db, FINISHED_BEFORE, { cutoff: olderThan ?? null }));
    },
  };
}

const FINISHED_BEFORE = `status != 'running' AND ($cutoff IS NULL OR started_at < $cutoff)`;

/** Attempts go by ON DELETE CASCADE; usage rows and the jobs that delivered a run carry no foreign
 * key, so they are removed here. */
function removeRuns(db: Database, where: string, params: Record<string, string | number | null>): number {
  removeJobsNaming(db, "$.runId", `SELECT id FROM runs WHERE ${where}`, params);
  db.query(`DELETE FROM usage WHERE source = 'attempt' AND ref_id IN (SELECT id FROM runs WHERE ${where})`).run(params);
  db.query(`DELETE FROM attempts WHERE run_id IN (SELECT id FROM runs WHERE ${where})`).run(params);
  return db.query(`DELETE FROM runs WHERE ${where}`).run(params).changes;
}

function toSummary(r: RunRow): RunSummary {
  return {
    id: r.id,
    tool: r.tool,
    tier: r.tier,
    cwd: r.cwd,
    prompt: r.prompt,
    promptLength: r.prompt_len,
    promptSha256: r.prompt_sha256,
    status: r.status,
    servedBy: r.served_by,
    errorCode: r.error_code,
    errorMessage: r.error_message,
    answer: r.answer,
    answerLength: r.answer_len,
    answerSha256: r.answer_sha256,
    startedAt: r.started_at,
    endedAt: r.ended_at,
    pid: r.pid,
    treeChanged: r.tree_changed === null ? null : r.tree_changed === 1,
    attemptCount: r.attempt_count,
  };
}

function toAttempt(r: AttemptRow): AttemptRecord {
  return {
    runId: r.run_id,
    n: r.n,
    agentId: r.agent_id,
    backend: r.backend,
    model: r.model,
    provider: r.provider,
    outcome: r.outcome,
    reason: r.reason,
    exitCode: r.exit_code,
    durationMs: r.duration_ms,
    sessionId: r.session_id,
    usage: parseJson(r.usage_json) as Usage | undefined,
    fellBack: r.fell_back === 1,
    createdAt: r.created_at,
    ...(r.model_verified ? { modelVerification: r.model_verified } : {}),
    ...(r.models_reported ? { modelsReported: modelList(r.models_reported) } : {}),
  };
}

function modelList(text: string): string[] {
  const parsed = parseJson(text);
  return Array.isArray(parsed) ? parsed.filter((m): m is string => typeof m === "string") : [];
}
