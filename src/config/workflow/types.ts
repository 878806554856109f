/**
 * Seed 001's `consult.workflow`, resolved: the steps of the three-phase workflow, each bound to the
 * host, to one agent (named, or auto-routed by the step's capability) in an execution mode, or to a
 * list of reviewers; the round cap and the policy the loop runs under. A workflow snapshots all of
 * this at start, so editing the file never reroutes a running one.
 */
/** Seed 001's execution modes: an answer, a diff sent back, or writes into a throw-away worktree. */
export type ExecutionMode = "consultation" | "patch" | "isolated_write";

export const WORKFLOW_STEPS = ["research", "plan", "author_execution_prompt", "implement", "apply_patch", "test", "review", "synthesize", "fix"] as const;
export type WorkflowStepName = (typeof WORKFLOW_STEPS)[number];

/** The capability a step routes on when its binding leaves the agent out (seed 001 added the four new ones). */
export const STEP_CAPABILITY: Record<WorkflowStepName, string> = {
  research: "research",
  plan: "planning",
  author_execution_prompt: "prompt_authoring",
  implement: "coding",
  apply_patch: "coding",
  test: "testing",
  review: "review",
  synthesize: "synthesis",
  fix: "coding",
};

export type WorkflowBinding =
  | { kind: "host" }
  /** agent undefined = auto: the best score for the step's capability, at workflow_start. */
  | { kind: "agent"; agent?: string; execution: ExecutionMode }
  | { kind: "agents"; agents: string[] };

export interface WorkflowConfig {
  maxFixRounds: number;
  roots: string[];
  advanceOnFailedTest: boolean;
  executionTimeoutSec: number;
  reviewPolicy: { differentFromImplementer: boolean; differentFromPlanner: boolean };
  /** Only the steps the file binds; an unbound step is the host's, except review (refused at start). */
  bindings: Partial<Record<WorkflowStepName, WorkflowBinding>>;
}
