import { type } from "arktype";
import { STEP_STATUSES } from "../../../store/vocabulary.ts";
import { disposition, errorInfo, jobRef, planCost, severity } from "../shared.ts";

const id = type("0 < string <= 64");
const step = type("'research' | 'plan' | 'author_execution_prompt' | 'implement' | 'apply_patch' | 'test' | 'review' | 'synthesize' | 'fix'");
const lines = type("string <= 10000").array().atMostLength(200);

export const workflowStartInput = type({
  "+": "reject",
  goal: "0 < string <= 20000",
  workdir: "0 < string <= 4096",
  "bindings?": "Record<string, Record<string, unknown>>",
  "allow_dirty?": "boolean",
});

/** Without token: a preview and a one-time token; with the token (and the same steps): applied. */
export const workflowReplanInput = type({
  "+": "reject",
  workflow_id: id,
  steps: step.array().atLeastLength(1).atMostLength(9),
  "token?": "0 < string <= 128",
});

export const workflowPlanStepInput = type({ "+": "reject", workflow_id: id, step, context: "string <= 2000000" });

const hostFinding = type({ "+": "reject", severity, claim: "0 < string <= 20000", "location?": "string <= 1000", "evidence?": "string <= 20000" });

export const workflowRunStepInput = type({
  "+": "reject",
  workflow_id: id,
  step_id: id,
  token: "0 < string <= 128",
  "host_findings?": hostFinding.array().atMostLength(200),
  "background?": "boolean",
});

const combinedFinding = type({
  "+": "reject",
  severity,
  claim: "0 < string <= 20000",
  "location?": "string <= 1000",
  "evidence?": "string <= 20000",
  sources: type("0 < string <= 16").array().atMostLength(200),
  "disposition?": disposition,
  "reason?": "string <= 5000",
});

export const workflowRecordHostStepInput = type({
  "+": "reject",
  workflow_id: id,
  step_id: id,
  token: "0 < string <= 128",
  "text?": "string <= 200000",
  "test?": {
    "+": "reject",
    command: "0 < string <= 10000",
    "cwd?": "string <= 4096",
    "exit_code?": "number.integer",
    status: "'pass' | 'fail'",
    output: "string <= 2000000",
    duration_ms: "number >= 0",
  },
  "synthesis?": {
    "+": "reject",
    summary: "0 < string <= 50000",
    recommendation: "0 < string <= 10000",
    checked: lines,
    not_checked: lines,
    combined_findings: combinedFinding.array().atMostLength(500),
    agreements: lines,
    disagreements: lines,
  },
});

export const workflowIdInput = type({ "+": "reject", workflow_id: id });
export const workflowStatusInput = type({ "+": "reject", "workflow_id?": id });

const agentRef = type({ id: "string", backend: "string", model: "string | null" });
const executor = type("'host' | 'agent' | 'agents'");
const executionMode = type("'consultation' | 'patch' | 'isolated_write'");
const approval = type("'elicitation' | 'token'");

/** A TestReport as services/workflow/order.ts builds it (host-attested or orchestrator-observed). */
const testReport = type({
  command: "string",
  cwd: "string",
  exit_code: "number | null",
  status: "'pass' | 'fail'",
  output: "string",
  duration_ms: "number",
  commit: "string",
  reported_by: "'host' | 'orchestrator'",
  provenance: "string",
  "observed?": type({ command: "string", exit_code: "number | null" }).array(),
  "claimed?": "string",
  "changed_files?": "string[]",
});

/** What a finished step produced: one shape per kind of step (services/workflow/results.ts). */
const stepResult = type({ text: "string", "uncertainties?": "string[]" })
  .or({ patch: "string", summary: "string", mode: "'patch'" })
  .or({
    patch: "string",
    files: type({ status: "string", path: "string" }).array(),
    ignored: "string[]",
    summary: "string",
    commands: "string[]",
    mode: "'isolated_write'",
    baseline: "string",
  })
  .or({ report: testReport })
  .or({ review_id: "string", review_status: "string", findings: "number", next: "string" })
  .or({ commit: "string", from: "string" })
  .or({ review_id: "string", not_carried: "string[]" });

const stepBinding = type({ kind: "'host'" })
  .or({ kind: "'agent'", agent: "string", backend: "string", model: "string | null", execution: executionMode })
  .or({ kind: "'agents'", agents: "string[]" });

/**
 * The bindings snapshotted at workflow_start (services/workflow/snapshot.ts), one per step. An index
 * signature, not nine named keys: the binding union is spelled once in tools/list instead of nine
 * times (it was ~1,500 tokens per tool that returns a snapshot).
 */
const bindings = type({ "[string]": stepBinding });

