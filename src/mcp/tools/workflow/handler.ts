/** The workflow tools' handlers, typed by their schemas: call the workflow services, shape the reply. Never throw. */
import type { ToolContext } from "../../define.ts";
import type { ToolOutcome } from "../../outcome.ts";
import type { Result } from "../../../result.ts";
import { resolveHost } from "../../../services/consult/target.ts";
import { runAsJob } from "../../jobs/bridge.ts";
import { totalLine } from "../../../services/shared/price.ts";
import { withRuntime } from "../runtime.ts";
import { workflowStepKind } from "./kind.ts";
import type {
  workflowCancelOutput,
  workflowDeleteOutput,
  workflowIdInput,
  workflowPlanStepInput,
  workflowPlanStepOutput,
  workflowRecordHostStepInput,
  workflowRecordHostStepOutput,
  workflowReplanInput,
  workflowReplanOutput,
  workflowRunStepInput,
  workflowStartInput,
  workflowStartOutput,
  workflowStatusInput,
  workflowStatusOutput,
} from "./schema.ts";

const service = () =>
  Promise.all([
    import("../../../services/workflow/start.ts"),
    import("../../../services/workflow/plan.ts"),
    import("../../../services/workflow/run.ts"),
    import("../../../services/workflow/host.ts"),
    import("../../../services/workflow/views.ts"),
  ]);

/** What a tool declares for a success: its output type without ok and error. */
type Success<T extends { infer: object }> = Omit<T["infer"], "ok" | "error">;

/** A service's value as the reply, checked by the compiler against the tool's declared output type. */
function reply<S extends object>(out: Result<S>, text: (v: S) => string): ToolOutcome {
  if (!out.ok) return { ok: false, error: out.error };
  const data: Record<string, unknown> = Object.fromEntries(Object.entries(out.value));
  return { ok: true, data, text: text(out.value) };
}

function approverOf(ctx: ToolContext) {
  const elicit = ctx.elicit;
  return elicit ? { ask: (q: string) => elicit(q) } : undefined;
}

export function workflowStart(input: typeof workflowStartInput.infer, ctx: ToolContext): Promise<ToolOutcome> {
  return withRuntime(async (rt) => {
    const host = resolveHost(rt, ctx.clientName);
    if (!host.ok) return { ok: false, error: host.error };
    const [{ startWorkflow }] = await service();
    return reply<Success<typeof workflowStartOutput>>(
      await startWorkflow(rt, input, host.value),
      (v) => `Workflow ${v.workflow_id} started at ${v.commit.slice(0, 12)}. Next: workflow_plan_step(step: "research").`,
    );
  });
}

/** Two calls, like a step: without a token a preview and the token; with it, the person asked where the client can, then applied. */
export function workflowReplan(input: typeof workflowReplanInput.infer, ctx: ToolContext): Promise<ToolOutcome> {
  return withRuntime(async (rt) => {
    const host = resolveHost(rt, ctx.clientName);
    if (!host.ok) return { ok: false, error: host.error };
    const { previewReplan, applyReplan } = await import("../../../services/workflow/replan.ts");
    if (input.token === undefined) {
      const approval = ctx.elicit ? "elicitation" : "token";
      const out = previewReplan(rt, input.workflow_id, input.steps, host.value);
      return reply<Success<typeof workflowReplanOutput>>(
        out.ok ? { ok: true, value: { ...out.value, approval } } : out,
        (v) =>
          `Replan preview (nothing changed yet): ${v.decisions.map((d) => `${d.step} ${d.changed ? "changes" : "stays"}`).join(", ")}; ${(v.cancels ?? []).length} planned step(s) would be cancelled. Show this to the person, then call workflow_replan again with the same steps and the token${approval === "elicitation" ? " (the person is asked to approve)" : ""}.`,
      );
    }
    const out = await applyReplan(rt, input.workflow_id, input.steps, input.token, host.value, approverOf(ctx));
    return reply<Success<typeof workflowReplanOutput>>(
      out,
      (v) => `Re-decided ${v.steps.join(", ")}; every other step keeps its routing. ${v.cancelled} planned step(s) were cancelled: plan again.`,
    );
  });
}

