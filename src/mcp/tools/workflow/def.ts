/**
 * The workflow tools (seed 001's three-phase workflow), advertised only when the config has a
 * consult.workflow block (tools/index.ts). Schemas and handlers load on the first call.
 */
import { defineTool } from "../../define.ts";

const schema = () => import("./schema.ts");
const handlers = () => import("./handler.ts");

const WRITES = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;

export const workflowTools = [
  defineTool({
    name: "workflow_start",
    group: "workflow",
    description:
      "Start a workflow (research → plan → brief → implement → apply → test → review → synthesize, fix rounds capped) on a clean git workdir under a root; bindings and policy are snapshotted. Sends nothing.",
    annotations: { title: "Start a workflow", ...WRITES },
    schemas: async () => ({ input: (await schema()).workflowStartInput, output: (await schema()).workflowStartOutput }),
    handler: async () => (await handlers()).workflowStart,
  }),
  defineTool({
    name: "workflow_replan",
    group: "workflow",
    description:
      "Re-decide the routing of the named steps from the current config, in two calls: without token a preview (each step's old and new agent, mode and why, what would be cancelled) and a one-time token; with the token and the same steps it is applied. Every other step keeps its binding; planned steps' tokens die.",
    annotations: { title: "Replan workflow steps", ...WRITES },
    schemas: async () => ({ input: (await schema()).workflowReplanInput, output: (await schema()).workflowReplanOutput }),
    handler: async () => (await handlers()).workflowReplan,
  }),
  defineTool({
    name: "workflow_plan_step",
    group: "workflow",
    description:
      "Preview the workflow's next step with the context you supply (the source it needs: delegated steps see nothing else) and get its one-time token. The context is redacted and hashed into the token. Sends nothing.",
    annotations: { title: "Plan a workflow step", ...WRITES },
    schemas: async () => ({ input: (await schema()).workflowPlanStepInput, output: (await schema()).workflowPlanStepOutput }),
    handler: async () => (await handlers()).workflowPlanStep,
  }),
  defineTool({
    name: "workflow_run_step",
    group: "workflow",
    description:
      "Run a planned delegated step with its token: answer-only, patch, isolated_write in a throw-away worktree, or the review through the review service. Your checkout is never written.",
    annotations: { title: "Run a workflow step", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    task: true,
    schemas: async () => ({ input: (await schema()).workflowRunStepInput, output: (await schema()).workflowRunStepOutput }),
    handler: async () => (await handlers()).workflowRunStep,
  }),
  defineTool({
    name: "workflow_record_host_step",
    group: "workflow",
    description:
      "Record a step you (the host) did, with its token: a test report (checked against its exit code), an applied patch (a new commit is required), the review's synthesis (finalized by the review service), or notes.",
    annotations: { title: "Record a host step", ...WRITES },
    schemas: async () => ({ input: (await schema()).workflowRecordHostStepInput, output: (await schema()).workflowRecordHostStepOutput }),
    handler: async () => (await handlers()).workflowRecordHostStep,
  }),
  defineTool({
    name: "workflow_status",
    group: "workflow",
    description:
      "A workflow's steps, next step, loop_done and its checks, open findings (read from the review rows); without an id, the stored workflows. Sends nothing.",
    annotations: { title: "Workflow status", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    schemas: async () => ({ input: (await schema()).workflowStatusInput, output: (await schema()).workflowStatusOutput }),
    handler: async () => (await handlers()).workflowStatus,
  }),
  defineTool({
    name: "workflow_cancel",
    group: "workflow",
    description: "Cancel an active workflow: its planned steps' tokens die; what it recorded is kept.",
    annotations: { title: "Cancel a workflow", readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    schemas: async () => ({ input: (await schema()).workflowIdInput, output: (await schema()).workflowCancelOutput }),
    handler: async () => (await handlers()).workflowCancel,
  }),
  defineTool({
    name: "workflow_delete",
    group: "workflow",
    description: "Delete a stored workflow and its steps (not while a step runs). Its reviews stay in the review history.",
    annotations: { title: "Delete a workflow", readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    schemas: async () => ({ input: (await schema()).workflowIdInput, output: (await schema()).workflowDeleteOutput }),
    handler: async () => (await handlers()).workflowDelete,
  }),
];
