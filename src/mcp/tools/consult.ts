import { defineTool } from "../define.ts";

/** consult, list_agents, get_consultation: always advertised (seed 001). Handlers load on first call. */
export const consultTools = [
  defineTool({
    name: "consult",
    group: "consult",
    description:
      "Ask another vendor's coding agent for a second opinion, answer-only (it runs no tools and sees no files: put what it needs in context). Picked by capability score; your own runtime is excluded; no fallback. Returns {answer, assumptions, uncertainties, follow_up_questions, sources}. Pass consultation_id to follow up in the same session.",
    annotations: { title: "Consult another agent", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    load: async () => (await import("./consult-handlers.ts")).consultTool,
  }),
  defineTool({
    name: "list_agents",
    group: "consult",
    description: "Which agents consult can reach from this host: backend, model, capability scores, and whether each is eligible (and why not). Sends nothing.",
    annotations: { title: "List consult agents", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    load: async () => (await import("./consult-handlers.ts")).listAgentsTool,
  }),
  defineTool({
    name: "get_consultation",
    group: "consult",
    description: "A stored consultation by id: its pinned agent and model, and every turn's question, answer or error. Sends nothing.",
    annotations: { title: "Show a consultation", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    load: async () => (await import("./consult-handlers.ts")).getConsultationTool,
  }),
];
