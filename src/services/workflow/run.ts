/**
 * workflow_run_step: a delegated step, after its token is spent. consultation and patch run
 * answer-only (the consult sandbox, in a scratch directory: the agent sees only the payload);
 * isolated_write runs the agent in a worktree under the state dir, with the user's checkout
 * fingerprinted before and after — a checkout that changed fails the step as a containment breach.
 * The review step goes through the review service: its token is the review's, its reviewers run
 * there, and its findings stay in the review rows.
 */
import { createHash } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { AgentEvent } from "../../backends/events.ts";
import type { AgentConfig } from "../../config/types.ts";
import { fingerprintTree } from "../../git/fingerprint.ts";
import { captureWorktree, createWorktree, removeWorktree, type Captured, type Worktree } from "../../git/worktree.ts";
import { fail, ok, type Failure, type Result, type Settled } from "../../result.ts";
import type { FindingInput } from "../../store/reviews.ts";
import type { StepRecord } from "../../store/workflows.ts";
import { runAttempt } from "../../runner/attempt.ts";
import { answerTraits } from "../answer/cli-variant.ts";
import { consultTurn } from "../answer/turn.ts";
import { CONSULT_CONTRACT } from "../answer/envelope.ts";
import { approveRun, runReviewers, type Approver, type ReviewJobRequest } from "../review/index.ts";
import type { Runtime } from "../shared/runtime.ts";
import { storeLedger, type StoreLedger } from "../shared/store-writes.ts";
import { observedReport } from "./observed.ts";
import { extractPatch, patchSummary } from "./prompt.ts";
import { spendStep, type StepApprover } from "./spend.ts";
import type { StepResult } from "./results.ts";
import { advance, snapshotOf } from "./state.ts";

export interface RunStepRequest {
  workflow_id: string;
  step_id: string;
  token: string;
  host_findings?: FindingInput[];
}

export interface StepOutcome {
  workflow_id: string;
  step_id: string;
  step: string;
  status: StepRecord["status"];
  approval: "elicitation" | "token";
  result?: StepResult;
}

/** What a step's job runs once its token is spent (and, for the review, the review's own approval given). */
export interface StepJobRequest {
  workflow_id: string;
  step_id: string;
  approval: "elicitation" | "token";
  review?: ReviewJobRequest;
}

/** A step job's end: the same view whether it ended inside the call or is read back by job_wait. */
export type StepJobOutcome = StepOutcome & Settled & { store_notice?: string };

/**
 * The live half of workflow_run_step: the token is spent (and elicitation asked) while the call is
 * still open, because only the call can reach the person; what runs afterwards can outlive it as a job.
 */
export async function prepareStep(rt: Runtime, req: RunStepRequest, approver: StepApprover | undefined): Promise<Result<StepJobRequest>> {
  const planned = rt.store.workflows.step(req.step_id);
  if (planned && planned.executor === "host") return fail("not_delegated_step", `Step ${planned.step} is the host's.`);
  const spent = await spendStep(rt, req.workflow_id, req.step_id, req.token, approver);
  if (!spent.ok) return spent;
  const step = spent.value;
  const base = { workflow_id: step.workflowId, step_id: step.id, approval: step.approvedBy };
  if (step.executor !== "agents") return ok(base);
  const review = await approveReview(rt, step, req, approver);
  if (!review.ok) return failStep(rt, step, review.error);
  return ok({ ...base, review: review.value });
}

/** The long half: run the prepared step and record how it ended. Never throws. */
export async function executeStep(rt: Runtime, req: StepJobRequest, signal: AbortSignal): Promise<StepJobOutcome> {
  const step = rt.store.workflows.step(req.step_id);
  const view = { workflow_id: req.workflow_id, step_id: req.step_id, step: step?.step ?? "unknown", approval: req.approval };
  if (!step) return { ...view, ok: false, status: "failed", error: { code: "unknown_workflow", message: `Step ${req.step_id} disappeared before it ran.` } };
  const done = req.review ? await reviewStep(rt, req.review, signal) : await agentStep(rt, step, signal);
  // The step's work is in hand: a store that refuses its end gets it later, and the caller is told.
  const ledger = storeLedger(`workflow step ${step.id}`);
  if (!done.ok) {
    const error = done.error;
    ledger.write(() => rt.store.workflows.finishStep(step.id, { status: "failed", errorCode: error.code, errorMessage: error.message }, rt.now()));
    ledger.write(() => advance(rt, step.workflowId));
    return { ...view, ok: false, status: "failed", error, ...noticeOf(ledger) };
  }
  const status = step.step === "implement" || step.step === "fix" ? "awaiting_host_apply" : "succeeded";
  const result = done.value;
  ledger.write(() => rt.store.workflows.finishStep(step.id, { status, result, approval: req.approval }, rt.now()));
  if (step.step === "fix") ledger.write(() => rt.store.workflows.update(step.workflowId, { round: step.round }, rt.now()));
  ledger.write(() => advance(rt, step.workflowId));
  return { ...view, ok: true, status, result, ...noticeOf(ledger) };
}

