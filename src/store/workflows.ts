/**
 * Workflows (seed 001) and their steps. Every text is redacted before insert (content.ts); the
 * snapshot, previews and results are JSON with every string redacted. A step's token is kept as
 * its SHA-256 and an HMAC binding; spending it is one conditional UPDATE, so exactly one caller wins.
 */
import type { Database } from "bun:sqlite";
import { metaText, redactedJson, type ContentPolicy } from "./content.ts";
import { redact } from "../safety/redact.ts";
import type { StepStatus } from "./vocabulary.ts";

export type WorkflowStatus = "active" | "completed" | "needs_attention" | "failed" | "cancelled";
export type { StepStatus } from "./vocabulary.ts";
export type StepExecutor = "host" | "agent" | "agents";

export interface WorkflowRecord {
  id: string;
  status: WorkflowStatus;
  goal: string;
  workdir: string;
  baselineCommit: string;
  currentCommit: string;
  round: number;
  snapshot: unknown;
  createdAt: number;
  updatedAt: number;
}

export interface StepRecord {
  id: string;
  workflowId: string;
  seq: number;
  step: string;
  round: number;
  status: StepStatus;
  executor: StepExecutor;
  agentId: string | null;
  execution: string | null;
  preview: unknown;
  context: string | null;
  promptSha256: string;
  tokenSha256: string;
  tokenBinding: string;
  tokenExpiresAt: number;
  tokenSpentAt: number | null;
  approval: string | null;
  commitBefore: string;
  reviewId: string | null;
  result: unknown;
  errorCode: string | null;
  errorMessage: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface NewStep {
  id: string;
  workflowId: string;
  step: string;
  round: number;
  executor: StepExecutor;
  agentId?: string;
  execution?: string;
  preview: unknown;
  context: string;
  promptSha256: string;
  token: { sha256: string; binding: string; expiresAt: number };
  commitBefore: string;
  reviewId?: string;
}

export type SpendOutcome =
  | { outcome: "spent"; step: StepRecord }
  | { outcome: "unknown" | "invalid" | "expired" }
  | { outcome: "wrong_state"; status: StepStatus };

export type AddStepOutcome = { outcome: "planned"; step: StepRecord; superseded: number } | { outcome: "step_running"; running: StepRecord };

export interface WorkflowStore {
  create(input: { id: string; goal: string; workdir: string; commit: string; snapshot: unknown; now: number }): void;
  get(id: string): WorkflowRecord | undefined;
  list(limit?: number): WorkflowRecord[];
  update(id: string, patch: { status?: WorkflowStatus; currentCommit?: string; round?: number; snapshot?: unknown }, now: number): void;
  /**
   * Plans a step: in one write transaction, cancels the workflow's other planned steps and inserts
   * this one — unless one of its steps is running, then nothing changes. Two plans racing (two
   * calls, or two servers on one store) leave exactly one planned step: the one inserted last.
   */
  addStep(step: NewStep, now: number): AddStepOutcome;
  /** Sets a step's token binding once its id is known (the binding covers the id). */
  bind(stepId: string, binding: string): void;
  steps(workflowId: string): StepRecord[];
  step(id: string): StepRecord | undefined;
  /** Spends a planned step's token: single use, unexpired, matching hash. */
  spend(stepId: string, tokenSha256: string, now: number): SpendOutcome;
  finishStep(id: string, end: { status: StepStatus; result?: unknown; errorCode?: string; errorMessage?: string; approval?: string }, now: number): void;
  /** Planned steps whose token was never spent: superseded by a new plan or a cancel. */
  cancelPlanned(workflowId: string, now: number): number;
  delete(id: string): "deleted" | "not_found" | "running";
}

interface WorkflowRow {
  id: string;
  status: WorkflowStatus;
  goal: string;
  workdir: string;
  baseline_commit: string;
  current_commit: string;
  round: number;
  snapshot_json: string;
  created_at: number;
  updated_at: number;
}

interface StepRow {
  id: string;
  workflow_id: string;
  seq: number;
  step: string;
  round: number;
  status: StepStatus;
  executor: StepExecutor;
  agent_id: string | null;
  execution: string | null;
  preview_json: string;
  context: string | null;
  prompt_sha256: string;
  token_sha256: string;
  token_binding: string;
  token_expires_at: number;
  token_spent_at: number | null;
  approval: string | null;
  commit_before: string;
  review_id: string | null;
  result_json: string | null;
  error_code: string | null;
  error_message: string | null;
  created_at: number;
  updated_at: number;
}

function parse(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function workflowOf(r: WorkflowRow): WorkflowRecord {
  return {
    id: r.id,
    status: r.status,
    goal: r.goal,
    workdir: r.workdir,
    baselineCommit: r.baseline_commit,
    currentCommit: r.current_commit,
    round: r.round,
    snapshot: parse(r.snapshot_json),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function stepOf(r: StepRow): StepRecord {
  return {
    id: r.id,
    workflowId: r.workflow_id,
    seq: r.seq,
    step: r.step,
    round: r.round,
    status: r.status,
    executor: r.executor,
    agentId: r.agent_id,
    execution: r.execution,
    preview: parse(r.preview_json),
    context: r.context,
    promptSha256: r.prompt_sha256,
    tokenSha256: r.token_sha256,
    tokenBinding: r.token_binding,
    tokenExpiresAt: r.token_expires_at,
    tokenSpentAt: r.token_spent_at,
    approval: r.approval,
    commitBefore: r.commit_before,
    reviewId: r.review_id,
    result: parse(r.result_json),
    errorCode: r.error_code,
    errorMessage: r.error_message,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function createWorkflowStore(db: Database, _policy: ContentPolicy): WorkflowStore {
  const getStep = (id: string) => {
    const row = db.query<StepRow, { id: string }>(`SELECT * FROM workflow_steps WHERE id = $id`).get({ id });
    return row ? stepOf(row) : undefined;
  };
  const spendTx = db.transaction((stepId: string, hash: string, now: number): SpendOutcome => {
    const row = db.query<StepRow, { id: string }>(`SELECT * FROM workflow_steps WHERE id = $id`).get({ id: stepId });
    if (!row) return { outcome: "unknown" };
    if (row.token_sha256 !== hash) return { outcome: "invalid" };
    if (row.token_spent_at !== null) return { outcome: "invalid" };
    if (row.status !== "planned") return { outcome: "wrong_state", status: row.status };
    if (row.token_expires_at < now) return { outcome: "expired" };
    const won = db
      .query(
        `UPDATE workflow_steps SET token_spent_at = $now, status = 'running', updated_at = $now WHERE id = $id AND token_spent_at IS NULL AND status = 'planned'`,
      )
      .run({ id: stepId, now }).changes;
    const step = getStep(stepId);
    return won === 1 && step ? { outcome: "spent", step } : { outcome: "invalid" };
  });
  const addStepTx = db.transaction((s: NewStep, now: number): AddStepOutcome => {
    const running = db
      .query<StepRow, { id: string }>(`SELECT * FROM workflow_steps WHERE workflow_id = $id AND status = 'running' ORDER BY seq DESC LIMIT 1`)
      .get({ id: s.workflowId });
    if (running) return { outcome: "step_running", running: stepOf(running) };
    const superseded = db
      .query(`UPDATE workflow_steps SET status = 'cancelled', updated_at = $now WHERE workflow_id = $id AND status = 'planned'`)
      .run({ id: s.workflowId, now }).changes;
    const seq =
      (db.query<{ n: number }, { id: string }>(`SELECT coalesce(max(seq), 0) AS n FROM workflow_steps WHERE workflow_id = $id`).get({ id: s.workflowId })?.n ??
        0) + 1;
    db.query(
      `INSERT INTO workflow_steps (id, workflow_id, seq, step, round, status, executor, agent_id, execution, preview_json, context, prompt_sha256,
         token_sha256, token_binding, token_expires_at, commit_before, review_id, created_at, updated_at)
       VALUES ($id, $wf, $seq, $step, $round, 'planned', $executor, $agent, $execution, $preview, $context, $prompt, $sha, $binding, $expires, $commit, $review, $now, $now)`,
    ).run({
      id: s.id,
      wf: s.workflowId,
      seq,
      step: s.step,
      round: s.round,
      executor: s.executor,
      agent: s.agentId ?? null,
      execution: s.execution ?? null,
      preview: redactedJson(s.preview),
      context: redact(s.context),
      prompt: s.promptSha256,
      sha: s.token.sha256,
      binding: s.token.binding,
      expires: s.token.expiresAt,
      commit: s.commitBefore,
      review: s.reviewId ?? null,
      now,
    });
    const step = getStep(s.id);
    if (!step) throw new Error(`workflow step ${s.id} vanished after insert`);
    return { outcome: "planned", step, superseded };
  });
  return {
    create: (w) => {
      db.query(
        `INSERT INTO workflows (id, status, goal, workdir, baseline_commit, current_commit, round, snapshot_json, created_at, updated_at)
         VALUES ($id, 'active', $goal, $workdir, $commit, $commit, 0, $snapshot, $now, $now)`,
      ).run({ id: w.id, goal: redact(w.goal), workdir: w.workdir, commit: w.commit, snapshot: redactedJson(w.snapshot), now: w.now });
    },
    get: (id) => {
      const row = db.query<WorkflowRow, { id: string }>(`SELECT * FROM workflows WHERE id = $id`).get({ id });
      return row ? workflowOf(row) : undefined;
    },
    list: (limit = 50) =>
      db.query<WorkflowRow, { limit: number }>(`SELECT * FROM workflows ORDER BY updated_at DESC LIMIT $limit`).all({ limit }).map(workflowOf),
    update: (id, patch, now) => {
      const current = db.query<WorkflowRow, { id: string }>(`SELECT * FROM workflows WHERE id = $id`).get({ id });
      if (!current) return;
      db.query(
        `UPDATE workflows SET status = $status, current_commit = $commit, round = $round, snapshot_json = $snapshot, updated_at = $now WHERE id = $id`,
      ).run({
        id,
        status: patch.status ?? current.status,
        commit: patch.currentCommit ?? current.current_commit,
        round: patch.round ?? current.round,
        snapshot: patch.snapshot !== undefined ? redactedJson(patch.snapshot) : current.snapshot_json,
        now,
      });
    },
    addStep: (s, now) => addStepTx.immediate(s, now),
    bind: (stepId, binding) => {
      db.query(`UPDATE workflow_steps SET token_binding = $binding WHERE id = $id`).run({ id: stepId, binding });
    },
    steps: (workflowId) =>
      db.query<StepRow, { id: string }>(`SELECT * FROM workflow_steps WHERE workflow_id = $id ORDER BY seq`).all({ id: workflowId }).map(stepOf),
    step: getStep,
    spend: (stepId, hash, now) => spendTx(stepId, hash, now),
    finishStep: (id, end, now) => {
      db.query(
        `UPDATE workflow_steps SET status = $status, result_json = $result, error_code = $code, error_message = $message, approval = coalesce($approval, approval), updated_at = $now WHERE id = $id`,
      ).run({
        id,
        status: end.status,
        result: end.result === undefined ? null : redactedJson(end.result),
        code: end.errorCode ?? null,
        message: metaText(end.errorMessage),
        approval: end.approval ?? null,
        now,
      });
    },
    cancelPlanned: (workflowId, now) =>
      db.query(`UPDATE workflow_steps SET status = 'cancelled', updated_at = $now WHERE workflow_id = $id AND status = 'planned'`).run({ id: workflowId, now })
        .changes,
    delete: (id) => {
      const w = db
        .query<{ running: number }, { id: string }>(`SELECT count(*) AS running FROM workflow_steps WHERE workflow_id = $id AND status = 'running'`)
        .get({ id });
      if ((w?.running ?? 0) > 0) return "running";
      return db.query(`DELETE FROM workflows WHERE id = $id`).run({ id }).changes > 0 ? "deleted" : "not_found";
    },
  };
}
