/**
 * What a finished step produced, one shape per kind of step: the value stored on the step row and
 * returned by workflow_run_step and workflow_record_host_step. The tools' output schema
 * (mcp/tools/workflow/schema.ts) declares the same union, and the job kind's typing makes the
 * compiler hold the two together.
 */
import type { TestReport } from "./order.ts";

/** An answer-only step's reply (uncertainties from the consult envelope), or the host's notes. */
export interface TextResult {
  text: string;
  uncertainties?: string[];
}

/** implement / fix in patch mode: the diff the agent replied with, for the host to apply. */
export interface PatchResult {
  patch: string;
  summary: string;
  mode: "patch";
}

/** implement / fix in isolated_write: the worktree's staged diff against its baseline is the record. */
export interface WorktreeResult {
  patch: string;
  files: { status: string; path: string }[];
  ignored: string[];
  summary: string;
  commands: string[];
  mode: "isolated_write";
  baseline: string;
}

export interface TestResult {
  report: TestReport;
}

/** The review step: its reviewers ran through the review service, whose rows hold the findings. */
export interface ReviewResult {
  review_id: string;
  review_status: string;
  findings: number;
  next: string;
}

/** apply_patch: the new commit that is the evidence, and the one it moved from. */
export interface AppliedResult {
  commit: string;
  from: string;
}

/** synthesize: the review finalized, and the findings the synthesis left uncarried. */
export interface SynthesisResult {
  review_id: string;
  not_carried: string[];
}

export type StepResult = TextResult | PatchResult | WorktreeResult | TestResult | ReviewResult | AppliedResult | SynthesisResult;