function noticeOf(ledger: StoreLedger): { store_notice?: string } {
  const notice = ledger.notice();
  return notice ? { store_notice: notice } : {};
}

function failStep<T>(rt: Runtime, step: StepRecord, error: Failure): Result<T> {
  rt.store.workflows.finishStep(step.id, { status: "failed", errorCode: error.code, errorMessage: error.message }, rt.now());
  advance(rt, step.workflowId);
  return { ok: false, error };
}

/** The review step's token is the review's: the review service spends it and asks the person. */
async function approveReview(rt: Runtime, step: StepRecord, req: RunStepRequest, approver: StepApprover | undefined): Promise<Result<ReviewJobRequest>> {
  if (!step.reviewId) return fail("internal_error", `Review step ${step.id} has no review.`);
  const asker: Approver | undefined = approver ? { kind: "elicitation", ask: approver.ask } : undefined;
  const approved = await approveRun(
    rt,
    { review_id: step.reviewId, token: req.token, ...(req.host_findings ? { host_findings: req.host_findings } : {}) },
    asker,
  );
  if (!approved.ok) return approved;
  const { review_id, agents, secrets } = approved.value;
  return ok({ review_id, agents, secrets });
}

async function reviewStep(rt: Runtime, review: ReviewJobRequest, signal: AbortSignal): Promise<Result<StepResult>> {
  const outcome = await runReviewers(rt, review, { signal, onProgress: () => {} });
  if (!outcome.ok) return { ok: false, error: outcome.error ?? { code: "internal_error", message: "The review did not finish." } };
  return ok({
    review_id: review.review_id,
    review_status: outcome.status,
    findings: outcome.findings.length,
    next: "Finalize the review through workflow_record_host_step(synthesize) with your synthesis.",
  });
}

async function agentStep(rt: Runtime, step: StepRecord, signal: AbortSignal): Promise<Result<StepResult>> {
  const bound = snapshottedAgent(rt, step);
  if (!bound.ok) return bound;
  const agent = bound.value;
  const prompt = promptOf(step);
  if (prompt === undefined) return fail("invalid_token", `Step ${step.id}'s prompt no longer matches its preview's hash; nothing ran.`);
  if (step.execution === "isolated_write") return isolatedStep(rt, step, agent, prompt, signal);
  return answerStep(rt, step, agent, prompt, signal);
}

/**
 * The step's agent as workflow_start resolved it: the snapshot's backend and model over the live
 * entry, so editing config.yaml between steps never changes what a step runs (docs/design.md,
 * workflows). The live entry still supplies the process details (command, env), which the
 * snapshot does not store because it is shown to the client; an entry whose backend changed is
 * refused rather than run as something else.
 */
function snapshottedAgent(rt: Runtime, step: StepRecord): Result<AgentConfig> {
  const live = step.agentId ? rt.config.agents[step.agentId] : undefined;
  if (!live) return fail("mode_refused", `operator: agent ${step.agentId} is no longer configured.`);
  const wf = rt.store.workflows.get(step.workflowId);
  const bindings = wf ? snapshotOf(wf)?.bindings : undefined;
  const binding = bindings ? Object.entries(bindings).find(([name]) => name === step.step)?.[1] : undefined;
  if (binding?.kind !== "agent" || binding.agent !== live.id) return ok(live);
  if (binding.backend !== live.backend)
    return fail(
      "mode_refused",
      `operator: ${live.id} now runs on ${live.backend}, but this workflow was started with it on ${binding.backend}; replan the step (workflow_replan) to use the new entry.`,
    );
  const { model: _live, ...rest } = live;
  return ok(binding.model === null ? rest : { ...rest, model: binding.model });
}

/** The stored prompt, only if it still hashes to what the token approved. */
function promptOf(step: StepRecord): string | undefined {
  const preview = step.preview;
  const prompt = typeof preview === "object" && preview !== null && "prompt" in preview && typeof preview.prompt === "string" ? preview.prompt : undefined;
  if (prompt === undefined) return undefined;
  return createHash("sha256").update(prompt).digest("hex") === step.promptSha256 ? prompt : undefined;
}

function timeoutMs(rt: Runtime, step: StepRecord): number {
  const wf = rt.store.workflows.get(step.workflowId);
  const snapshot = wf ? snapshotOf(wf) : undefined;
  return (snapshot?.policy.executionTimeoutSec ?? 900) * 1000;
}

