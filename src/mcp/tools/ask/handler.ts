/**
 * The ask tools' handlers, typed by their schemas: call the ask service, shape the envelope.
 * Every outcome of ask — a refusal at the boundary, a config that does not load, an answer — is
 * seed 002's envelope; never a throw. An ask runs as a job like a route (mcp/jobs/bridge.ts): one
 * still waiting for its provider when the sync budget ends answers with a job id and keeps its
 * whole request_timeout_s, instead of being cut at the client's ceiling.
 */
import { askDryRun, listCapabilities as capabilityListing, type AskDryRun } from "../../../services/ask/index.ts";
import { estimateLine } from "../../../services/shared/price.ts";
import { getRuntime, runtimeFailure } from "../../../services/shared/runtime.ts";
import type { ToolContext } from "../../define.ts";
import { runAsJob } from "../../jobs/bridge.ts";
import type { ToolOutcome } from "../../outcome.ts";
import { withRuntime } from "../runtime.ts";
import { formatCapabilities } from "./format.ts";
import { askKind } from "./kind.ts";
import { askRefusal } from "./outcome.ts";
import type { askInput, listCapabilitiesInput } from "./schema.ts";

export async function ask(input: typeof askInput.infer, ctx: ToolContext): Promise<ToolOutcome> {
  const rt = await getRuntime(process.env);
  if (!rt.ok) return askRefusal(input.capability, runtimeFailure(rt.error));
  if (input.dry_run) {
    const plan = await askDryRun(rt.value, input);
    return plan.ok ? dryRunOutcome(plan.value) : askRefusal(input.capability, plan.error);
  }
  const { background, dry_run: _dryRun, ...request } = input;
  return runAsJob(rt.value, ctx, { kind: "ask", request, background: background === true }, askKind);
}

/** A dry run: the deployments in the envelope's own shape, with nothing sent (content null, no usage). */
function dryRunOutcome(plan: AskDryRun): ToolOutcome {
  const lines = [`Dry run of ${plan.capability} (${plan.strategy}); nothing was sent. Deployments:`];
  for (const d of plan.deployments)
    lines.push(
      `  ${d.fallback ? "fallback " : ""}${d.capability}: ${d.id} (${d.model})${d.cooling_until ? ` cooling until ${d.cooling_until}` : ""}${d.quota ? ` · quota ${d.quota}` : ""} · ${estimateLine(d.cost)}`,
    );
  return { ok: true, data: { capability_requested: plan.capability, content: null, usage: null, error: null, dry_run: plan }, text: lines.join("\n") };
}

export function listCapabilities(_input: typeof listCapabilitiesInput.infer): Promise<ToolOutcome> {
  return withRuntime((rt) => {
    const listing = capabilityListing(rt);
    return { ok: true, data: { ...listing }, text: formatCapabilities(listing) };
  });
}
