/** job_status / job_wait / job_cancel, typed by their schemas. Never throw. */
import type { ToolContext } from "../../define.ts";
import type { ToolOutcome } from "../../outcome.ts";
import { cancelJob, followJob, jobView, waitJob } from "../../../services/shared/jobs.ts";
import { withRuntime } from "../runtime.ts";
import type { JobView } from "../../../services/shared/jobs.ts";
import { inSeedCodes } from "../consult/seed-codes.ts";
import { notFound, viewOutcome as plainViewOutcome } from "./view.ts";
import type { jobCancelInput, jobStatusInput, jobWaitInput } from "./schema.ts";

/** A consult job read back answers a seed's client in the seeds' codes, as the consult call would have. */
async function viewOutcome(view: JobView | undefined, id: string, ctx: ToolContext): Promise<ToolOutcome> {
  const outcome = await plainViewOutcome(view, id);
  return ctx.seedClient && view?.kind === "consult" ? inSeedCodes(outcome, false) : outcome;
}

export function jobStatus(input: typeof jobStatusInput.infer, ctx: ToolContext): Promise<ToolOutcome> {
  return withRuntime((rt) => viewOutcome(jobView(rt, input.id), input.id, ctx));
}

export function jobWait(input: typeof jobWaitInput.infer, ctx: ToolContext): Promise<ToolOutcome> {
  return withRuntime(async (rt) => {
    followJob(input.id, ctx.wantsProgress ? (m) => ctx.progress(m) : undefined);
    const view = await waitJob(rt, input.id, input.waitSec ?? 30, ctx.signal);
    followJob(input.id, undefined);
    return viewOutcome(view, input.id, ctx);
  });
}

export function jobCancel(input: typeof jobCancelInput.infer, ctx: ToolContext): Promise<ToolOutcome> {
  return withRuntime(async (rt) => {
    const view = jobView(rt, input.id);
    if (!view) return notFound(input.id);
    if (view.status !== "running") return viewOutcome(view, input.id, ctx);
    if (!cancelJob(input.id))
      return {
        ok: false,
        error: {
          code: "job_not_owned",
          message: `Job ${input.id} belongs to another orchestrate process (one per MCP client); cancel it from the client that started it.`,
        },
      };
    return viewOutcome(await waitJob(rt, input.id, 15, ctx.signal), input.id, ctx);
  });
}
