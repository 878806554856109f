import { defineCommand } from "citty";
import { VERSION } from "../version.ts";

export const rootCommand = defineCommand({
  meta: {
    name: "orchestrate",
    version: VERSION,
    description: "MCP server that hands coding work to the other coding-agent CLIs on this machine. With no arguments it serves MCP over stdio.",
  },
  subCommands: {
    serve: () =>
      Promise.resolve(
        defineCommand({
          meta: { name: "serve", description: "Serve MCP over stdio (the default with no arguments)." },
          run: async () => (await import("./serve.ts")).serve(),
        }),
      ),
    check: () => import("./check.ts").then((m) => m.checkCommand),
    run: () => import("./run.ts").then((m) => m.runCommand),
    consult: () => import("./consult.ts").then((m) => m.consultCommand),
    review: () => import("./review.ts").then((m) => m.reviewCommand),
    init: () => import("./init.ts").then((m) => m.initCommand),
    "accept-pending": () => import("./accept-pending.ts").then((m) => m.acceptPendingCommand),
    import: () => import("./import.ts").then((m) => m.importCommand),
    history: () => import("./history.ts").then((m) => m.historyCommand),
    dashboard: () => import("./dashboard.ts").then((m) => m.dashboardCommand),
    smoke: () => import("./smoke.ts").then((m) => m.smokeCommand),
    cooldowns: () => import("./cooldowns.ts").then((m) => m.cooldownsCommand),
    agents: () => import("./agents.ts").then((m) => m.agentsCommand),
  },
});
