/**
 * The ask tools' handlers, typed by their schemas: call the ask service, shape the envelope.
 * Every outcome of ask — a refusal at the boundary, a config that does not load, an answer — is
 * seed 002's envelope; never a throw. An ask runs as a job like a route (mcp/jobs/bridge.ts): one
 * still waiting for its provider when the sync budget ends answers with a job id and keeps its
 * whole request_timeout_s, instead of being cut at the client's ceiling.
 */
import { listCapabilities as capabilityListing } from "../../../services/ask/index.ts";
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
  const { background, ...request } = input;
  return runAsJob(rt.value, ctx, { kind: "ask", request, background: background === true }, askKind);
}

export function listCapabilities(_input: typeof listCapabilitiesInput.infer): Promise<ToolOutcome> {
  return withRuntime((rt) => {
    const listing = capabilityListing(rt);
    return { ok: true, data: { ...listing }, text: formatCapabilities(listing) };
  });
}