export function workflowPlanStep(input: typeof workflowPlanStepInput.infer, ctx: ToolContext): Promise<ToolOutcome> {
  return withRuntime(async (rt) => {
    const [, { planStep }] = await service();
    const approval = ctx.elicit ? "elicitation" : "token";
    const out = await planStep(rt, input);
    return reply<Success<typeof workflowPlanStepOutput>>(
      out.ok ? { ok: true, value: { ...out.value, approval } } : out,
      (v) =>
        `Step ${v.step} (round ${v.round}) planned for ${v.executor === "host" ? "the host" : v.agent ? `${v.agent.id} in ${v.execution} mode` : `reviewers ${(v.reviewers ?? []).map((r) => r.id).join(", ")}`}; nothing was sent.${v.cost ? ` Estimated cost: ${totalLine(v.cost.total)}.` : ""} Show this to the person, then ${v.executor === "host" ? "workflow_record_host_step" : "workflow_run_step"} with step_id ${v.step_id} and the token${approval === "elicitation" ? " (the person is asked to approve)" : ""}.`,
    );
  });
}

/**
 * The token is spent (and the person asked) while the call is live; the step then runs as a job, so
 * one longer than the client's ceiling answers with its id, background: true answers with it at once,
 * and as an MCP task it runs to its end.
 */
export function workflowRunStep(input: typeof workflowRunStepInput.infer, ctx: ToolContext): Promise<ToolOutcome> {
  return withRuntime(async (rt) => {
    const [, , { prepareStep }] = await service();
    const { background, ...request } = input;
    const prepared = await prepareStep(rt, request, approverOf(ctx));
    if (!prepared.ok) return { ok: false, error: prepared.error };
    return runAsJob(rt, ctx, { kind: "workflow_step", request: prepared.value, background: background === true }, workflowStepKind);
  });
}

export function workflowRecordHostStep(input: typeof workflowRecordHostStepInput.infer, ctx: ToolContext): Promise<ToolOutcome> {
  return withRuntime(async (rt) => {
    const [, , , { recordHostStep }] = await service();
    return reply<Success<typeof workflowRecordHostStepOutput>>(
      await recordHostStep(rt, input, approverOf(ctx)),
      (v) => `Step ${v.step} recorded. Call workflow_status for what comes next.`,
    );
  });
}

export function workflowStatus(input: typeof workflowStatusInput.infer): Promise<ToolOutcome> {
  return withRuntime(async (rt) => {
    const [, , , , { getWorkflow, listWorkflows }] = await service();
    if (!input.workflow_id) {
      const workflows = listWorkflows(rt);
      const data: Success<typeof workflowStatusOutput> = { workflows };
      return { ok: true, data, text: workflows.map((w) => `${w.workflow_id} ${w.status} round ${w.round}: ${w.goal}`).join("\n") || "No workflows." };
    }
    return reply<Success<typeof workflowStatusOutput>>(
      getWorkflow(rt, input.workflow_id),
      (v) => `Workflow ${v.workflow_id}: ${v.status}, round ${v.round}/${v.max_fix_rounds ?? "?"}, loop_done ${v.loop_done}. Next: ${v.next}.`,
    );
  });
}

export function workflowCancel(input: typeof workflowIdInput.infer): Promise<ToolOutcome> {
  return withRuntime(async (rt) => {
    const [{ cancelWorkflow }] = await service();
    return reply<Success<typeof workflowCancelOutput>>(
      cancelWorkflow(rt, input.workflow_id),
      (v) => `Workflow ${v.workflow_id} cancelled; its planned tokens are dead.`,
    );
  });
}

export function workflowDelete(input: typeof workflowIdInput.infer): Promise<ToolOutcome> {
  return withRuntime(async (rt) => {
    const [{ deleteWorkflow }] = await service();
    return reply<Success<typeof workflowDeleteOutput>>(
      deleteWorkflow(rt, input.workflow_id),
      (v) => `Workflow ${v.workflow_id} and its steps were deleted (its reviews stay in the review history).`,
    );
  });
}
