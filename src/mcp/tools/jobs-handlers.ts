/** job_status / job_wait / job_cancel. */
import type { LoadedTool, ToolContext, ToolOutcome } from "../define.ts";
import { validatorFor } from "../schemas/validate.ts";
import { jobCancelInput, jobStatusInput, jobWaitInput } from "../schemas/jobs.ts";
import type { Runtime } from "../../services/runtime.ts";
import { cancelJob, followJob, jobView, waitJob, type JobView } from "../../services/jobs.ts";
import { formatRoute } from "./format.ts";
import type { RouteOutcome } from "../../services/route.ts";
import { withRuntime } from "./with-runtime.ts";

export const jobStatusTool: LoadedTool = {
  validate: validatorFor(jobStatusInput),
  handler: (input) => withRuntime((rt) => viewResult(jobView(rt, String(input.id)), String(input.id))),
};

export const jobWaitTool: LoadedTool = {
  validate: validatorFor(jobWaitInput),
  handler: (input, ctx: ToolContext) =>
    withRuntime(async (rt) => {
      const id = String(input.id);
      followJob(id, ctx.wantsProgress ? (m) => ctx.progress(m) : undefined);
      const view = await waitJob(rt, id, Number(input.waitSec ?? 30), ctx.signal);
      followJob(id, undefined);
      return viewResult(view, id);
    }),
};

export const jobCancelTool: LoadedTool = {
  validate: validatorFor(jobCancelInput),
  handler: (input, ctx: ToolContext) =>
    withRuntime(async (rt) => {
      const id = String(input.id);
      const view = jobView(rt, id);
      if (!view) return notFound(id);
      if (view.status !== "running") return viewResult(view, id);
      if (!cancelJob(id)) return { ok: false, error: { code: "job_not_owned", message: `Job ${id} belongs to another orchestrate process (one per MCP client); cancel it from the client that started it.` } };
      return viewResult(await waitJob(rt, id, 15, ctx.signal), id);
    }),
};

function notFound(id: string): ToolOutcome {
  return { ok: false, error: { code: "job_not_found", message: `No job ${id}.`, hint: "Job ids come from route/consult replies with a job field." } };
}

function viewResult(view: JobView | undefined, id: string): ToolOutcome {
  if (!view) return notFound(id);
  const data = { id: view.id, kind: view.kind, status: view.status, progress: view.progress, partialOutput: view.partialOutput, treeChanged: view.treeChanged, result: (view.result ?? null) as Record<string, unknown> | null };
  if (view.status === "running") return { ok: true, data, text: `Job ${id} is running. ${view.progress ?? ""}\nCall job_wait again to keep waiting.` };
  const body = view.kind === "route" && view.result ? formatRoute(view.result as RouteOutcome) : (view.partialOutput ?? "");
  const head = `Job ${id} ${view.status}${view.errorCode ? ` [${view.errorCode}]` : ""}${view.errorMessage ? `: ${view.errorMessage}` : ""}`;
  return { ok: true, data, text: `${head}\n${body}` };
}

export type { Runtime };
