/**
 * Job kinds, service side: what each kind of durable job runs — a route, a consult, a review, a
 * workflow step or an ask — and how its result is recorded. Starting a job goes from here straight to
 * its service, so a job never calls back up into the MCP layer, which only shapes the result
 * (mcp/jobs/shaped.ts). The services load with their first job, not with this module.
 */
import type { JobKind } from "../../store/jobs.ts";
import type { Settled } from "../../result.ts";
import type { Runtime } from "../shared/runtime.ts";
import type { RouteOutcome, RouteRequest } from "../route/index.ts";
import type { ConsultEnvelope, ConsultRequest } from "../consult/index.ts";
import type { ReviewJobRequest, ReviewOutcome } from "../review/index.ts";
import type { StepJobOutcome, StepJobRequest } from "../workflow/index.ts";
import { askKeyValues, type AskJobResult, type AskRequest } from "../ask/index.ts";
import { startJob, type JobEnd, type JobHooks, type JobVerdict } from "../shared/jobs.ts";

/** Each kind's request and service result; its keys must be the store's job kinds. */
export interface JobKinds {
  route: { request: RouteRequest; result: RouteOutcome };
  consult: { request: ConsultRequest; result: ConsultEnvelope };
  review: { request: ReviewJobRequest; result: ReviewOutcome };
  workflow_step: { request: StepJobRequest; result: StepJobOutcome };
  ask: { request: AskRequest; result: AskJobResult };
}

/** Who asked: the MCP client's name steers consult's host detection. */
export interface JobCaller {
  clientName?: string;
}

interface KindRunner<K extends JobKind> {
  run: (rt: Runtime, request: JobKinds[K]["request"], hooks: JobHooks, caller: JobCaller) => Promise<JobKinds[K]["result"]>;
  /** Whether the run changed the working tree, when the kind can tell. */
  treeChanged?: (result: JobKinds[K]["result"]) => boolean | null;
  /** Values to scrub from the stored args and result whatever their shape (an ask's deployment keys). */
  storedSecrets?: (rt: Runtime) => string[];
}

const RUNNERS: { [K in JobKind]: KindRunner<K> } = {
  route: {
    run: async (rt, request, hooks) =>
      (await import("../route/index.ts")).routeTask(rt, request, { signal: hooks.signal, onProgress: hooks.onProgress, onOutput: hooks.onOutput }),
    treeChanged: (outcome) => outcome.attempts.at(-1)?.treeChanged ?? null,
  },
  consult: {
    run: async (rt, request, hooks, caller) =>
      (await import("../consult/index.ts")).consult(rt, request, {
        ...(caller.clientName ? { clientName: caller.clientName } : {}),
        signal: hooks.signal,
        onProgress: hooks.onProgress,
      }),
  },
  review: {
    run: async (rt, request, hooks) => (await import("../review/index.ts")).runReviewers(rt, request, { signal: hooks.signal, onProgress: hooks.onProgress }),
  },
  workflow_step: {
    run: async (rt, request, hooks) => (await import("../workflow/index.ts")).executeStep(rt, request, hooks.signal),
  },
  ask: {
    run: async (rt, request, hooks) => (await import("../ask/index.ts")).askJob(rt, request, { signal: hooks.signal, onProgress: hooks.onProgress }),
    storedSecrets: askKeyValues,
  },
};

export function startKindJob<K extends JobKind>(
  rt: Runtime,
  kind: K,
  request: JobKinds[K]["request"],
  caller: JobCaller = {},
): { id: string; done: Promise<JobEnd<JobKinds[K]["result"]>> } {
  const runner: KindRunner<K> = RUNNERS[kind];
  const secrets = runner.storedSecrets?.(rt) ?? [];
  return startJob(rt, {
    kind,
    args: request,
    ...(secrets.length > 0 ? { stored: (json: string) => secrets.reduce((text, secret) => text.split(secret).join("[REDACTED:key]"), json) } : {}),
    run: (hooks) => runner.run(rt, request, hooks, caller),
    verdict: (result) => verdictOf(result, runner.treeChanged?.(result)),
  });
}

/** Every kind's service answers `Settled`; a cancelled one is recorded as cancelled, not failed. */
function verdictOf(result: Settled, treeChanged: boolean | null | undefined): JobVerdict {
  const tree = treeChanged === undefined ? {} : { treeChanged };
  if (result.ok) return { status: "ok", ...tree };
  const status = result.error.code === "cancelled" ? "cancelled" : "failed";
  return { status, errorCode: result.error.code, errorMessage: result.error.message, ...tree };
}
