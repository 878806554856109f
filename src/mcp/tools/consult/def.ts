/** consult, list_agents, get_consultation: always advertised (seed 001). Schemas and handlers load on the first call. */
import type { Failure } from "../../../result.ts";
import { defineTool, type ToolContext } from "../../define.ts";
import type { ToolOutcome } from "../../outcome.ts";
import consultDescription from "./consult.txt" with { type: "text" };

const schema = () => import("./schema.ts");
const handlers = () => import("./handler.ts");

/** Arguments refused before the handler reach a seed's client in the seeds' codes too (invalid_request). */
const seedRefusal = async (failure: Failure, _args: unknown, ctx: ToolContext): Promise<ToolOutcome> => {
  const outcome: ToolOutcome = { ok: false, error: failure };
  return ctx.seedClient ? (await import("./seed-codes.ts")).inSeedCodes(outcome, false) : outcome;
};

export const consultTools = [
  defineTool({
    name: "consult",
    seedEnvelope: true,
    group: "consult",
    description: consultDescription,
    annotations: { title: "Consult another agent", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    task: true,
    schemas: async () => {
      const s = await schema();
      return { input: s.consultInput, output: s.consultOutput };
    },
    handler: async () => (await handlers()).consult,
    refusal: seedRefusal,
  }),
  defineTool({
    name: "list_agents",
    group: "consult",
    description: "Which agents consult can reach from this host: backend, model, capability scores, and whether each is eligible (and why not). Sends nothing.",
    annotations: { title: "List consult agents", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    schemas: async () => {
      const s = await schema();
      return { input: s.listAgentsInput, output: s.listAgentsOutput };
    },
    handler: async () => (await handlers()).listAgents,
  }),
  defineTool({
    name: "get_consultation",
    group: "consult",
    description: "A stored consultation by id: its pinned agent and model, and every turn's question, answer or error. Sends nothing.",
    annotations: { title: "Show a consultation", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    schemas: async () => {
      const s = await schema();
      return { input: s.getConsultationInput, output: s.getConsultationOutput };
    },
    handler: async () => (await handlers()).getConsultation,
    refusal: seedRefusal,
  }),
];
