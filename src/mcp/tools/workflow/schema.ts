import { type } from "arktype";
import { errorInfo } from "../shared.ts";

const id = type("0 < string <= 64");
const step = type("'research' | 'plan' | 'author_execution_prompt' | 'implement' | 'apply_patch' | 'test' | 'review' | 'synthesize' | 'fix'");
const severity = type("'critical' | 'important' | 'minor'");
const lines = type("string <= 10000").array().atMostLength(200);

export const workflowStartInput = type({
  "+": "reject",
  goal: "0 < string <= 20000",
  workdir: "0 < string <= 4096",
  "bindings?": "Record<string, Record<string, unknown>>",
  "allow_dirty?": "boolean",
});

/** Without token: a preview and a one-time token; with the token (and the same steps): applied. */
export const workflowReplanInput = type({ "+": "reject", workflow_id: id, steps: step.array().atLeastLength(1).atMostLength(9), "token?": "0 < string <= 128" });

export const workflowPlanStepInput = type({ "+": "reject", workflow_id: id, step, context: "string <= 2000000" });

const hostFinding = type({ "+": "reject", severity, claim: "0 < string <= 20000", "location?": "string <= 1000", "evidence?": "string <= 20000" });

export const workflowRunStepInput = type({ "+": "reject", workflow_id: id, step_id: id, token: "0 < string <= 128", "host_findings?": hostFinding.array().atMostLength(200), "background?": "boolean" });

const combinedFinding = type({
  "+": "reject",
  severity,
  claim: "0 < string <= 20000",
  "location?": "string <= 1000",
  "evidence?": "string <= 20000",
  sources: type("0 < string <= 16").array().atMostLength(200),
  "disposition?": "'open' | 'fixed' | 'rejected' | 'accepted_risk'",
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

/**
 * Replies carry the service's view as is; the text says what to do next. `ok` and `error` are
 * declared so every reply advertises the closed set of error codes, like every other tool's.
 */
export const workflowOutput = type({ "[string]": "unknown", ok: "boolean", "error?": errorInfo });

/** A workflow_run_step job's end as stored, read back by job_wait (services/workflow/run.ts StepJobOutcome). */
export const workflowStepOutput = type({
  ok: "boolean",
  "error?": errorInfo,
  workflow_id: "string",
  step_id: "string",
  step: "string",
  status: "string",
  approval: "'elicitation' | 'token'",
  "result?": "unknown",
});
