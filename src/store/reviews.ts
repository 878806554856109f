/**
 * Reviews (seed 001): the plan and its one-time token, each reviewer's run, the findings (from the
 * reviewers and from the host) with their dispositions, and the host's synthesis. Every text is
 * redacted before insert; content is dropped under metadata-only storage, ids and severities never
 * are — finalize's rule that no critical finding is lost works on them alone.
 */
import type { Database } from "bun:sqlite";
import type { Usage } from "../backends/contract.ts";
import { content, metaText, optionalContent, parseJson, redactedJson, storedJson, type ContentPolicy } from "./content.ts";
import type { Redacted } from "../safety/redact.ts";
import { eraseRows } from "./erase.ts";
import { newId } from "./ids.ts";
import { removeJobsNaming } from "./jobs.ts";
import { insertUsage } from "./usage.ts";
import type { Disposition, ReviewStatus, Severity } from "./vocabulary.ts";

export type ReviewMode = "standard" | "deep";
export type ReviewerStatus = "pending" | "running" | "answered" | "failed" | "unparseable" | "cancelled";
export type { Disposition, ReviewStatus, Severity } from "./vocabulary.ts";
export type Approval = "elicitation" | "token" | "terminal";
export type SecretsMode = "mask" | "send_as_is";

export interface FindingInput {
  severity: Severity;
  location?: string;
  claim: string;
  evidence?: string;
}