async function answerStep(rt: Runtime, step: StepRecord, agent: AgentConfig, prompt: string, signal: AbortSignal): Promise<Result<StepResult>> {
  const cwd = join(tmpdir(), `orchestrate-workflow-${step.id}`);
  try {
    const turn = await consultTurn(rt, {
      agent,
      contract: CONSULT_CONTRACT,
      traits: await answerTraits(rt, agent),
      prompt,
      cwd,
      deadline: rt.now() + timeoutMs(rt, step),
      signal,
    });
    if (!turn.content) return { ok: false, error: turn.error ?? { code: "bad_output", message: "No reply was produced." } };
    const answer = turn.content.answer;
    if (step.execution !== "patch" || (step.step !== "implement" && step.step !== "fix"))
      return ok({ text: answer, uncertainties: turn.content.uncertainties });
    const patch = extractPatch(answer);
    if (!patch)
      return fail("no_patch", `${agent.id} replied without a diff${turn.content.uncertainties.length ? `: ${turn.content.uncertainties.join("; ")}` : ""}.`);
    return ok({ patch, summary: patchSummary(answer), mode: "patch" as const });
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

async function isolatedStep(rt: Runtime, step: StepRecord, agent: AgentConfig, prompt: string, signal: AbortSignal): Promise<Result<StepResult>> {
  const wf = rt.store.workflows.get(step.workflowId);
  if (!wf) return fail("unknown_workflow", `Workflow ${step.workflowId} disappeared.`);
  const path = join(dirname(rt.store.path), "worktrees", wf.id, step.id);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const before = await fingerprintTree(wf.workdir, { timeoutMs: 60_000 });
  if (!before.ok) return fail("worktree_failed", `Could not fingerprint ${wf.workdir}: ${before.message}`);
  const created = await createWorktree(wf.workdir, path, step.commitBefore);
  if (!created.ok || !created.worktree) return fail("worktree_failed", `Could not create the worktree: ${created.ok ? "no gitdir" : created.message}`);
  const wt = created.worktree;
  const attempt = await runAttempt({
    agent,
    adapter: rt.adapters[agent.backend],
    // The backend's own defaults are its containment (codex workspace-write, claude acceptEdits, gemini
    // auto_edit): none of the agent's sandbox or permission options are passed.
    request: { mode: "route", prompt, cwd: wt.path, ...(agent.model ? { model: agent.model } : {}), provider: agent.provider },
    env: rt.env,
    maxDepth: rt.config.maxDepth,
    timeoutMs: timeoutMs(rt, step),
    signal,
    fingerprint: false,
    // A step's result names no served model (yet), so the side channel's extra read is skipped.
    sideChannel: "never",
  });
  const after = await fingerprintTree(wf.workdir, { timeoutMs: 60_000, repo: before.repo });
  if (!after.ok || after.value !== before.value) {
    await removeWorktree(wt);
    return fail(
      "containment_breach",
      `${agent.id} (${agent.backend}) changed your checkout ${wf.workdir} while it worked in its worktree; the step failed and nothing was captured.`,
    );
  }
  if (attempt.failure) {
    await removeWorktree(wt);
    return { ok: false, error: attemptFailure(agent, attempt.failure, attempt.reason) };
  }
  if (step.step === "test") return observedTest(wt, attempt, wf.currentCommit);
  return capture(
    wt,
    attempt.run.text,
    attempt.events.filter((e) => e.kind === "tool" && e.phase === "start").map((e) => (e.kind === "tool" ? `${e.name}${e.detail ? ` ${e.detail}` : ""}` : "")),
  );
}

/** A capture that failed: the worktree then holds the only copy of what the step did, so it is kept, and named. */
function keptWorktree(wt: Worktree, captured: Extract<Captured, { ok: false }>): Failure {
  const details = { worktree: wt.path };
  if (captured.reason === "nested_repository")
    return {
      code: "nested_repository",
      message: `A git repository was created inside the worktree, so its work cannot travel as a patch; the worktree is kept at ${wt.path} (${captured.message}).`,
      details,
    };
  return { code: "worktree_failed", message: `Capturing the worktree at ${wt.path} failed; the worktree is kept there: ${captured.message}`, details };
}

async function capture(wt: Worktree, summary: string, commands: string[]): Promise<Result<StepResult>> {
  const captured = await captureWorktree(wt);
  if (!captured.ok) return { ok: false, error: keptWorktree(wt, captured) };
  await removeWorktree(wt);
  if (!captured.patch.trim()) return fail("no_patch", "The agent finished without changing any file in its worktree.");
  // The diff is the record; the model's summary and its (knowingly incomplete) command list are descriptions beside it.
  return ok({
    patch: captured.patch,
    files: captured.files,
    ignored: captured.ignored,
    summary,
    commands,
    mode: "isolated_write" as const,
    baseline: wt.baseline,
  });
}

/**
 * A contained test step: the report comes from the event stream and what it edited is listed. The
 * worktree goes only once captured: a nested repository (or any capture failure) keeps it, named in
 * the step's error, as on the implement and fix path.
 */
async function observedTest(
  wt: Worktree,
  attempt: { run: { text: string }; events: AgentEvent[]; durationMs: number },
  commit: string,
): Promise<Result<StepResult>> {
  const captured = await captureWorktree(wt);
  if (!captured.ok) return { ok: false, error: keptWorktree(wt, captured) };
  await removeWorktree(wt);
  const changedFiles = captured.files.map((f) => f.path);
  return ok({
    report: observedReport({ events: attempt.events, claim: attempt.run.text, cwd: wt.path, commit, durationMs: attempt.durationMs, changedFiles }),
  });
}

function attemptFailure(agent: AgentConfig, failure: string, reason: string): Failure {
  const code = failure === "timeout" || failure === "cancelled" || failure === "recursion_limit" ? failure : "agent_failed";
  return { code, message: `${agent.id} (${agent.backend}) failed in its worktree: ${reason}` };
}
