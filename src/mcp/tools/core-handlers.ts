/** Handlers of the core tools: validate (arktype, loaded here), call a service, shape the reply. */
import type { LoadedTool, ToolContext, ToolOutcome } from "../define.ts";
import { validatorFor } from "../schemas/validate.ts";
import { dryRunInput, listTiersInput, routeInput } from "../schemas/core.ts";
import { getRuntime, runtimeFailure } from "../../services/runtime.ts";
import { routeTask, type RouteOutcome, type RouteRequest } from "../../services/route.ts";
import { dryRun, listTiers, type DryRunRequest } from "../../services/tiers.ts";
import { formatRoute, formatDryRun, formatTiers } from "./format.ts";

async function withRuntime(fn: (rt: import("../../services/runtime.ts").Runtime) => Promise<ToolOutcome> | ToolOutcome): Promise<ToolOutcome> {
  const rt = await getRuntime(process.env);
  if (!rt.ok) return { ok: false, error: runtimeFailure(rt.error) };
  return fn(rt.value);
}

export const routeTool: LoadedTool = {
  validate: validatorFor(routeInput),
  handler: (input, ctx: ToolContext) =>
    withRuntime(async (rt) => {
      const req = input as unknown as RouteRequest;
      const outcome = await routeTask(rt, req, { signal: ctx.signal, ...(ctx.wantsProgress ? { onProgress: (m: string) => ctx.progress(m) } : {}) });
      return routeResult(outcome);
    }),
};

export function routeResult(outcome: RouteOutcome): ToolOutcome {
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
