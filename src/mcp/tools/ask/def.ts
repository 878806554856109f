/**
 * ask and list_capabilities (seed 002): advertised only when the config names capabilities with
 * deployments (tools/index.ts gates the group). Schemas and handlers load on the first call.
 */
import { defineTool } from "../../define.ts";
import { advertiseAsk } from "./advertise.ts";
import askDescription from "./ask.txt" with { type: "text" };

const schema = () => import("./schema.ts");
const handlers = () => import("./handler.ts");
const outcomes = () => import("./outcome.ts");

export const askTools = [
  defineTool({
    name: "ask",
    seedEnvelope: true,
    group: "ask",
    description: askDescription,
    annotations: { title: "Ask a capability's model", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    // A long ask is a job like a long route: a task for clients that have them, else a job id at the sync budget.
    task: true,
    schemas: async () => {
      const s = await schema();
      return { input: s.askInput, output: s.askOutput };
    },
    handler: async () => (await handlers()).ask,
    // tools/list shows the configured capabilities as an enum and the configured size limits.
    advertise: advertiseAsk,
    // Refusals before the handler (unknown or malformed arguments) come back in the envelope too.
    refusal: async (failure, args) =>
      (await outcomes()).askRefusal(typeof args === "object" && args !== null && "capability" in args ? args.capability : undefined, failure),
  }),
  defineTool({
    name: "list_capabilities",
    group: "ask",
    description:
      "What each ask capability is for, the deployments behind it (and which are cooling down), where it falls back, and the request limits. Sends nothing.",
    annotations: { title: "List ask capabilities", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    schemas: async () => {
      const s = await schema();
      return { input: s.listCapabilitiesInput, output: s.listCapabilitiesOutput };
    },
    handler: async () => (await handlers()).listCapabilities,
  }),
];
