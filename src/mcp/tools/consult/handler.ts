/** The consult tools' handlers, typed by their schemas: call a service, shape the reply. Never throw. */
import type { ToolContext } from "../../define.ts";
import type { ToolOutcome } from "../../outcome.ts";
import { getConsultation as consultationView, listAgents as agentListing } from "../../../services/consult/views.ts";
import { runAsJob } from "../../jobs/bridge.ts";
import { withRuntime } from "../runtime.ts";
import { consultKind } from "./kind.ts";
import { formatAgents, formatConsultation } from "./format.ts";
import { inSeedCodes } from "./seed-codes.ts";
import type { consultInput, getConsultationInput, listAgentsInput } from "./schema.ts";

/** Runs as a consult job, shaped by its job kind (./kind.ts) like job_wait and tasks/result; a seed's client gets the seeds' codes. */
export async function consult(input: typeof consultInput.infer, ctx: ToolContext): Promise<ToolOutcome> {
  const { background, ...request } = input;
  const outcome = await withRuntime((rt) => runAsJob(rt, ctx, { kind: "consult", request, background: background === true }, consultKind));
  return ctx.seedClient ? inSeedCodes(outcome, input.source_mode === "web") : outcome;
}

export function listAgents(_input: typeof listAgentsInput.infer, ctx: ToolContext): Promise<ToolOutcome> {
  return withRuntime(async (rt) => {
    const listing = await agentListing(rt, ctx.clientName);
    return { ok: true, data: { ...listing }, text: formatAgents(listing) };
  });
}

export async function getConsultation(input: typeof getConsultationInput.infer, ctx: ToolContext): Promise<ToolOutcome> {
  const outcome = await withRuntime((rt) => {
    const out = consultationView(rt, input.id);
    if (!out.ok) return { ok: false, error: out.error };
    return { ok: true, data: { ...out.value }, text: formatConsultation(out.value) };
  });
  return ctx.seedClient ? inSeedCodes(outcome, false) : outcome;
}
