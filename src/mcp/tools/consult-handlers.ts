/** Handlers of the consult tools: validate (arktype, loaded here), call a service, shape the reply. */
import type { LoadedTool, ToolContext, ToolOutcome } from "../define.ts";
import { validatorFor } from "../schemas/validate.ts";
import { consultInput, getConsultationInput, listAgentsInput } from "../schemas/consult.ts";
import type { Runtime } from "../../services/runtime.ts";
import type { JobHooks, JobOutcome } from "../../services/jobs.ts";
import { consult, type ConsultEnvelope, type ConsultRequest } from "../../services/consult.ts";
import { getConsultation, listAgents } from "../../services/consult-views.ts";
import { runAsJob } from "./job-bridge.ts";
import { formatAgents, formatConsult, formatConsultation } from "./format.ts";
import { withRuntime } from "./with-runtime.ts";

export const consultTool: LoadedTool = {
  validate: validatorFor(consultInput),
  handler: (input, ctx: ToolContext) =>
    withRuntime((rt) => {
      const { background, ...req } = input as unknown as ConsultRequest & { background?: boolean };
      return runAsJob(rt, ctx, { kind: "consult", args: req, background: background === true }, (hooks) => consultJob(rt, req, ctx.clientName, hooks), consultResult);
    }),
};

async function consultJob(rt: Runtime, req: ConsultRequest, clientName: string | undefined, hooks: JobHooks): Promise<JobOutcome> {
  const envelope = await consult(rt, req, { ...(clientName ? { clientName } : {}), signal: hooks.signal, onProgress: hooks.onProgress });
  const cancelled = envelope.error?.code === "cancelled";
  return {
    ok: envelope.ok,
    status: envelope.ok ? "ok" : cancelled ? "cancelled" : "failed",
    result: envelope as unknown as Record<string, unknown>,
    ...(envelope.error ? { errorCode: envelope.error.code, errorMessage: envelope.error.message } : {}),
  };
}

export function consultResult(result: Record<string, unknown>): ToolOutcome {
  const envelope = result as unknown as ConsultEnvelope;
  const { ok, error, ...data } = envelope;
  if (ok) return { ok: true, data, text: formatConsult(envelope) };
  return { ok: false, error: error ?? { code: "internal_error", message: "consult failed without an error" }, data, text: formatConsult(envelope) };
}

export const listAgentsTool: LoadedTool = {
  validate: validatorFor(listAgentsInput),
  handler: (_input, ctx: ToolContext) =>
    withRuntime(async (rt) => {
      const listing = await listAgents(rt, ctx.clientName);
      return { ok: true, data: { ...listing }, text: formatAgents(listing) };
    }),
};

export const getConsultationTool: LoadedTool = {
  validate: validatorFor(getConsultationInput),
  handler: (input) =>
    withRuntime((rt) => {
      const out = getConsultation(rt, String(input.id));
      if (!out.ok) return { ok: false, error: out.error };
      return { ok: true, data: { ...out.value }, text: formatConsultation(out.value) };
    }),
};
