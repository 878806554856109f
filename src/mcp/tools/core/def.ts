/** route, list_tiers, router_dry_run: always advertised. Schemas and handlers load on the first call. */
import { defineTool } from "../../define.ts";
import routeDescription from "./route.txt" with { type: "text" };

const schema = () => import("./schema.ts");
const handlers = () => import("./handler.ts");

export const coreTools = [
  defineTool({
    name: "route",
    group: "core",
    description: routeDescription,
    annotations: { title: "Route a task to a tier", readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    task: true,
    schemas: async () => {
      const s = await schema();
      return { input: s.routeInput, output: s.routeOutput };
    },
    handler: async () => (await handlers()).route,
  }),
  defineTool({
    name: "list_tiers",
    group: "core",
    description: "Which tiers and capabilities are configured (presence only), which are cooling down, and which CLIs are installed. Sends nothing anywhere.",
    annotations: { title: "List configured tiers", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    schemas: async () => {
      const s = await schema();
      return { input: s.listTiersInput, output: s.listTiersOutput };
    },
    handler: async () => (await handlers()).listTiers,
  }),
  defineTool({
    name: "router_dry_run",
    group: "core",
    description:
      "Preview exactly who a route call would reach, in order, with every authorization decision, cross-provider crossing, the time-budget split and an estimated cost per recipient (pass the prompt to count it). Sends nothing.",
    annotations: { title: "Preview a route", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    schemas: async () => {
      const s = await schema();
      return { input: s.dryRunInput, output: s.dryRunOutput };
    },
    handler: async () => (await handlers()).dryRun,
  }),
];
