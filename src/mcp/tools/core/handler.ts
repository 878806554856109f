/** The core tools' handlers, typed by their schemas: call a service, shape the reply. Never throw. */
import type { ToolContext } from "../../define.ts";
import type { ToolOutcome } from "../../outcome.ts";
import { dryRun as planDryRun, listTiers as tierListing } from "../../../services/route/tiers.ts";
import { runAsJob } from "../../jobs/bridge.ts";
import { withRuntime } from "../runtime.ts";
import { routeKind } from "./kind.ts";
import { formatDryRun, formatTiers } from "./format.ts";
import type { dryRunInput, listTiersInput, routeInput } from "./schema.ts";

/** Runs as a route job, shaped by its job kind (./kind.ts) like job_wait and tasks/result. */
export function route(input: typeof routeInput.infer, ctx: ToolContext): Promise<ToolOutcome> {
  const { background, ...request } = input;
  return withRuntime((rt) => runAsJob(rt, ctx, { kind: "route", request, background: background === true }, routeKind));
}

export function listTiers(_input: typeof listTiersInput.infer): Promise<ToolOutcome> {
  return withRuntime((rt) => {
    const listing = tierListing(rt);
    return { ok: true, data: { ...listing }, text: formatTiers(listing) };
  });
}

export function dryRun(input: typeof dryRunInput.infer): Promise<ToolOutcome> {
  return withRuntime(async (rt) => {
    const out = await planDryRun(rt, input);
    if (!out.ok) return { ok: false, error: out.error };
    return { ok: true, data: { ...out.value }, text: formatDryRun(out.value) };
  });
}
