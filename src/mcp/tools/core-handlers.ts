/** Handlers of the core tools: validate (arktype, loaded here), call a service, shape the reply. */
import type { LoadedTool, ToolContext, ToolOutcome } from "../define.ts";
import { validatorFor } from "../schemas/validate.ts";
import { dryRunInput, listTiersInput, routeInput } from "../schemas/core.ts";
import type { Runtime } from "../../services/runtime.ts";
import type { JobHooks, JobOutcome } from "../../services/jobs.ts";
import { routeTask, type RouteOutcome, type RouteRequest } from "../../services/route.ts";
import { dryRun, listTiers, type DryRunRequest } from "../../services/tiers.ts";
import { runAsJob } from "./job-bridge.ts";
import { formatRoute, formatDryRun, formatTiers } from "./format.ts";
import { withRuntime } from "./with-runtime.ts";

export const routeTool: LoadedTool = {
  validate: validatorFor(routeInput),
  handler: (input, ctx: ToolContext) =>
    withRuntime((rt) => {
      const { background, ...req } = input as unknown as RouteRequest & { background?: boolean };
      return runAsJob(rt, ctx, { kind: "route", args: req, background: background === true }, (hooks) => routeJob(rt, req, hooks), routeResult);
    }),
};

async function routeJob(rt: Runtime, req: RouteRequest, hooks: JobHooks): Promise<JobOutcome> {
  const outcome = await routeTask(rt, req, { signal: hooks.signal, onProgress: hooks.onProgress, onOutput: hooks.onOutput });
  const cancelled = outcome.error?.code === "cancelled";
  return {
    ok: outcome.ok,
    status: outcome.ok ? "ok" : cancelled ? "cancelled" : "failed",
    result: outcome as unknown as Record<string, unknown>,
    ...(outcome.error ? { errorCode: outcome.error.code, errorMessage: outcome.error.message } : {}),
    treeChanged: outcome.attempts.at(-1)?.treeChanged ?? null,
  };
}

export function routeResult(result: Record<string, unknown>): ToolOutcome {
  const outcome = result as unknown as RouteOutcome;
  const { ok, error, ...data } = outcome;
  if (ok) return { ok: true, data, text: formatRoute(outcome) };
  return { ok: false, error: error ?? { code: "internal_error", message: "route failed without an error" }, data, text: formatRoute(outcome) };
}

export const listTiersTool: LoadedTool = {
  validate: validatorFor(listTiersInput),
  handler: () =>
    withRuntime((rt) => {
      const listing = listTiers(rt);
      return { ok: true, data: { ...listing }, text: formatTiers(listing) };
    }),
};

export const dryRunTool: LoadedTool = {
  validate: validatorFor(dryRunInput),
  handler: (input) =>
    withRuntime((rt) => {
      const out = dryRun(rt, input as unknown as DryRunRequest);
      if (!out.ok) return { ok: false, error: out.error };
      return { ok: true, data: { ...out.value }, text: formatDryRun(out.value) };
    }),
};