const snapshot = type({
  bindings,
  policy: {
    maxFixRounds: "number",
    advanceOnFailedTest: "boolean",
    executionTimeoutSec: "number",
    reviewPolicy: { differentFromImplementer: "boolean", differentFromPlanner: "boolean" },
  },
  host: { runtime: "string", "model?": "string" },
});

/** The output types declare a success's fields as it has them; a failure is `{ok: false, error}` (the wire schema requires only ok). */
export const workflowStartOutput = type({ ok: "boolean", "error?": errorInfo, workflow_id: "string", commit: "string", snapshot });

const decision = type({ executor, "agent?": agentRef, "reviewers?": "string[]", "execution?": "string", why: "string" });

/** Both calls of workflow_replan: the preview (decisions, cancels, token) and the applied replan (decisions, cancelled, bindings). */
export const workflowReplanOutput = type({
  ok: "boolean",
  "error?": errorInfo,
  workflow_id: "string",
  steps: step.array(),
  decisions: type({ step, before: decision, after: decision, changed: "boolean" }).array(),
  approval,
  "cancels?": type({ step_id: "string", step: "string", round: "number" }).array(),
  "expires_at?": "string",
  "token?": "string",
  "cancelled?": "number",
  "bindings?": bindings,
});

/** A step's preview and its one-time token (services/workflow/plan.ts StepPreview), and how it will be approved. */
export const workflowPlanStepOutput = type({
  ok: "boolean",
  "error?": errorInfo,
  workflow_id: "string",
  step_id: "string",
  step,
  round: "number",
  executor,
  "agent?": agentRef,
  "reviewers?": agentRef.array(),
  "execution?": "string",
  "review_id?": "string",
  commit: "string",
  prompt_sha256: "string",
  context_chars: "number",
  context_redacted: "boolean",
  open_findings: "number",
  "cost?": planCost,
  expires_at: "string",
  token: "string",
  approval,
});

const loopChecks = type({
  tests_passed_for_current_commit: "boolean",
  every_reviewer_parsed: "boolean",
  review_finalized: "boolean",
  no_open_serious: "boolean",
  no_exceptional_state: "boolean",
});

const stepView = type({
  step_id: "string",
  step: "string",
  round: "number",
  status: "string",
  executor: "string",
  agent: "string | null",
  execution: "string | null",
  review_id: "string | null",
  "error?": type({ code: "string", message: "string | null" }),
  // Read back from the step row as stored (redacted JSON), so not re-checked against stepResult here.
  "result?": "unknown",
});

/** workflow_status with an id (services/workflow/views.ts WorkflowView); without one, the stored workflows. */
export const workflowStatusOutput = type({
  ok: "boolean",
  "error?": errorInfo,
  "workflow_id?": "string",
  "status?": "'active' | 'completed' | 'needs_attention' | 'failed' | 'cancelled'",
  "goal?": "string",
  "workdir?": "string",
  "baseline_commit?": "string",
  "current_commit?": "string",
  "round?": "number",
  "max_fix_rounds?": "number | null",
  "next?": "string",
  "loop_done?": "boolean",
  "checks?": loopChecks,
  "open_findings?": type({ id: "string", severity: "string", claim: "string | null" }).array(),
  "last_test?": testReport,
  "steps?": stepView.array(),
  "workflows?": type({ workflow_id: "string", status: "string", goal: "string", round: "number", updated_at: "string" }).array(),
});

const stepFields = {
  workflow_id: "string",
  step_id: "string",
  step: "string",
  status: type.enumerated(...STEP_STATUSES),
  approval,
  "result?": stepResult,
} as const;

/** A workflow_run_step job's end as stored, read back by job_wait (services/workflow/run.ts StepJobOutcome). */
export const workflowStepOutput = type({ ok: "boolean", "error?": errorInfo, ...stepFields, "store_notice?": "string" });

/** workflow_run_step: the step's end, or (past the client's ceiling, or with background) the job to wait on. */
export const workflowRunStepOutput = type({
  ok: "boolean",
  "error?": errorInfo,
  "workflow_id?": "string",
  "step_id?": "string",
  "step?": "string",
  "status?": stepFields.status,
  "approval?": approval,
  "result?": stepResult,
  /** store_unavailable: the history store refused the step's end after its work ran. */
  "store_notice?": "string",
  "job?": jobRef,
  "attempts?": "unknown[]",
});

/** workflow_record_host_step: the step as recorded. */
/** Recording a host step answers with the same step view as running one. */
export { workflowStepOutput as workflowRecordHostStepOutput };

export const workflowCancelOutput = type({ ok: "boolean", "error?": errorInfo, workflow_id: "string", status: "'cancelled'" });
export const workflowDeleteOutput = type({ ok: "boolean", "error?": errorInfo, workflow_id: "string", deleted: "true" });