export interface FindingRecord {
  id: string;
  source: "reviewer" | "host";
  agentId: string | null;
  severity: Severity;
  location: string | null;
  claim: string | null;
  evidence: string | null;
  disposition: Disposition;
  dispositionReason: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface ReviewerRecord {
  n: number;
  agentId: string;
  backend: string;
  model: string | null;
  status: ReviewerStatus;
  attempts: number;
  summary: string | null;
  reply: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  modelReported: string | null;
  modelVerified: "verified" | "unverified" | "mismatch" | null;
  usage: Usage | undefined;
  latencyMs: number | null;
  startedAt: number | null;
  endedAt: number | null;
}

export interface ReviewRecord {
  id: string;
  mode: ReviewMode;
  status: ReviewStatus;
  goal: string | null;
  plan: unknown;
  material: unknown;
  hostRuntime: string | null;
  tokenExpiresAt: number;
  tokenSpentAt: number | null;
  approval: Approval | null;
  secrets: SecretsMode | null;
  jobId: string | null;
  synthesis: unknown;
  createdAt: number;
  updatedAt: number;
  reviewers: ReviewerRecord[];
  findings: FindingRecord[];
}

export interface ReviewSummary {
  id: string;
  mode: ReviewMode;
  status: ReviewStatus;
  reviewers: string[];
  findings: Record<Severity, number>;
  createdAt: number;
  updatedAt: number;
}

export interface CreateReviewInput {
  id?: string;
  mode: ReviewMode;
  goal: string;
  /** What the plan showed (metadata: reviewers, sizes, request count, secret locations). */
  plan: unknown;
  /** The material items as JSON (their text is redacted here, like every stored copy). */
  material: unknown;
  /** The material's full text, for its stored length and hash (already scrubbed, or scrubbed here). */
  materialText: string | Redacted;
  hostRuntime?: string;
  token: { sha256: string; binding: string; expiresAt: number };
  reviewers: { agentId: string; backend: string; model?: string }[];
  now?: number;
}

/** How one reviewer's run ended. */
export interface ReviewerEnd {
  status: Extract<ReviewerStatus, "answered" | "failed" | "unparseable" | "cancelled">;
  summary?: string;
  /** The reply as the reviewer gave it, kept when it could not be read as findings. */
  reply?: string;
  findings?: FindingInput[];
  errorCode?: string;
  errorMessage?: string;
  modelReported?: string;
  modelVerified: "verified" | "unverified" | "mismatch";
  usage?: Usage;
  /** The usage's cost was estimated from the model's price (the CLI reports none; migration 010). */
  costEstimated?: boolean;
  latencyMs: number;
}

/** `claimed` for exactly one caller per token; the others learn why not. */
export type ClaimOutcome =
  | { outcome: "claimed"; binding: string }
  | { outcome: "unknown" | "invalid" | "expired" }
  | { outcome: "wrong_state"; status: ReviewStatus };

export interface ReviewFilter {
  olderThan?: number;
}

export interface ReviewStore {
  create(input: CreateReviewInput): string;
  get(id: string): ReviewRecord | undefined;
  list(opts?: { limit?: number; status?: ReviewStatus }): ReviewSummary[];
  /** Spends the token of a planned review and moves it to `approving`, atomically across processes. */
  claim(id: string, tokenSha256: string, now?: number): ClaimOutcome;
  /** Moves the review to `to` when it is in one of `from`; false when it was not. */
  transition(
    id: string,
    from: readonly ReviewStatus[],
    to: ReviewStatus,
    patch?: { approval?: Approval; secrets?: SecretsMode; jobId?: string },
    now?: number,
  ): boolean;
  /** The host's own findings (H1, H2, …), recorded before any reviewer runs. */
  addHostFindings(id: string, findings: readonly FindingInput[], now?: number): string[];
  /** Marks these reviewers running (one more attempt each). */
  startReviewers(id: string, agentIds: readonly string[], now?: number): void;
  /** Records one reviewer's end and its findings (F…); returns their ids. */
  finishReviewer(id: string, agentId: string, end: ReviewerEnd, now?: number): string[];
  /** Stores the synthesis and the dispositions and marks the review finalized, if it was awaiting synthesis. */
  finalize(id: string, synthesis: unknown, dispositions: readonly { id: string; disposition: Disposition; reason?: string }[], now?: number): boolean;
  count(filter?: ReviewFilter): number;
  delete(id: string): "deleted" | "not_found" | "running";
  deleteAll(filter?: ReviewFilter): number;
}

/** A review whose reviewers may be running is never deleted: its job still writes to it. */
const LIVE = `('approving', 'running')`;

interface ReviewRow {
  id: string;
  mode: ReviewMode;
  status: ReviewStatus;
  goal: string | null;
  plan_json: string;
  material_json: string | null;
  host_runtime: string | null;
  token_sha256: string;
  token_binding: string;
  token_expires_at: number;
  token_spent_at: number | null;
  approval: Approval | null;
  secrets: SecretsMode | null;
  job_id: string | null;
  synthesis_json: string | null;
  created_at: number;
  updated_at: number;
}

interface ReviewerRow {
  n: number;
  agent_id: string;
  backend: string;
  model: string | null;
  status: ReviewerStatus;
  attempts: number;
  summary: string | null;
  reply: string | null;
  error_code: string | null;
  error_message: string | null;
  model_reported: string | null;
  model_verified: ReviewerRecord["modelVerified"];
  usage_json: string | null;
  latency_ms: number | null;
  started_at: number | null;
  ended_at: number | null;
}

interface FindingRow {
  id: string;
  source: "reviewer" | "host";
  agent_id: string | null;
  severity: Severity;
  location: string | null;
  claim: string | null;
  evidence: string | null;
  disposition: Disposition;
  disposition_reason: string | null;
  created_at: number;
  updated_at: number;
}

export function createReviewStore(db: Database, policy: ContentPolicy): ReviewStore {
  const insertFindings = (id: string, source: "reviewer" | "host", agentId: string | null, findings: readonly FindingInput[], now: number): string[] => {
    const prefix = source === "host" ? "H" : "F";
    const next =
      db
        .query<{ n: number }, { id: string; source: string }>(
          `SELECT coalesce(max(seq), 0) AS n FROM review_findings WHERE review_id = $id AND source = $source`,
        )
        .get({ id, source })?.n ?? 0;
    return findings.map((f, i) => {
      const fid = `${prefix}${next + i + 1}`;
      const claim = content(f.claim, policy);
      db.query(
        `INSERT INTO review_findings (review_id, id, seq, source, agent_id, severity, location, claim, claim_len, evidence, created_at, updated_at)
         VALUES ($review, $fid, $seq, $source, $agent, $severity, $location, $claim, $claimLen, $evidence, $now, $now)`,
      ).run({
        review: id,
        fid,
        seq: next + i + 1,
        source,
        agent: agentId,
        severity: f.severity,
        location: metaText(f.location),
        claim: claim.text,
        claimLen: claim.length,
        evidence: optionalContent(f.evidence, policy)?.text ?? null,
        now,
      });
      return fid;
    });
  };

  const touch = (id: string, now: number) => db.query(`UPDATE reviews SET updated_at = $now WHERE id = $id`).run({ id, now });

  const claimTx = db.transaction((id: string, hash: string, now: number): ClaimOutcome => {
    const row = db
      .query<Pick<ReviewRow, "status" | "token_sha256" | "token_binding" | "token_expires_at" | "token_spent_at">, { id: string }>(
        `SELECT status, token_sha256, token_binding, token_expires_at, token_spent_at FROM reviews WHERE id = $id`,
      )
      .get({ id });
    if (!row) return { outcome: "unknown" };
    if (row.token_sha256 !== hash || row.token_spent_at !== null) return { outcome: "invalid" };
    if (row.status !== "planned") return { outcome: "wrong_state", status: row.status };
    if (row.token_expires_at <= now) {
      db.query(`UPDATE reviews SET status = 'expired', updated_at = $now WHERE id = $id`).run({ id, now });
      return { outcome: "expired" };
    }
    const won = db
      .query(
        `UPDATE reviews SET token_spent_at = $now, status = 'approving', updated_at = $now WHERE id = $id AND token_spent_at IS NULL AND status = 'planned'`,
      )
      .run({ id, now }).changes;
    return won === 1 ? { outcome: "claimed", binding: row.token_binding } : { outcome: "invalid" };
  });

  const finishTx = db.transaction((id: string, agentId: string, end: ReviewerEnd, now: number): string[] => {
    const reviewer = db
      .query<{ n: number; backend: string; model: string | null }, { id: string; agent: string }>(
        `SELECT n, backend, model FROM review_reviewers WHERE review_id = $id AND agent_id = $agent`,
      )
      .get({ id, agent: agentId });
    if (!reviewer) throw new Error(`review ${id} has no reviewer ${agentId}`);
    const reply = optionalContent(end.reply, policy);
    db.query(
      `UPDATE review_reviewers SET status = $status, summary = $summary, reply = $reply, reply_len = $replyLen, error_code = $errorCode,
         error_message = $errorMessage, model_reported = $modelReported, model_verified = $modelVerified, usage_json = $usage,
         latency_ms = $latency, ended_at = $now
       WHERE review_id = $id AND agent_id = $agent`,
    ).run({
      id,
      agent: agentId,
      status: end.status,
      summary: optionalContent(end.summary, policy)?.text ?? null,
      reply: reply?.text ?? null,
      replyLen: reply?.length ?? null,
      errorCode: end.errorCode ?? null,
      errorMessage: metaText(end.errorMessage),
      modelReported: end.modelReported ?? null,
      modelVerified: end.modelVerified,
      usage: end.usage ? redactedJson(end.costEstimated ? { ...end.usage, costEstimated: true } : end.usage) : null,
      latency: Math.round(end.latencyMs),
      now,
    });
    insertUsage(db, {
      source: "review",
      refId: id,
      refN: reviewer.n,
      agentId,
      backend: reviewer.backend,
      model: end.modelReported ?? reviewer.model,
      usage: end.usage,
      ...(end.costEstimated ? { costEstimated: true } : {}),
      latencyMs: end.latencyMs,
      createdAt: now,
    });
    touch(id, now);
    return insertFindings(id, "reviewer", agentId, end.findings ?? [], now);
  });

  const finalizeTx = db.transaction(
    (id: string, synthesis: unknown, dispositions: readonly { id: string; disposition: Disposition; reason?: string }[], now: number): boolean => {
      const done = db
        .query(`UPDATE reviews SET status = 'finalized', synthesis_json = $synthesis, updated_at = $now WHERE id = $id AND status = 'awaiting_synthesis'`)
        .run({ id, synthesis: storedJson(synthesis, policy), now }).changes;
      if (done !== 1) return false;
      const set = db.query(
        `UPDATE review_findings SET disposition = $disposition, disposition_reason = $reason, updated_at = $now WHERE review_id = $id AND id = $fid`,
      );
      for (const d of dispositions) set.run({ id, fid: d.id, disposition: d.disposition, reason: metaText(d.reason), now });
      return true;
    },
  );

  return {
    create(input) {
      const now = input.now ?? Date.now();
      const id = input.id ?? newId(now);
      const goal = content(input.goal, policy);
      const material = content(input.materialText, policy);
      db.transaction(() => {
        db.query(
          `INSERT INTO reviews (id, mode, status, goal, goal_len, plan_json, material_json, material_len, material_sha256, host_runtime,
             token_sha256, token_binding, token_expires_at, created_at, updated_at)
           VALUES ($id, $mode, 'planned', $goal, $goalLen, $plan, $material, $materialLen, $materialSha, $host, $tokenSha, $binding, $expires, $now, $now)`,
        ).run({
          id,
          mode: input.mode,
          goal: goal.text,
          goalLen: goal.length,
          plan: redactedJson(input.plan),
          material: policy.fullContent ? storedJson(input.material, policy) : null,
          materialLen: material.length,
          materialSha: material.sha256,
          host: input.hostRuntime ?? null,
          tokenSha: input.token.sha256,
          binding: input.token.binding,
          expires: input.token.expiresAt,
          now,
        });
        const add = db.query(
          `INSERT INTO review_reviewers (review_id, n, agent_id, backend, model, status) VALUES ($id, $n, $agent, $backend, $model, 'pending')`,
        );
        for (const [i, r] of input.reviewers.entries()) add.run({ id, n: i + 1, agent: r.agentId, backend: r.backend, model: r.model ?? null });
      }).immediate();
      return id;
    },

    get(id) {
      const row = db.query<ReviewRow, { id: string }>(`SELECT * FROM reviews WHERE id = $id`).get({ id });
      if (!row) return undefined;
      const reviewers = db.query<ReviewerRow, { id: string }>(`SELECT * FROM review_reviewers WHERE review_id = $id ORDER BY n`).all({ id }).map(toReviewer);
      const findings = db
        .query<FindingRow, { id: string }>(`SELECT * FROM review_findings WHERE review_id = $id ORDER BY source, seq`)
        .all({ id })
        .map(toFinding);
      return toReview(row, reviewers, findings);
    },

    list({ limit = 50, status } = {}) {
      const rows = db
        .query<ReviewRow, { limit: number; status: string | null }>(
          `SELECT * FROM reviews WHERE $status IS NULL OR status = $status ORDER BY updated_at DESC, id DESC LIMIT $limit`,
        )
        .all({ limit, status: status ?? null });
      return rows.map((r) => summaryOf(db, r));
    },

    claim(id, tokenSha256, now = Date.now()) {
      return claimTx.immediate(id, tokenSha256, now);
    },

    transition(id, from, to, patch = {}, now = Date.now()) {
      const states = from.map((s) => `'${s}'`).join(", ");
      return (
        db
          .query(
            `UPDATE reviews SET status = $to, approval = coalesce($approval, approval), secrets = coalesce($secrets, secrets), job_id = coalesce($job, job_id), updated_at = $now WHERE id = $id AND status IN (${states})`,
          )
          .run({ id, to, approval: patch.approval ?? null, secrets: patch.secrets ?? null, job: patch.jobId ?? null, now }).changes === 1
      );
    },

    addHostFindings(id, findings, now = Date.now()) {
      return db
        .transaction(() => {
          touch(id, now);
          return insertFindings(id, "host", null, findings, now);
        })
        .immediate();
    },

    startReviewers(id, agentIds, now = Date.now()) {
      const start = db.query(
        `UPDATE review_reviewers SET status = 'running', attempts = attempts + 1, started_at = $now, ended_at = NULL, error_code = NULL, error_message = NULL WHERE review_id = $id AND agent_id = $agent`,
      );
      db.transaction(() => {
        for (const agent of agentIds) start.run({ id, agent, now });
        touch(id, now);
      }).immediate();
    },

    finishReviewer(id, agentId, end, now = Date.now()) {
      return finishTx.immediate(id, agentId, end, now);
    },

    finalize(id, synthesis, dispositions, now = Date.now()) {
      return finalizeTx.immediate(id, synthesis, dispositions, now);
    },

    count({ olderThan } = {}) {
      return (
        db.query<{ n: number }, { cutoff: number | null }>(`SELECT count(*) AS n FROM reviews WHERE ${FINISHED_BEFORE}`).get({ cutoff: olderThan ?? null })
          ?.n ?? 0
      );
    },

    delete(id) {
      const row = db.query<{ status: ReviewStatus }, { id: string }>(`SELECT status FROM reviews WHERE id = $id`).get({ id });
      if (!row) return "not_found";
      if (row.status === "approving" || row.status === "running") return "running";
      return eraseRows(db, () => removeReviews(db, `id = $id AND status NOT IN ${LIVE}`, { id })) > 0 ? "deleted" : "not_found";
    },

    deleteAll({ olderThan } = {}) {
      return eraseRows(db, () => removeReviews(db, FINISHED_BEFORE, { cutoff: olderThan ?? null }));
    },
  };
}

const FINISHED_BEFORE = `status NOT IN ${LIVE} AND ($cutoff IS NULL OR updated_at < $cutoff)`;

/** Reviewers and findings go by ON DELETE CASCADE; usage rows and the jobs that ran a review carry no foreign key. */
function removeReviews(db: Database, where: string, params: Record<string, string | number | null>): number {
  removeJobsNaming(db, "$.review_id", `SELECT id FROM reviews WHERE ${where}`, params);
  db.query(`DELETE FROM usage WHERE source = 'review' AND ref_id IN (SELECT id FROM reviews WHERE ${where})`).run(params);
  return db.query(`DELETE FROM reviews WHERE ${where}`).run(params).changes;
}

function summaryOf(db: Database, r: ReviewRow): ReviewSummary {
  const reviewers = db
    .query<{ agent_id: string }, { id: string }>(`SELECT agent_id FROM review_reviewers WHERE review_id = $id ORDER BY n`)
    .all({ id: r.id })
    .map((x) => x.agent_id);
  const findings: Record<Severity, number> = { critical: 0, important: 0, minor: 0 };
  for (const f of db
    .query<{ severity: Severity; n: number }, { id: string }>(`SELECT severity, count(*) AS n FROM review_findings WHERE review_id = $id GROUP BY severity`)
    .all({ id: r.id }))
    findings[f.severity] = f.n;
  return { id: r.id, mode: r.mode, status: r.status, reviewers, findings, createdAt: r.created_at, updatedAt: r.updated_at };
}

function toReview(r: ReviewRow, reviewers: ReviewerRecord[], findings: FindingRecord[]): ReviewRecord {
  return {
    id: r.id,
    mode: r.mode,
    status: r.status,
    goal: r.goal,
    plan: parseJson(r.plan_json),
    material: parseJson(r.material_json),
    hostRuntime: r.host_runtime,
    tokenExpiresAt: r.token_expires_at,
    tokenSpentAt: r.token_spent_at,
    approval: r.approval,
    secrets: r.secrets,
    jobId: r.job_id,
    synthesis: parseJson(r.synthesis_json),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    reviewers,
    findings,
  };
}

function toReviewer(r: ReviewerRow): ReviewerRecord {
  return {
    n: r.n,
    agentId: r.agent_id,
    backend: r.backend,
    model: r.model,
    status: r.status,
    attempts: r.attempts,
    summary: r.summary,
    reply: r.reply,
    errorCode: r.error_code,
    errorMessage: r.error_message,
    modelReported: r.model_reported,
    modelVerified: r.model_verified,
    usage: parseJson(r.usage_json) as Usage | undefined,
    latencyMs: r.latency_ms,
    startedAt: r.started_at,
    endedAt: r.ended_at,
  };
}

function toFinding(r: FindingRow): FindingRecord {
  return {
    id: r.id,
    source: r.source,
    agentId: r.agent_id,
    severity: r.severity,
    location: r.location,
    claim: r.claim,
    evidence: r.evidence,
    disposition: r.disposition,
    dispositionReason: r.disposition_reason,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
