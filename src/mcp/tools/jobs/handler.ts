/** job_status / job_wait / job_cancel, typed by their schemas. Never throw. */
import type { ToolContext } from "../../define.ts";
import type { ToolOutcome } from "../../outcome.ts";
import { cancelJob, followJob, jobView, waitJob } from "../../../services/shared/jobs.ts";
import { withRuntime } from "../runtime.ts";
import { notFound, viewOutcome } from "./view.ts";
import type { jobCancelInput, jobStatusInput, jobWaitInput } from "./schema.ts";

export function jobStatus(input: typeof jobStatusInput.infer): Promise<ToolOutcome> {
  return withRuntime((rt) => viewOutcome(jobView(rt, input.id), input.id));
}

export function jobWait(input: typeof jobWaitInput.infer, ctx: ToolContext): Promise<ToolOutcome> {
  return withRuntime(async (rt) => {
    followJob(input.id, ctx.wantsProgress ? (m) => ctx.progress(m) : undefined);
    const view = await waitJob(rt, input.id, input.waitSec ?? 30, ctx.signal);
    followJob(input.id, undefined);
    return viewOutcome(view, input.id);
  });
}

export function jobCancel(input: typeof jobCancelInput.infer, ctx: ToolContext): Promise<ToolOutcome> {
  return withRuntime(async (rt) => {
    const view = jobView(rt, input.id);
    if (!view) return notFound(input.id);
    if (view.status !== "running") return viewOutcome(view, input.id);
    if (!cancelJob(input.id))
      return {
        ok: false,
        error: {
          code: "job_not_owned",
          message: `Job ${input.id} belongs to another orchestrate process (one per MCP client); cancel it from the client that started it.`,
        },
      };
    return viewOutcome(await waitJob(rt, input.id, 15, ctx.signal), input.id);
  });
}
