/** Every tool, from the groups' defs. Importing this loads no schema, handler or service. */
import type { ToolDef } from "../define.ts";
import { coreTools } from "./core/def.ts";
import { consultTools } from "./consult/def.ts";
import { jobTools } from "./jobs/def.ts";
import { initTools } from "./init/def.ts";
import { historyTools } from "./history/def.ts";

/** Every tool the server can advertise, in tools/list order. */
export function allTools(): ToolDef[] {
  return [...coreTools, ...consultTools, ...jobTools, ...initTools, ...historyTools];
}

/** The tools this process advertises: core always; opt-in groups by environment. */
export function activeTools(env: Record<string, string | undefined>): ToolDef[] {
  const optedIn: Partial<Record<ToolDef["group"], boolean>> = {
    init: env.ORCHESTRATE_ALLOW_INIT === "1" || env.MCP_ROUTER_ALLOW_INIT === "1",
    history: env.ORCHESTRATE_HISTORY_TOOLS === "1",
  };
  return allTools().filter((tool) => optedIn[tool.group] ?? true);
}
