/**
 * Runs a long tool call as a durable job. With background: true the id comes back at once;
 * otherwise the call waits, and if it is still running when the client's ceiling nears, it answers
 * with the job id and a one-line instruction instead of dying with the client's timeout. Until that
 * moment the client's cancel cancels the job. The result is shaped by its job kind, exactly as
 * job_wait would shape it later.
 */
import type { ToolContext } from "../define.ts";
import type { ToolOutcome } from "../outcome.ts";
import type { JobKind } from "../../store/jobs.ts";
import type { Runtime } from "../../services/shared/runtime.ts";
import { cancelJob, followJob } from "../../services/shared/jobs.ts";
import { startKindJob, type JobKinds } from "../../services/jobs/kinds.ts";
import type { ShapedKind } from "./shaped.ts";
import { syncBudgetSec } from "./sync-budget.ts";

export interface JobCall<K extends JobKind> {
  kind: K;
  request: JobKinds[K]["request"];
  background: boolean;
}

/** `shaping` is the calling tool's own job kind: the bridge knows no tool group. */
export async function runAsJob<K extends JobKind>(
  rt: Runtime,
  ctx: ToolContext,
  call: JobCall<K>,
  shaping: ShapedKind<JobKinds[K]["result"]>,
): Promise<ToolOutcome> {
  const { id, done } = startKindJob(rt, call.kind, call.request, ctx.clientName ? { clientName: ctx.clientName } : {});
  if (call.background) return accepted(id, "Started in the background.");
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
  return first.ok ? shaping.shape(first.value) : { ok: false, error: first.error };
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
