/**
 * A job as a tool answer. A finished job's result is shaped by its kind (./kinds.ts), the same
 * way the call that started it would have answered: a failed route is `isError` with the route's
 * code. A job with nothing readable to shape (a dead server's, or one stored without content) still
 * fails with the code and message on its record.
 */
import type { Failure } from "../../../result.ts";
import { isErrorCode } from "../../../errors.ts";
import type { JobView } from "../../../services/shared/jobs.ts";
import type { ToolOutcome } from "../../outcome.ts";
import { JOB_KINDS } from "./kinds.ts";

export function notFound(id: string): ToolOutcome {
  return { ok: false, error: { code: "job_not_found", message: `No job ${id}.`, hint: "Job ids come from route/consult replies with a job field." } };
}

export async function viewOutcome(view: JobView | undefined, id: string): Promise<ToolOutcome> {
  if (!view) return notFound(id);
  const data = {
    id: view.id,
    kind: view.kind,
    status: view.status,
    progress: view.progress,
    partialOutput: view.partialOutput,
    treeChanged: view.treeChanged,
    result: view.result ?? null,
  };
  if (view.status === "running") return { ok: true, data, text: `Job ${id} is running. ${view.progress ?? ""}\nCall job_wait again to keep waiting.` };
  const shaped = view.result === undefined || view.result === null ? undefined : await JOB_KINDS[view.kind].shapeStored(view.result);
  const head = `Job ${id} ${view.status}${view.errorCode ? ` [${view.errorCode}]` : ""}${view.errorMessage ? `: ${view.errorMessage}` : ""}`;
  const text = `${head}\n${shaped?.text ?? view.partialOutput ?? ""}`;
  if (view.status === "ok") return { ok: true, data, text };
  return { ok: false, error: shaped && !shaped.ok ? shaped.error : recordedFailure(view), data, text };
}

function recordedFailure(view: JobView): Failure {
  const recorded = view.errorCode && isErrorCode(view.errorCode) ? view.errorCode : undefined;
  return { code: recorded ?? (view.status === "cancelled" ? "cancelled" : "internal_error"), message: view.errorMessage ?? `Job ${view.id} ${view.status}.` };
}
