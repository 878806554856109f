import { defineTool } from "../define.ts";

/** route, list_tiers, router_dry_run: always advertised. Handlers load on first call. */
export const coreTools = [
  defineTool({
    name: "route",
    group: "core",
    description:
      "Delegate a coding task to another coding-agent CLI chosen by cost tier (light = cheap grunt work, standard, heavy = hardest problems). Runs in `cwd`; falls back only on a fast clean failure with an unchanged git tree. Returns who served it, the attempt trace and the delegate's final answer. Long runs: pass background: true and poll job_wait.",
    annotations: { title: "Route a task to a tier", readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    load: async () => (await import("./core-handlers.ts")).routeTool,
  }),
  defineTool({
    name: "list_tiers",
    group: "core",
    description: "Which tiers and capabilities are configured (presence only), which are cooling down, and which CLIs are installed. Sends nothing anywhere.",
    annotations: { title: "List configured tiers", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    load: async () => (await import("./core-handlers.ts")).listTiersTool,
  }),
  defineTool({
    name: "router_dry_run",
    group: "core",
    description: "Preview exactly who a route call would reach, in order, with every authorization decision, cross-provider crossing and the time-budget split. Sends no prompt.",
    annotations: { title: "Preview a route", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    load: async () => (await import("./core-handlers.ts")).dryRunTool,
  }),
];
