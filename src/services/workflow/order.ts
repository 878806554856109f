/**
 * Where a workflow stands, computed from its steps and never stored as a flag: the next step, and
 * loop_done (seed 001) — true only when the authoritative tests passed for the current commit, the
 * review was finalized with every reviewer's findings parsed and retained, no critical or important
 * finding is still open, and the workflow is in no exceptional state.
 */
import type { ReviewRecord } from "../../store/reviews.ts";
import type { StepRecord, WorkflowRecord } from "../../store/workflows.ts";
import { WORKFLOW_STEPS, type WorkflowStepName } from "../../config/workflow/types.ts";
import type { WorkflowSnapshot } from "./snapshot.ts";

export interface TestReport {
  command: string;
  cwd: string;
  exit_code: number | null;
  status: "pass" | "fail";
  output: string;
  duration_ms: number;
  /** Stamped by the service from what the workflow holds, never read from the payload. */
  commit: string;
  /** Assigned from which tool wrote the row. */
  reported_by: "host" | "orchestrator";
  provenance: string;
  /** An observed report only: each command the CLI reported with the exit code it read. */
  observed?: { command: string; exit_code: number | null }[];
  /** An observed report only: what the agent said about its run, kept as reported text, never the result. */
  claimed?: string;
  /** An observed report only: files the step edited while testing (nothing of them is applicable). */
  changed_files?: string[];
}

export interface LoopChecks {
  tests_passed_for_current_commit: boolean;
  every_reviewer_parsed: boolean;
  review_finalized: boolean;
  no_open_serious: boolean;
  no_exceptional_state: boolean;
}

const AFTER: Partial<Record<WorkflowStepName, WorkflowStepName>> = {
  research: "plan",
  plan: "author_execution_prompt",
  author_execution_prompt: "implement",
  implement: "apply_patch",
  fix: "apply_patch",
  apply_patch: "test",
  review: "synthesize",
};

export type Next = { step: WorkflowStepName } | { end: "completed" | "needs_attention" };

/** The step to plan next; a failed step is planned again. */
export function nextStep(wf: WorkflowRecord, steps: readonly StepRecord[], snapshot: WorkflowSnapshot, loop: () => boolean): Next {
  const last = [...steps].reverse().find((s) => s.status !== "cancelled" && s.status !== "planned");
  if (!last) return { step: "research" };
  const step = asStep(last.step);
  if (last.status === "failed" || last.status === "running") return { step };
  if (step === "test") return testPassed(last) || snapshot.policy.advanceOnFailedTest ? { step: "review" } : fixOrStop(wf, snapshot);
  if (step === "synthesize") {
    if (loop()) return { end: "completed" };
    // At the cap with the loop not done (serious findings open, or tests not passing) is never "completed".
    return fixOrStop(wf, snapshot);
  }
  return { step: AFTER[step] ?? "research" };
}

function fixOrStop(wf: WorkflowRecord, snapshot: WorkflowSnapshot): Next {
  return wf.round >= snapshot.policy.maxFixRounds ? { end: "needs_attention" } : { step: "fix" };
}

export function asStep(name: string): WorkflowStepName {
  return WORKFLOW_STEPS.find((s) => s === name) ?? "research";
}

export function reportOf(step: StepRecord | undefined): TestReport | undefined {
  const result = step?.result;
  if (typeof result !== "object" || result === null || !("report" in result)) return undefined;
  return isReport(result.report) ? result.report : undefined;
}

function isReport(value: unknown): value is TestReport {
  return (
    typeof value === "object" &&
    value !== null &&
    "status" in value &&
    "commit" in value &&
    typeof value.commit === "string" &&
    (value.status === "pass" || value.status === "fail")
  );
}

function testPassed(step: StepRecord): boolean {
  return reportOf(step)?.status === "pass";
}

const SERIOUS = new Set(["critical", "important"]);

export function openSeriousFindings(review: ReviewRecord | undefined): ReviewRecord["findings"] {
  return (review?.findings ?? []).filter((f) => SERIOUS.has(f.severity) && f.disposition === "open");
}

/** Open findings of any severity, read back from the review row: what a fix round answers. */
export function openFindings(review: ReviewRecord | undefined): ReviewRecord["findings"] {
  return (review?.findings ?? []).filter((f) => f.disposition === "open");
}

export function loopChecks(wf: WorkflowRecord, steps: readonly StepRecord[], review: ReviewRecord | undefined): LoopChecks {
  const lastTest = [...steps].reverse().find((s) => s.step === "test" && s.status === "succeeded");
  const report = reportOf(lastTest);
  return {
    tests_passed_for_current_commit: report?.status === "pass" && report.commit === wf.currentCommit,
    every_reviewer_parsed: review !== undefined && review.reviewers.length > 0 && review.reviewers.every((r) => r.status === "answered"),
    review_finalized: review?.status === "finalized",
    no_open_serious: review !== undefined && openSeriousFindings(review).length === 0,
    no_exceptional_state: wf.status === "active" && !steps.some((s) => s.status === "running"),
  };
}

export function loopDone(checks: LoopChecks): boolean {
  return Object.values(checks).every(Boolean);
}
