/**
 * Runs a long tool call as a durable job. With background: true the id comes back at once;
 * otherwise the call waits, and if it is still running when the client's ceiling nears, it answers
 * with the job id and a one-line instruction instead of dying with the client's timeout. Until that
 * moment the client's cancel cancels the job.
 */
import type { ToolContext, ToolOutcome } from "../define.ts";
import type { JobKind } from "../../store/jobs.ts";
import type { Runtime } from "../../services/runtime.ts";
import { cancelJob, followJob, startJob, type JobHooks, type JobOutcome } from "../../services/jobs.ts";
import { syncBudgetSec } from "./sync-budget.ts";

export interface JobRequest {
  kind: JobKind;
  args: unknown;
  background: boolean;
}

export async function runAsJob(rt: Runtime, ctx: ToolContext, req: JobRequest, work: (hooks: JobHooks) => Promise<JobOutcome>, shape: (result: Record<string, unknown>) => ToolOutcome): Promise<ToolOutcome> {
  const { id, done } = startJob(rt, req.kind, req.args, work);
  if (req.background) return accepted(id, "Started in the background.");
  followJob(id, ctx.wantsProgress ? (m) => ctx.progress(m) : undefined);
  const onAbort = () => cancelJob(id, "cancelled");
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  // A task waits for the real end; a plain call only up to the client's ceiling.
  const budgetMs = ctx.runToCompletion ? undefined : syncBudgetSec(rt.env, rt.config.syncBudgetSec, ctx.clientName) * 1000;
  const first = budgetMs === undefined ? await done : await beforeDeadline(done, budgetMs);
  ctx.signal.removeEventListener("abort", onAbort);
  if (first === "overtime") {
    followJob(id, undefined);
    return accepted(id, `Still running after ${Math.round((budgetMs ?? 0) / 1000)} s, so it continues as a job.`);
  }
  return shape(first.result);
}

async function beforeDeadline<T>(work: Promise<T>, ms: number): Promise<T | "overtime"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const overtime = new Promise<"overtime">((resolve) => {
    timer = setTimeout(() => resolve("overtime"), ms);
  });
  try {
    return await Promise.race([work, overtime]);
  } finally {
    clearTimeout(timer);
  }
}

function accepted(id: string, why: string): ToolOutcome {
  const instruction = `Call job_wait({"id":"${id}"}) to wait for the result (repeat while status is running), or job_cancel to stop it.`;
  return { ok: true, data: { attempts: [], job: { id, status: "running", instruction } }, text: `${why} Job ${id}. ${instruction}` };
}
